/**
 * One retry policy for every SQS call: throttling, 5xx and dropped connections are retried with
 * exponential backoff and full jitter; anything else fails at once. Sleep and randomness are
 * injected so tests neither wait nor guess.
 */

export type RetryDeps = {
  sleep: (ms: number) => Promise<void>
  /** A number in [0, 1): the jitter source. */
  random: () => number
}

export type RetryPolicy = { maxAttempts: number; baseDelayMs: number; maxDelayMs: number }

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 6, baseDelayMs: 50, maxDelayMs: 5_000 }

const THROTTLING_NAMES = new Set([
  'ThrottlingException',
  'Throttling',
  'RequestThrottled',
  'RequestThrottledException',
  'TooManyRequestsException',
  'KmsThrottled',
])
const SERVER_NAMES = new Set(['InternalError', 'InternalFailure', 'ServiceUnavailable', 'TimeoutError'])
const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'ENOTCONN'])

type SdkErrorShape = {
  name?: string
  code?: string
  $fault?: string
  $retryable?: unknown
  $metadata?: { httpStatusCode?: number }
}

/** isRetryableError is true for throttling, server faults (5xx) and dropped connections. */
export function isRetryableError(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false
  const e = err as SdkErrorShape
  if (e.name === 'AbortError') return false
  const status = e.$metadata?.httpStatusCode
  return (
    e.$retryable !== undefined ||
    e.$fault === 'server' ||
    (status !== undefined && (status >= 500 || status === 429)) ||
    THROTTLING_NAMES.has(e.name ?? '') ||
    SERVER_NAMES.has(e.name ?? '') ||
    NETWORK_CODES.has(e.code ?? '')
  )
}

/** backoffDelayMs is the full-jitter delay before retry number `attempt` (1-based). */
export function backoffDelayMs(
  attempt: number,
  random: () => number,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1))
  return Math.floor(random() * ceiling)
}

/** withRetry runs `call` until it succeeds, fails permanently, or runs out of attempts; errors name `label`. */
export async function withRetry<T>(
  deps: RetryDeps,
  label: string,
  call: () => Promise<T>,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call()
    } catch (err) {
      if (!isRetryableError(err)) throw new Error(`${label} failed`, { cause: err })
      if (attempt >= policy.maxAttempts) throw new Error(`${label} failed after ${attempt} attempts`, { cause: err })
      await deps.sleep(backoffDelayMs(attempt, deps.random, policy))
    }
  }
}

/** realSleep waits `ms` on the real clock: the production `sleep`. */
export function realSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
