import { createHmac, timingSafeEqual } from 'node:crypto'

/**
 * An independent verifier written from the README's "Verifying nodewarden webhooks" section only
 * (not from sign-payload.ts): recompute HMAC-SHA256 over `<timestamp>.<raw body>` with the key,
 * compare in constant time, and refuse timestamps more than 300 s away from now.
 */
export function verifyWebhook(
  rawBody: string,
  headers: Record<string, string | undefined>,
  key: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): { ok: true } | { ok: false; why: string } {
  const timestamp = headers['x-nodewarden-timestamp']
  const signature = headers['x-nodewarden-signature']
  if (!timestamp || !/^\d+$/.test(timestamp)) return { ok: false, why: 'missing timestamp' }
  if (!signature?.startsWith('sha256=')) return { ok: false, why: 'missing signature' }
  if (Math.abs(nowSeconds - Number(timestamp)) > toleranceSeconds) return { ok: false, why: 'outside tolerance' }
  const expected = createHmac('sha256', key).update(`${timestamp}.${rawBody}`).digest('hex')
  const a = Buffer.from(signature.slice('sha256='.length), 'hex')
  const b = Buffer.from(expected, 'hex')
  return a.length === b.length && timingSafeEqual(a, b) ? { ok: true } : { ok: false, why: 'bad signature' }
}
