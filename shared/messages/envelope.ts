import { createHash } from 'node:crypto'
import { gunzipSync, gzipSync } from 'node:zlib'
import * as z from 'zod'
import { AlertSchema } from './alert.ts'
import { DecisionSchema } from './decision.ts'
import { TimestampSchema } from './kube.ts'
import { NodeViewSchema } from './node-view.ts'

/**
 * CloudEvents 1.0 structured-JSON envelopes for the pipeline's three messages.
 * The version is part of the type; a consumer rejects a type it does not know.
 * https://github.com/cloudevents/spec/blob/v1.0.2/cloudevents/formats/json-format.md
 */

export const MESSAGE_SCHEMAS = {
  'io.nodewarden.nodeview.v1': NodeViewSchema,
  'io.nodewarden.decision.v1': DecisionSchema,
  'io.nodewarden.alert.v1': AlertSchema,
} as const
export type MessageType = keyof typeof MESSAGE_SCHEMAS
export type MessageData<T extends MessageType> = z.infer<(typeof MESSAGE_SCHEMAS)[T]>
export type MessageDataInput<T extends MessageType> = z.input<(typeof MESSAGE_SCHEMAS)[T]>
export const MESSAGE_TYPES = Object.keys(MESSAGE_SCHEMAS) as MessageType[]

export const EnvelopeHeaderSchema = z.object({
  specversion: z.literal('1.0'),
  id: z.string().min(1),
  source: z.string().min(1),
  type: z.enum(MESSAGE_TYPES as [MessageType, ...MessageType[]]),
  time: TimestampSchema.optional(),
  subject: z.string().optional(),
  datacontenttype: z.literal('application/json').optional(),
  data: z.unknown().optional(),
  /** Large bodies: gzip'd JSON data, base64 (CloudEvents `data_base64`), flagged by the `nwencoding` extension. */
  data_base64: z.string().optional(),
  nwencoding: z.literal('gzip').optional(),
})

/**
 * Bodies above this size carry their data gzip'd in `data_base64`, so a NodeView of a node with
 * hundreds of pods fits the 256 KiB SQS limit; smaller bodies stay plain, readable JSON.
 */
export const COMPRESS_ABOVE_BYTES = 128 * 1024
export const SQS_MAX_BYTES = 256 * 1024

export type Envelope<T extends MessageType = MessageType> = {
  specversion: '1.0'
  id: string
  source: string
  type: T
  time?: string
  subject?: string
  datacontenttype?: 'application/json'
  data: MessageData<T>
}

/** MessageError is a permanent fault of one message: retrying cannot fix it; it belongs in the DLQ. */
export class MessageError extends Error {
  override name = 'MessageError'
  constructor(
    message: string,
    readonly fields: string[] = [],
  ) {
    super(message)
  }
}

/** formatIssues renders zod issues as `path: message` lines, paths prefixed (e.g. `data.pods.3.uid`). */
export function formatIssues(error: z.ZodError, prefix = ''): string[] {
  return error.issues.map((i) => {
    const path = [prefix, ...i.path.map(String)].filter((p) => p !== '').join('.')
    return `${path || '(root)'}: ${i.message}`
  })
}

/** parseData validates `data` against the schema of `type`, throwing a MessageError naming each bad field. */
export function parseData<T extends MessageType>(type: T, data: unknown, prefix = 'data'): MessageData<T> {
  const result = MESSAGE_SCHEMAS[type].safeParse(data)
  if (!result.success) {
    const lines = formatIssues(result.error, prefix)
    throw new MessageError(`invalid ${type}: ${lines.join('; ')}`, lines)
  }
  return result.data as MessageData<T>
}

/** contentId returns a short stable hash of a JSON value (for idempotency keys and dedup ids). */
export function contentId(value: unknown): string {
  return createHash('sha256').update(stableStringify(value)).digest('hex').slice(0, 32)
}

/** stableStringify is JSON.stringify with object keys sorted, so equal values hash equally. */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`
}

export type EnvelopeOptions = { source: string; time: Date; id?: string; subject?: string }

/** toEnvelope validates data (producers parse what they send) and wraps it; the id defaults to a content hash. */
export function toEnvelope<T extends MessageType>(
  type: T,
  data: MessageDataInput<T>,
  options: EnvelopeOptions,
): Envelope<T> {
  const parsed = parseData(type, data)
  return {
    specversion: '1.0',
    id: options.id ?? contentId({ type, data: parsed }),
    source: options.source,
    type,
    time: options.time.toISOString(),
    ...(options.subject === undefined ? {} : { subject: options.subject }),
    datacontenttype: 'application/json',
    data: parsed,
  }
}

/**
 * parseEnvelope reads one message body: JSON, then the CloudEvents header, then the data
 * schema of its type. With `expected`, any other type is rejected. Every failure is a MessageError.
 */
export function parseEnvelope<T extends MessageType>(body: string, expected?: T): Envelope<T> {
  let json: unknown
  try {
    json = JSON.parse(body)
  } catch (err) {
    throw new MessageError(`body is not JSON: ${(err as Error).message}`, ['(body)'])
  }
  const header = EnvelopeHeaderSchema.safeParse(json)
  if (!header.success) {
    const lines = formatIssues(header.error)
    throw new MessageError(`invalid CloudEvents envelope: ${lines.join('; ')}`, lines)
  }
  const type = header.data.type
  const data = readData(header.data)
  if (expected !== undefined && type !== expected) {
    throw new MessageError(`unexpected type: got ${type}, want ${expected}`, ['type'])
  }
  const { data_base64: _b, nwencoding: _e, ...rest } = header.data
  return { ...rest, data: parseData(type, data) } as Envelope<T>
}

function readData(header: z.infer<typeof EnvelopeHeaderSchema>): unknown {
  if (header.data_base64 === undefined) {
    if (header.data === undefined) throw new MessageError('invalid CloudEvents envelope: data: missing', ['data'])
    return header.data
  }
  if (header.nwencoding !== 'gzip') {
    throw new MessageError('invalid CloudEvents envelope: nwencoding: data_base64 needs nwencoding "gzip"', [
      'nwencoding',
    ])
  }
  try {
    return JSON.parse(gunzipSync(Buffer.from(header.data_base64, 'base64')).toString('utf8'))
  } catch (err) {
    throw new MessageError(`invalid CloudEvents envelope: data_base64: ${(err as Error).message}`, ['data_base64'])
  }
}

/** serializeEnvelope is the one place an envelope becomes a message body (compressed above COMPRESS_ABOVE_BYTES). */
export function serializeEnvelope(envelope: Envelope): string {
  const plain = JSON.stringify(envelope)
  if (Buffer.byteLength(plain) <= COMPRESS_ABOVE_BYTES) return plain
  const { data, ...header } = envelope
  const packed = gzipSync(JSON.stringify(data)).toString('base64')
  return JSON.stringify({ ...header, nwencoding: 'gzip', data_base64: packed })
}
