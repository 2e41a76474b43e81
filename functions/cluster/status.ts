/** Kubernetes `Status` bodies and the error type that carries one through the emulator. */

export type StatusCause = { reason?: string; message?: string; field?: string }
export type StatusDetails = {
  name?: string
  group?: string
  kind?: string
  uid?: string
  causes?: StatusCause[]
  retryAfterSeconds?: number
}
export type Status = {
  kind: 'Status'
  apiVersion: 'v1'
  metadata: Record<string, never>
  status: 'Success' | 'Failure'
  message?: string
  reason?: string
  details?: StatusDetails
  code: number
}

/** ApiError is thrown anywhere in the emulator and rendered as a `Status` body with its HTTP code. */
export class ApiError extends Error {
  readonly code: number
  readonly reason: string
  readonly details: StatusDetails | undefined
  constructor(code: number, reason: string, message: string, details?: StatusDetails) {
    super(message)
    this.name = 'ApiError'
    this.code = code
    this.reason = reason
    this.details = details
  }
  /** toStatus renders the error as the upstream `Status` object. */
  toStatus(): Status {
    return failureStatus(this.code, this.reason, this.message, this.details)
  }
}

/** failureStatus builds a `Status` with `status: Failure`. */
export function failureStatus(code: number, reason: string, message: string, details?: StatusDetails): Status {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    ...(details ? { details } : {}),
    code,
  }
}

/** successStatus builds a `Status` with `status: Success`. */
export function successStatus(code = 200, details?: StatusDetails): Status {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', ...(details ? { details } : {}), code }
}

/** qualified renders `pods` or `poddisruptionbudgets.policy` as upstream error messages do. */
export function qualified(resource: string, group: string): string {
  return group ? `${resource}.${group}` : resource
}

/** notFound is the upstream 404: `pods "x" not found`. */
export function notFound(resource: string, group: string, name: string): ApiError {
  return new ApiError(404, 'NotFound', `${qualified(resource, group)} "${name}" not found`, {
    name,
    ...(group ? { group } : {}),
    kind: resource,
  })
}

/** alreadyExists is the upstream 409 on create. */
export function alreadyExists(resource: string, group: string, name: string): ApiError {
  return new ApiError(409, 'AlreadyExists', `${qualified(resource, group)} "${name}" already exists`, {
    name,
    ...(group ? { group } : {}),
    kind: resource,
  })
}

/** conflict is the upstream 409 for a stale resourceVersion. */
export function conflict(resource: string, group: string, name: string): ApiError {
  return new ApiError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualified(resource, group)} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    { name, ...(group ? { group } : {}), kind: resource },
  )
}

/** badRequest is a 400 naming the problem. */
export function badRequest(message: string): ApiError {
  return new ApiError(400, 'BadRequest', message)
}

/** invalid is the upstream 422: `Pod "x" is invalid: <field>: <detail>`. */
export function invalid(kind: string, group: string, name: string, causes: Required<StatusCause>[]): ApiError {
  const text = causes.map((c) => `${c.field}: ${c.message}`)
  const message =
    text.length === 1
      ? `${kind} "${name}" is invalid: ${text[0]}`
      : `${kind} "${name}" is invalid: [${text.join(', ')}]`
  return new ApiError(422, 'Invalid', message, { name, ...(group ? { group } : {}), kind, causes })
}

/** gone is the upstream 410 for a resourceVersion older than the kept history. */
export function gone(message: string): ApiError {
  return new ApiError(410, 'Expired', message)
}

/** toApiError turns anything thrown into an ApiError (unknown errors become 500 InternalError). */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err
  const message = err instanceof Error ? err.message : String(err)
  return new ApiError(500, 'InternalError', `Internal error occurred: ${message}`)
}
