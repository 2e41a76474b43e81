import * as z from 'zod'
import { AlertSchema } from '../messages/alert.ts'
import { formatIssues, MessageError } from '../messages/envelope.ts'
import { TimestampSchema } from '../messages/kube.ts'

/**
 * The alert function fans each alert out as one delivery message per subscription on the alerts
 * queue, so retries (re-enqueued with a delay) are per subscriber and one outage delays no one
 * else. CloudEvents-shaped like the pipeline's messages; its type is private to the alert function.
 */
export const DELIVERY_TYPE = 'io.nodewarden.alertdelivery.v1'

export const DeliverySchema = z.object({
  alert: AlertSchema,
  subscription: z.object({ namespace: z.string().min(1), name: z.string().min(1) }),
  /** Idempotency key sent to the receiver: `<alert id>:firing:<repeat slot>` or `<alert id>:resolved`. */
  deliveryId: z.string().min(1),
  attempt: z.number().int().min(1),
  firstAttemptAt: TimestampSchema,
  lastError: z.string().optional(),
})
export type Delivery = z.infer<typeof DeliverySchema>

export const DeliveryEnvelopeSchema = z.object({
  specversion: z.literal('1.0'),
  id: z.string().min(1),
  source: z.string().min(1),
  type: z.literal(DELIVERY_TYPE),
  time: TimestampSchema,
  data: DeliverySchema,
  /** Set only on dead-lettered copies: why delivery stopped. */
  deadLetter: z.object({ reason: z.string(), at: TimestampSchema }).optional(),
})
export type DeliveryEnvelope = z.infer<typeof DeliveryEnvelopeSchema>

/** toDeliveryBody renders a delivery message body (validated: producers parse what they send). */
export function toDeliveryBody(delivery: Delivery, now: Date, deadLetter?: { reason: string }): string {
  const envelope: DeliveryEnvelope = DeliveryEnvelopeSchema.parse({
    specversion: '1.0',
    id: `${delivery.deliveryId}@${delivery.subscription.namespace}/${delivery.subscription.name}#${delivery.attempt}`,
    source: 'nodewarden/alert',
    type: DELIVERY_TYPE,
    time: now.toISOString(),
    data: delivery,
    ...(deadLetter ? { deadLetter: { reason: deadLetter.reason, at: now.toISOString() } } : {}),
  })
  return JSON.stringify(envelope)
}

/** isDeliveryBody tells a delivery message from an alert envelope without parsing it fully. */
export function isDeliveryBody(json: unknown): boolean {
  return typeof json === 'object' && json !== null && (json as { type?: unknown }).type === DELIVERY_TYPE
}

/** parseDelivery validates a delivery message, throwing a MessageError naming each bad field. */
export function parseDelivery(json: unknown): DeliveryEnvelope {
  const result = DeliveryEnvelopeSchema.safeParse(json)
  if (!result.success) {
    const lines = formatIssues(result.error)
    throw new MessageError(`invalid ${DELIVERY_TYPE}: ${lines.join('; ')}`, lines)
  }
  return result.data
}
