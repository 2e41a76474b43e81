import { type Delivery, readDelivery, toDeliveryBody } from '../../shared/alerts/delivery-message.ts'
import { planNotice, staleNoticeIds, toClaim, toNotice } from '../../shared/alerts/plan-notice.ts'
import { type DeliveryOutcome, planRetry, type RetryPolicy } from '../../shared/alerts/retry-policy.ts'
import type { AlertSubscription } from '../../shared/alerts/subscription.ts'
import type { Log } from '../../shared/log.ts'
import type { Alert } from '../../shared/messages/alert.ts'
import type { Envelope } from '../../shared/messages/envelope.ts'
import { type AttemptDeps, attemptDelivery } from './attempt-delivery.ts'
import type { SubscriptionSource } from './read-subscriptions.ts'
import type { RecordNotice, RecordResult } from './record-notice.ts'

export type QueuedMessage = { body: string; delaySeconds?: number }
export type DeliveryEvent = 'delivered' | 'retried' | 'deadLettered' | 'skipped' | 'fannedOut'

export type AlertDeps = AttemptDeps & {
  subscriptions: SubscriptionSource
  recordNotice: RecordNotice
  /** Sends to the alerts queue (fan-out and retries). */
  enqueue: (messages: QueuedMessage[]) => Promise<void>
  /** Sends to the alerts dead-letter queue, with the reason in the message. */
  deadLetter: (body: string) => Promise<void>
  random: () => number
  retry: RetryPolicy
  log: Log
  /** Counts outcomes (metrics); optional. */
  count?: (event: DeliveryEvent, n?: number) => void
}

/**
 * handleAlertMessage handles one alerts-queue record: an alert to fan out, or one delivery attempt.
 * `messageId` is the record's SQS message id, stable across redeliveries of that record.
 */
export async function handleAlertMessage(
  envelope: Envelope<'io.nodewarden.alert.v1'>,
  body: string,
  deps: AlertDeps,
  messageId: string,
): Promise<void> {
  const delivery = readDelivery(body, envelope)
  if (delivery) await deliver(delivery, deps)
  else await fanOut(envelope.data, deps, messageId)
}

/** Lost claim races on one subscription before fan-out gives up claiming and sends unclaimed. */
const MAX_CLAIM_CONFLICTS = 10

/**
 * fanOut plans the alert for every subscription and enqueues one delivery message per notice, so
 * each subscriber retries on its own schedule and no outage delays another. A firing notice is
 * claimed first (see claimNotice), so copies of the alert fanned out before the first notice is
 * delivered — in this batch, a concurrent one or while it is retried — are skipped, not re-sent.
 */
export async function fanOut(alert: Alert, deps: AlertDeps, messageId: string): Promise<void> {
  const now = deps.now()
  const { subscriptions, invalid } = await deps.subscriptions.list()
  for (const bad of invalid) deps.log.warn('subscription invalid', { subscription: bad.name, problems: bad.problems })
  // Each subscription is claimed on its own object: side by side, so a slow one holds up no other.
  const plans = await Promise.all(subscriptions.map((sub) => claimNotice(alert, sub, now, messageId, deps)))
  const messages: QueuedMessage[] = []
  for (const plan of plans) {
    if (!plan) continue
    const { sub, deliveryId } = plan
    const delivery: Delivery = {
      alert,
      subscription: { namespace: sub.metadata.namespace, name: sub.metadata.name },
      deliveryId,
      attempt: 1,
      firstAttemptAt: now.toISOString(),
    }
    messages.push({ body: toDeliveryBody(delivery, now) })
  }
  await deps.enqueue(messages)
  deps.count?.('fannedOut', messages.length)
}

/**
 * claimNotice plans one subscription's notice and, for a firing one, records a `pending` claim
 * under the resourceVersion it planned on: of two fan-outs that read the same version only one
 * claims; the other re-reads, finds the claim and skips. A claim by this very message (SQS
 * redelivered it after it claimed) is kept and planned again. Best effort past that: a claim that
 * cannot be written is logged and the notice sent unclaimed, so one subscription's status never
 * blocks the others. Returns the subscription and delivery id to enqueue, or undefined to skip.
 */
async function claimNotice(
  alert: Alert,
  listed: AlertSubscription,
  now: Date,
  messageId: string,
  deps: AlertDeps,
): Promise<{ sub: AlertSubscription; deliveryId: string } | undefined> {
  const name = listed.metadata.name
  const where = { subscription: name, alertId: alert.id, status: alert.status }
  let sub: AlertSubscription | undefined = listed
  for (let conflicts = 0; sub; conflicts++) {
    const plan = planNotice(alert, sub, now, messageId)
    if (!plan.send) {
      deps.log.debug('notice skipped', { ...where, reason: plan.reason })
      deps.count?.('skipped')
      if (plan.clearRecord) {
        await deps.recordNotice(sub, alert.id, null)
        deps.subscriptions.remember(name, alert.id, null)
      }
      return undefined
    }
    const planned = { sub, deliveryId: plan.deliveryId }
    const info = { ...where, deliveryId: plan.deliveryId, reason: plan.reason }
    if (alert.status === 'resolved' || sub.status.notified[alert.id]?.pending === messageId) {
      deps.log.info('notice planned', info)
      return planned
    }
    if (conflicts >= MAX_CLAIM_CONFLICTS) {
      deps.log.warn('notice planned unclaimed', { ...info, error: `${conflicts} claim conflicts in a row` })
      return planned
    }
    const claim = toClaim(alert, now, messageId)
    let result: RecordResult
    try {
      result = await deps.recordNotice(sub, alert.id, claim, { ifUnchanged: true })
    } catch (err) {
      deps.log.warn('notice planned unclaimed', { ...info, error: (err as Error).message })
      return planned
    }
    if (result === 'gone') return undefined
    if (result === 'recorded') {
      deps.subscriptions.remember(name, alert.id, claim)
      deps.log.info('notice planned', info)
      return planned
    }
    // Changed since read (another claim, a delivery's record, an edit): re-read and re-plan.
    sub = (await deps.subscriptions.list({ fresh: true })).subscriptions.find((s) => s.metadata.name === name)
  }
  return undefined // deleted meanwhile
}

/** deliver makes one attempt of a delivery, then records it, re-enqueues it with a backoff, or dead-letters it. */
export async function deliver(delivery: Delivery, deps: AlertDeps): Promise<DeliveryOutcome | undefined> {
  const sub = await deps.subscriptions.get(delivery.subscription.name)
  const where = { subscription: delivery.subscription.name, deliveryId: delivery.deliveryId, attempt: delivery.attempt }
  if (!sub) {
    deps.log.info('delivery dropped', { ...where, reason: 'subscription no longer exists' })
    return undefined
  }
  const started = performance.now()
  const { alert, deliveryId, attempt } = delivery
  const outcome = await attemptDelivery({ subscription: sub, alert, deliveryId, attempt }, deps)
  const ms = Math.round(performance.now() - started)
  const step = planRetry(outcome, delivery.attempt, deps.retry, deps.random)
  const now = deps.now()
  if (step.action === 'done') {
    deps.log.info('notice delivered', { ...where, target: new URL(sub.spec.url).host, ms })
    deps.count?.('delivered')
    await settleRecord(sub, delivery.alert, false, deps)
  } else if (step.action === 'retry') {
    deps.log.warn('delivery will retry', { ...where, reason: step.reason, delaySeconds: step.delaySeconds, ms })
    deps.count?.('retried')
    const next: Delivery = { ...delivery, attempt: step.nextAttempt, lastError: step.reason }
    await deps.enqueue([{ body: toDeliveryBody(next, now), delaySeconds: step.delaySeconds }])
  } else {
    deps.log.warn('delivery dead-lettered', { ...where, reason: step.reason, ms })
    deps.count?.('deadLettered')
    await deps.deadLetter(toDeliveryBody({ ...delivery, ...lastError(outcome) }, now, step.reason))
    await settleRecord(sub, delivery.alert, true, deps)
  }
  return outcome
}

/**
 * settleRecord keeps `status.notified` in step: a firing notice is recorded (failed when
 * dead-lettered, so it paces repeats but earns no resolved notice), a resolved one clears it.
 * Best effort: the receiver already has (or refused) the notice, so a failed write is logged and the
 * message still succeeds — the cost is at worst one early repeat or one missing resolved notice.
 */
async function settleRecord(sub: AlertSubscription, alert: Alert, failed: boolean, deps: AlertDeps): Promise<void> {
  const now = deps.now()
  const notice = alert.status === 'firing' ? toNotice(alert, now, failed) : null
  // Records of lapsed alerts go in the same patch, so status.notified stays bounded.
  const prune = staleNoticeIds(sub, now).filter((id) => id !== alert.id)
  try {
    await deps.recordNotice(sub, alert.id, notice, { prune })
    for (const id of prune) deps.subscriptions.remember(sub.metadata.name, id, null)
    deps.subscriptions.remember(sub.metadata.name, alert.id, notice)
  } catch (err) {
    deps.log.warn('notice record failed', {
      subscription: sub.metadata.name,
      alertId: alert.id,
      error: (err as Error).message,
    })
  }
}

function lastError(outcome: DeliveryOutcome): { lastError?: string } {
  return outcome.kind === 'delivered' ? {} : { lastError: outcome.reason }
}
