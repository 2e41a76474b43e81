import * as z from 'zod'
import type { Alert } from '../messages/alert.ts'
import { type Envelope, formatIssues, MessageError, toEnvelope } from '../messages/envelope.ts'
import { TimestampSchema } from '../messages/kube.ts'

/**
 * The alert function fans each alert out as one delivery message per subscription on the alerts
 * queue, so retries (re-enqueued with a delay) are per subscriber and one outage delays no one
 * else. A delivery message is the same `io.nodewarden.alert.v1` CloudEvent carrying CloudEvents
 * extension attributes (`nw*`) that name the subscription and count attempts; an alert message
 * from decide or write has none of them.
 */
export const DeliveryExtensionsSchema = z.object({
  /** `<namespace>/<name>` of the AlertSubscription. */
  nwsubscription: z.string().regex(/^[a-z0-9.-]+\/[a-z0-9.-]+$/, 'not <namespace>/<name>'),
  /** Idempotency key sent to the receiver: `<alert id>:firing:<repeat window start>` or `<alert id>:resolved`. */
  nwdeliveryid: z.string().min(1),
  nwattempt: z.number().int().min(1),
  nwfirstattempt: TimestampSchema,
  nwlasterror: z.string().optional(),
  /** Only on dead-lettered copies: why delivery stopped. */
  nwdeadreason: z.string().optional(),
})
export type DeliveryExtensions = z.infer<typeof DeliveryExtensionsSchema>

export type Delivery = {
  alert: Alert
  subscription: { namespace: string; name: string }
  deliveryId: string
  attempt: number
  firstAttemptAt: string
  lastError?: string
}

/** toDeliveryBody renders a delivery message body (validated: producers parse what they send). */
export function toDeliveryBody(delivery: Delivery, now: Date, deadReason?: string): string {
  const { namespace, name } = delivery.subscription
  const envelope = toEnvelope('io.nodewarden.alert.v1', delivery.alert, {
    source: 'nodewarden/alert',
    time: now,
    id: `${delivery.deliveryId}@${namespace}/${name}#${delivery.attempt}`,
  })
  const extensions = DeliveryExtensionsSchema.parse({
    nwsubscription: `${namespace}/${name}`,
    nwdeliveryid: delivery.deliveryId,
    nwattempt: delivery.attempt,
    nwfirstattempt: delivery.firstAttemptAt,
    ...(delivery.lastError === undefined ? {} : { nwlasterror: delivery.lastError.slice(0, 500) }),
    ...(deadReason === undefined ? {} : { nwdeadreason: deadReason.slice(0, 500) }),
  })
  return JSON.stringify({ ...envelope, ...extensions })
}

/**
 * readDelivery returns the delivery a message body carries, or undefined for a plain alert
 * message (no `nwsubscription`); bad extension attributes throw a MessageError naming them.
 */
export function readDelivery(body: string, envelope: Envelope<'io.nodewarden.alert.v1'>): Delivery | undefined {
  const json = JSON.parse(body) as Record<string, unknown>
  if (json.nwsubscription === undefined) return undefined
  const result = DeliveryExtensionsSchema.safeParse(json)
  if (!result.success) {
    const lines = formatIssues(result.error)
    throw new MessageError(`invalid delivery attributes: ${lines.join('; ')}`, lines)
  }
  const ext = result.data
  const [namespace, name] = ext.nwsubscription.split('/') as [string, string]
  return {
    alert: envelope.data,
    subscription: { namespace, name },
    deliveryId: ext.nwdeliveryid,
    attempt: ext.nwattempt,
    firstAttemptAt: ext.nwfirstattempt,
    ...(ext.nwlasterror === undefined ? {} : { lastError: ext.nwlasterror }),
  }
}
