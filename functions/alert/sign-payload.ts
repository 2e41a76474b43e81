import { createHmac } from 'node:crypto'

/**
 * Signing. Every delivery carries:
 *   X-Nodewarden-Timestamp:  Unix seconds when this attempt was signed
 *   X-Nodewarden-Signature:  sha256=<hex HMAC-SHA256(key, `${timestamp}.${rawBody}`)>
 *   Idempotency-Key:         the delivery id, stable across retries of one notice
 *   X-Nodewarden-Alert-Id:   the alert id (firing and resolved notices of one problem share it)
 * The key is the Secret value named by the subscription's `secretRef`, used as its UTF-8 bytes.
 */
export const TIMESTAMP_HEADER = 'x-nodewarden-timestamp'
export const SIGNATURE_HEADER = 'x-nodewarden-signature'
export const IDEMPOTENCY_HEADER = 'idempotency-key'
export const ALERT_ID_HEADER = 'x-nodewarden-alert-id'
export const ATTEMPT_HEADER = 'x-nodewarden-delivery-attempt'

/** signPayload returns the signature headers for a raw body signed with `key` at `now`. */
export function signPayload(body: string, key: string, now: Date): Record<string, string> {
  const timestamp = String(Math.floor(now.getTime() / 1000))
  const signature = createHmac('sha256', key).update(`${timestamp}.${body}`).digest('hex')
  return { [TIMESTAMP_HEADER]: timestamp, [SIGNATURE_HEADER]: `sha256=${signature}` }
}
