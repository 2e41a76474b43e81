import { parseDuration } from '../config/duration.ts'
import type { Alert } from '../messages/alert.ts'
import { matchFilters } from './match-subscription.ts'
import type { AlertSubscription, Notice } from './subscription.ts'

/**
 * What the alert function does for one alert and one subscription. The rule against floods:
 * - a firing alert goes out unless this subscription was notified of it less than `repeatInterval`
 *   ago (resyncs repeat alerts; subscribers hear them once per interval);
 * - a node's or pod's alert that decide marked `foldInto` (its zone's brake holds right now) is
 *   folded when this subscription received that ZoneBrake alert: the zone alert speaks for the
 *   whole zone, and only while decide still sees the brake;
 * - a resolved alert goes only to subscriptions whose record shows they received the firing
 *   notice, and only if they want resolved notices; either way the record is then cleared.
 * The record is the subscription's `status.notified`. Fan-out claims it (a `pending` notice, written
 * under the subscription's resourceVersion) before it enqueues a delivery, so copies of one alert
 * that arrive while the first notice is still on its way are skipped; the delivery then replaces
 * the claim with the notice received (or `failed`, when dead-lettered).
 */
export type NoticePlan =
  | { send: true; deliveryId: string; reason: string }
  | { send: false; reason: string; clearRecord: boolean }

/**
 * planNotice decides whether `subscription` hears `alert` at `now`, and under which delivery id.
 * `claimant` is the alerts-queue message planning it: a claim it made itself (SQS redelivered the
 * message after it claimed, before its delivery was enqueued) is planned again, not skipped.
 */
export function planNotice(alert: Alert, subscription: AlertSubscription, now: Date, claimant?: string): NoticePlan {
  const filters = matchFilters(alert, subscription.spec.filters)
  if (!filters.match) return skip(filters.reason)
  const notified = subscription.status.notified
  const record = notified[alert.id]
  if (alert.status === 'resolved') {
    if (!record || record.failed || record.pending !== undefined)
      return skip('never received the firing notice', record !== undefined)
    if (!subscription.spec.sendResolved) return skip('sendResolved is false', true)
    return { send: true, deliveryId: `${alert.id}:resolved`, reason: `firing notice received at ${record.at}` }
  }
  const zoneNotice = alert.foldInto === undefined ? undefined : notified[alert.foldInto]
  if (zoneNotice && !zoneNotice.failed)
    return skip(`folded into zone alert ${alert.foldInto} (notified at ${zoneNotice.at}) while the zone brake holds`)
  const repeatMs = parseDuration(subscription.spec.repeatInterval) ?? 0
  if (record?.pending !== undefined && record.pending === claimant)
    return {
      send: true,
      deliveryId: `${alert.id}:firing:${windowStart(new Date(record.at), repeatMs)}`,
      reason: 'claimed by this message before it was redelivered',
    }
  const sinceMs = record ? now.getTime() - Date.parse(record.at) : Number.POSITIVE_INFINITY
  if (sinceMs < repeatMs) {
    const what = record?.pending === undefined ? 'notified at' : 'notice under way since'
    return skip(`${what} ${record?.at}; repeats after ${subscription.spec.repeatInterval}`)
  }
  return {
    send: true,
    deliveryId: `${alert.id}:firing:${windowStart(now, repeatMs)}`,
    reason: record ? `repeat after ${subscription.spec.repeatInterval}` : 'first notice',
  }
}

/**
 * windowStart is the repeat window on the clock, not on startsAt (producers may restamp startsAt on
 * every resync): duplicates within one window share the key; a repeat, ≥ one interval later, always
 * gets a new one.
 */
function windowStart(at: Date, repeatMs: number): string {
  return new Date(Math.floor(at.getTime() / repeatMs) * repeatMs).toISOString()
}

/** How long past `repeatInterval` a record may go unrefreshed before it is pruned. */
export const NOTICE_RETENTION_MARGIN_MS = 60 * 60 * 1000

/**
 * staleNoticeIds lists the records in `status.notified` nothing has refreshed for longer than the
 * subscription's repeatInterval plus a margin. A problem still firing is re-sent by every resync
 * (5 min) and repeated at least once per repeatInterval, which refreshes its record; so a record this
 * old belongs to an alert that lapsed (level alerts are never resolved) and only grows the object.
 */
export function staleNoticeIds(subscription: AlertSubscription, now: Date): string[] {
  const keepMs = (parseDuration(subscription.spec.repeatInterval) ?? 0) + NOTICE_RETENTION_MARGIN_MS
  return Object.entries(subscription.status.notified)
    .filter(([, n]) => now.getTime() - Date.parse(n.at) > keepMs)
    .map(([id]) => id)
}

/** toNotice is the record kept after a firing notice is delivered (or, `failed`, dead-lettered). */
export function toNotice(alert: Alert, now: Date, failed = false): Notice {
  const zone = alert.subject.kind === 'Zone' ? (alert.subject.zone ?? alert.subject.name) : alert.subject.zone
  return {
    at: now.toISOString(),
    kind: alert.kind,
    ...(zone === undefined ? {} : { zone }),
    ...(failed ? { failed } : {}),
  }
}

/** toClaim is the record fan-out writes before enqueuing a firing delivery: `claimant` is its SQS message id. */
export function toClaim(alert: Alert, now: Date, claimant: string): Notice {
  return { ...toNotice(alert, now), pending: claimant }
}

function skip(reason: string, clearRecord = false): NoticePlan {
  return { send: false, reason, clearRecord }
}
