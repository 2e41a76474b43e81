import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { backoffSeconds, classifyStatus, DEFAULT_RETRY_POLICY, planRetry } from '../../../shared/alerts/retry-policy.ts'

describe('classifyStatus', () => {
  it.each([
    { status: 200, kind: 'delivered' },
    { status: 204, kind: 'delivered' },
    { status: 408, kind: 'retryable' },
    { status: 429, kind: 'retryable' },
    { status: 500, kind: 'retryable' },
    { status: 503, kind: 'retryable' },
    { status: 301, kind: 'permanent' },
    { status: 400, kind: 'permanent' },
    { status: 401, kind: 'permanent' },
    { status: 404, kind: 'permanent' },
    { status: 410, kind: 'permanent' },
  ])('HTTP $status is $kind', ({ status, kind }) => {
    expect(classifyStatus(status).kind).toBe(kind)
  })

  it('says a redirect was not followed', () => {
    expect(classifyStatus(302)).toMatchObject({ reason: expect.stringMatching(/redirects are not followed/) })
  })
})

describe('planRetry', () => {
  const half = () => 0.5
  it.each([
    {
      name: 'a delivery is done',
      outcome: { kind: 'delivered' as const, status: 200 },
      attempt: 1,
      want: { action: 'done' },
    },
    {
      name: 'a permanent failure dead-letters at once with its reason',
      outcome: { kind: 'permanent' as const, reason: 'receiver answered HTTP 410', status: 410 },
      attempt: 1,
      want: { action: 'deadLetter', reason: 'permanent: receiver answered HTTP 410' },
    },
    {
      name: 'a first transient failure retries after ~5 s',
      outcome: { kind: 'retryable' as const, reason: 'receiver answered HTTP 503' },
      attempt: 1,
      want: { action: 'retry', delaySeconds: 4, nextAttempt: 2, reason: 'receiver answered HTTP 503' },
    },
    {
      name: 'later transient failures back off exponentially',
      outcome: { kind: 'retryable' as const, reason: 'timeout' },
      attempt: 4,
      want: { action: 'retry', delaySeconds: 30, nextAttempt: 5, reason: 'timeout' },
    },
    {
      name: 'a Retry-After longer than the backoff is honoured',
      outcome: { kind: 'retryable' as const, reason: 'receiver answered HTTP 429', retryAfterSeconds: 120 },
      attempt: 1,
      want: { action: 'retry', delaySeconds: 120, nextAttempt: 2, reason: 'receiver answered HTTP 429' },
    },
    {
      name: 'the last attempt dead-letters with the last reason',
      outcome: { kind: 'retryable' as const, reason: 'receiver answered HTTP 500' },
      attempt: 12,
      want: { action: 'deadLetter', reason: 'gave up after 12 attempts: receiver answered HTTP 500' },
    },
  ])('$name', ({ outcome, attempt, want }) => {
    expect(planRetry(outcome, attempt, DEFAULT_RETRY_POLICY, half)).toEqual(want)
  })

  test.prop([fc.integer({ min: 1, max: 40 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true })])(
    'every backoff lies within [half, full] of the capped exponential and within SQS limits',
    (attempt, r) => {
      const full = Math.min(300, 5 * 2 ** (attempt - 1))
      const delay = backoffSeconds(attempt, DEFAULT_RETRY_POLICY, () => r)
      expect(delay).toBeGreaterThanOrEqual(Math.floor(full / 2))
      expect(delay).toBeLessThanOrEqual(Math.ceil(full))
      expect(delay).toBeLessThanOrEqual(900)
    },
  )

  test.prop([
    fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { minLength: 11, maxLength: 11 }),
  ])('the default policy keeps retrying for more than ten minutes whatever the jitter', (randoms) => {
    let total = 0
    for (let attempt = 1; attempt < DEFAULT_RETRY_POLICY.maxAttempts; attempt++)
      total += backoffSeconds(attempt, DEFAULT_RETRY_POLICY, () => randoms[attempt - 1] ?? 0)
    expect(total).toBeGreaterThan(600)
  })
})
