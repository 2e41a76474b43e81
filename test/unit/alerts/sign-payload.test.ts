import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { signPayload } from '../../../functions/alert/sign-payload.ts'
import { verifyWebhook } from './verify-webhook.ts'

const key = 'whsec-3c1f0a9d2b7e4c58'
const body = '{"specversion":"1.0","id":"a:firing:0"}'
const signedAt = new Date('2026-11-22T10:00:00Z')
const at = signedAt.getTime() / 1000

describe('signPayload, checked by an independent verifier', () => {
  it('produces a signature the documented verification accepts', () => {
    expect(verifyWebhook(body, signPayload(body, key, signedAt), key, at)).toEqual({ ok: true })
  })

  it.each([
    { name: 'a tampered body', body: `${body} `, key, now: at, why: 'bad signature' },
    { name: 'another key', body, key: 'whsec-other', now: at, why: 'bad signature' },
    { name: 'a replay 301 s later', body, key, now: at + 301, why: 'outside tolerance' },
    { name: 'a timestamp 301 s in the future', body, key, now: at - 301, why: 'outside tolerance' },
  ])('rejects $name', ({ body: received, key: k, now, why }) => {
    expect(verifyWebhook(received, signPayload(body, key, signedAt), k, now)).toEqual({ ok: false, why })
  })

  it('accepts a delivery 300 s old, at the edge of the window', () => {
    expect(verifyWebhook(body, signPayload(body, key, signedAt), key, at + 300)).toEqual({ ok: true })
  })

  it('refuses a re-signed timestamp swapped onto an old signature', () => {
    const headers = { ...signPayload(body, key, signedAt), 'x-nodewarden-timestamp': String(at + 600) }
    expect(verifyWebhook(body, headers, key, at + 600)).toEqual({ ok: false, why: 'bad signature' })
  })

  test.prop([fc.string(), fc.string({ minLength: 1 }), fc.string()])(
    'any change to the body breaks the signature',
    (b, k, extra) => {
      fc.pre(extra.length > 0)
      const headers = signPayload(b, k, signedAt)
      expect(verifyWebhook(b, headers, k, at).ok).toBe(true)
      expect(verifyWebhook(b + extra, headers, k, at).ok).toBe(false)
    },
  )
})
