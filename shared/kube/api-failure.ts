import { ApiException } from '@kubernetes/client-node'

/**
 * What a failed Kubernetes API call said, read from client-node's `ApiException` (its `body` is
 * the `Status` as a JSON string). Anything else (network, timeout) is not an API answer.
 */
export type ApiFailure = {
  code: number
  /** Status.reason: `Conflict`, `NotFound`, `TooManyRequests`, `Invalid`, `AlreadyExists`, … */
  reason: string
  message: string
  /** Status.details.causes messages (e.g. the PDB that blocked an eviction). */
  causes: string[]
  /** Status.details.retryAfterSeconds or the Retry-After header. */
  retryAfterSeconds?: number
}

/** toApiFailure returns the API's answer inside `err`, or undefined when `err` is not an API response. */
export function toApiFailure(err: unknown): ApiFailure | undefined {
  if (!(err instanceof ApiException)) return undefined
  const status = parseStatus(err.body)
  const header = Number(err.headers?.['retry-after'])
  const retryAfter = status.details?.retryAfterSeconds ?? (Number.isFinite(header) ? header : undefined)
  return {
    code: err.code,
    reason: status.reason ?? '',
    message: status.message ?? `HTTP ${err.code}`,
    causes: (status.details?.causes ?? []).map((c) => c.message ?? c.reason ?? '').filter((m) => m !== ''),
    ...(retryAfter === undefined ? {} : { retryAfterSeconds: retryAfter }),
  }
}

/** isApiCode tells whether `err` is an API answer with HTTP status `code`. */
export function isApiCode(err: unknown, code: number): boolean {
  return toApiFailure(err)?.code === code
}

type StatusBody = {
  reason?: string
  message?: string
  details?: { retryAfterSeconds?: number; causes?: { reason?: string; message?: string }[] }
}

function parseStatus(body: unknown): StatusBody {
  if (typeof body === 'object' && body !== null) return body as StatusBody
  if (typeof body !== 'string' || body === '') return {}
  try {
    const parsed: unknown = JSON.parse(body)
    return typeof parsed === 'object' && parsed !== null ? (parsed as StatusBody) : {}
  } catch {
    return { message: body.slice(0, 300) }
  }
}
