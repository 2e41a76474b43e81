import * as z from 'zod'

/**
 * Delivery retries: 2xx is success; 408, 429, 5xx and network failures retry with exponential
 * backoff and equal jitter (half fixed, half random) up to `maxAttempts`, then dead-letter with
 * the reason; any other status is permanent and dead-letters at once. Defaults: 12 attempts,
 * 5 s doubling to a 300 s cap — at least ~15 minutes of retries, so a receiver down for ten
 * minutes still gets every alert, at ~9 requests per 10 minutes instead of a retry storm.
 */
export const RetryPolicySchema = z.object({
  maxAttempts: z.number().int().min(1).max(50).default(12),
  baseSeconds: z.number().positive().default(5),
  capSeconds: z.number().positive().max(900).default(300),
})
export type RetryPolicy = z.infer<typeof RetryPolicySchema>
export const DEFAULT_RETRY_POLICY: RetryPolicy = RetryPolicySchema.parse({})

export type DeliveryOutcome =
  | { kind: 'delivered'; status: number }
  | { kind: 'retryable'; reason: string; status?: number; retryAfterSeconds?: number }
  | { kind: 'permanent'; reason: string; status?: number }

export type RetryStep =
  | { action: 'done' }
  | { action: 'retry'; delaySeconds: number; nextAttempt: number; reason: string }
  | { action: 'deadLetter'; reason: string }

/** classifyStatus maps a receiver's HTTP status to a delivery outcome (redirects are not followed: permanent). */
export function classifyStatus(status: number, retryAfterSeconds?: number): DeliveryOutcome {
  if (status >= 200 && status < 300) return { kind: 'delivered', status }
  const reason = `receiver answered HTTP ${status}`
  if (status === 408 || status === 429 || status >= 500)
    return { kind: 'retryable', reason, status, ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) }
  return {
    kind: 'permanent',
    reason: status >= 300 && status < 400 ? `${reason} (redirects are not followed)` : reason,
    status,
  }
}

/** backoffSeconds is the wait before attempt `attempt + 1`: min(cap, base·2^(attempt−1)), equal jitter. */
export function backoffSeconds(attempt: number, policy: RetryPolicy, random: () => number): number {
  const full = Math.min(policy.capSeconds, policy.baseSeconds * 2 ** (attempt - 1))
  return Math.ceil(full / 2 + random() * (full / 2))
}

/** planRetry decides what follows attempt number `attempt` (1-based) that ended in `outcome`. */
export function planRetry(
  outcome: DeliveryOutcome,
  attempt: number,
  policy: RetryPolicy,
  random: () => number,
): RetryStep {
  if (outcome.kind === 'delivered') return { action: 'done' }
  if (outcome.kind === 'permanent') return { action: 'deadLetter', reason: `permanent: ${outcome.reason}` }
  if (attempt >= policy.maxAttempts)
    return { action: 'deadLetter', reason: `gave up after ${attempt} attempts: ${outcome.reason}` }
  const backoff = backoffSeconds(attempt, policy, random)
  // A receiver's Retry-After may lengthen the wait (never beyond SQS's 900 s delay), not shorten it.
  const delaySeconds = Math.min(900, Math.max(backoff, Math.ceil(outcome.retryAfterSeconds ?? 0)))
  return { action: 'retry', delaySeconds, nextAttempt: attempt + 1, reason: outcome.reason }
}
