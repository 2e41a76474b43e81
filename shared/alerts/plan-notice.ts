import { parseDuration } from '../config/duration.ts'
import type { Alert } from '../messages/alert.ts'
import { matchFilters } from './match-subscription.ts'
import type { AlertSubscription, Notice } from './subscription.ts'

/**
 * What the alert function does for one alert and one subscription. The rule against floods:
 * - a firing alert goes out unless this subscription was notified of it less than `repeatInterval`
 *   ago (resyncs repeat alerts; subscribers hear them once per interval);
 * - a per-node or per-pod alert is folded while this subscription holds a firing ZoneBrake notice
 *   for the alert's zone: the zone alert speaks for the whole zone;
 * - a resolved alert goes only to subscriptions whose record shows they received the firing
 *   notice, and only if they want resolved notices; either way the record is then cleared.
 * The record is the subscription's `status.notified`, written by the alert function after a 2xx.
 */
export type NoticePlan =
  | { send: true; deliveryId: string; reason: string }
  | { send: false; reason: string; clearRecord: boolean }

/** planNotice decides whether `subscription` hears `alert` at `now`, and under which delivery id. */
export function planNotice(alert: Alert, subscription: AlertSubscription, now: Date): NoticePlan {
  const filters = matchFilters(alert, subscription.spec.filters)
  if (!filters.match) return skip(filters.reason)
  const notified = subscription.status.notified
  const record = notified[alert.id]
  if (alert.status === 'resolved') {
    if (!record || record.failed) return skip('never received the firing notice', record !== undefined)
    if (!subscription.spec.sendResolved) return skip('sendResolved is false', true)
    return { send: true, deliveryId: `${alert.id}:resolved`, reason: `firing notice received at ${record.at}` }
  }
  const brake = zoneBrakeFor(alert, notified)
  if (brake) return skip(`folded into zone alert ${brake} while the zone brake holds`)
  const repeatMs = parseDuration(subscription.spec.repeatInterval) ?? 0
  const sinceMs = record ? now.getTime() - Date.parse(record.at) : Number.POSITIVE_INFINITY
  if (sinceMs < repeatMs) return skip(`notified at ${record?.at}; repeats after ${subscription.spec.repeatInterval}`)
  // The repeat window on the clock, not on startsAt (producers may restamp startsAt on every resync):
  // duplicates within one window share the key; a repeat, ≥ one interval later, always gets a new one.
  const windowStart = new Date(Math.floor(now.getTime() / repeatMs) * repeatMs).toISOString()
  return {
    send: true,
    deliveryId: `${alert.id}:firing:${windowStart}`,
    reason: record ? `repeat after ${subscription.spec.repeatInterval}` : 'first notice',
  }
}

/** zoneBrakeFor returns the id of a firing ZoneBrake notice covering a node or pod alert's zone. */
export function zoneBrakeFor(alert: Alert, notified: Record<string, Notice>): string | undefined {
  if (alert.kind === 'ZoneBrake' || alert.subject.kind === 'Zone' || alert.subject.kind === 'Cluster') return undefined
  const zone = alert.subject.zone
  if (zone === undefined) return undefined
  return Object.entries(notified).find(([, n]) => n.kind === 'ZoneBrake' && n.zone === zone)?.[0]
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

function skip(reason: string, clearRecord = false): NoticePlan {
  return { send: false, reason, clearRecord }
}
