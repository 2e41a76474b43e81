import { describe, expect, it } from 'vitest'
import { backoffDelayMs, isRetryableError, type RetryPolicy, withRetry } from '../../../shared/sqs/retry.ts'

const sdkError = (name: string, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(name), { name, ...extra })

describe('isRetryableError', () => {
  it.each([
    { name: 'SQS throttling (RequestThrottled)', err: sdkError('RequestThrottled'), want: true },
    {
      name: 'a throttling error the SDK marks $retryable',
      err: sdkError('X', { $retryable: { throttling: true } }),
      want: true,
    },
    { name: 'HTTP 500', err: sdkError('InternalError', { $metadata: { httpStatusCode: 500 } }), want: true },
    { name: 'HTTP 503 of any name', err: sdkError('Whatever', { $metadata: { httpStatusCode: 503 } }), want: true },
    { name: 'a server fault', err: sdkError('ServiceUnavailable', { $fault: 'server' }), want: true },
    { name: 'a reset connection', err: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }), want: true },
    { name: 'HTTP 429', err: sdkError('TooManyRequests', { $metadata: { httpStatusCode: 429 } }), want: true },
    {
      name: 'an invalid parameter (400)',
      err: sdkError('InvalidParameterValue', { $fault: 'client', $metadata: { httpStatusCode: 400 } }),
      want: false,
    },
    {
      name: 'a missing queue',
      err: sdkError('QueueDoesNotExist', { $metadata: { httpStatusCode: 400 } }),
      want: false,
    },
    { name: 'an abort', err: sdkError('AbortError'), want: false },
    { name: 'a thrown string', err: 'boom', want: false },
  ])('$name → retryable: $want', ({ err, want }) => {
    expect(isRetryableError(err)).toBe(want)
  })
})

describe('backoffDelayMs', () => {
  const policy: RetryPolicy = { maxAttempts: 6, baseDelayMs: 100, maxDelayMs: 1_000 }
  it.each([
    { name: 'the first retry waits up to the base delay', attempt: 1, random: 0.999, want: 99 },
    { name: 'each retry doubles the ceiling', attempt: 3, random: 0.5, want: 200 },
    { name: 'the ceiling stops at the maximum', attempt: 10, random: 0.5, want: 500 },
    { name: 'full jitter can pick no wait at all', attempt: 4, random: 0, want: 0 },
  ])('$name', ({ attempt, random, want }) => {
    expect(backoffDelayMs(attempt, () => random, policy)).toBe(want)
  })
})

describe('withRetry', () => {
  const policy: RetryPolicy = { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 1_000 }
  const run = async (failures: unknown[]) => {
    const sleeps: number[] = []
    let calls = 0
    const result = withRetry(
      { sleep: async (ms) => void sleeps.push(ms), random: () => 0.5 },
      'SendMessageBatch to q',
      async () => {
        const failure = failures[calls++]
        if (failure !== undefined) throw failure
        return 'ok'
      },
      policy,
    )
    return { result, sleeps, calls: () => calls }
  }

  it('retries throttling with growing backoff until it succeeds', async () => {
    const r = await run([sdkError('RequestThrottled'), sdkError('RequestThrottled'), sdkError('RequestThrottled')])
    await expect(r.result).resolves.toBe('ok')
    expect(r.sleeps).toEqual([50, 100, 200])
  })

  it('gives up after the last attempt, naming the call and keeping the cause', async () => {
    const last = sdkError('InternalError', { $fault: 'server' })
    const r = await run([last, last, last, last, last])
    await expect(r.result).rejects.toMatchObject({
      message: 'SendMessageBatch to q failed after 4 attempts',
      cause: last,
    })
    expect(r.calls()).toBe(4)
  })

  it('fails at once on a permanent error', async () => {
    const r = await run([sdkError('InvalidParameterValue', { $fault: 'client' })])
    await expect(r.result).rejects.toThrow('SendMessageBatch to q failed')
    expect(r.calls()).toBe(1)
    expect(r.sleeps).toEqual([])
  })
})
