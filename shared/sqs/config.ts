import * as z from 'zod'
import type { MessageType } from '../messages/envelope.ts'

/**
 * The pipeline's queues by logical name, and the environment that binds them to URLs.
 * `infra/queues.yml` defines their attributes; this file is the runtime vocabulary, small enough
 * for every Lambda bundle.
 */

export const QUEUE_NAMES = ['events', 'decisions', 'alerts'] as const
export type QueueName = (typeof QUEUE_NAMES)[number]

/** The environment variable that carries each queue's URL (set by serverless.yml and by `npm start`). */
export const QUEUE_URL_VARIABLES = {
  events: 'EVENTS_QUEUE_URL',
  decisions: 'DECISIONS_QUEUE_URL',
  alerts: 'ALERTS_QUEUE_URL',
} as const satisfies Record<QueueName, string>

export type QueueConfig<Q extends QueueName = QueueName> = {
  region: string
  /** Only set for local runs: SQS clients must then use it explicitly (fauxqs queue-URL hosts do not resolve). */
  endpoint?: string
  queueUrls: Record<Q, string>
}

const QueueUrlSchema = z.url({ protocol: /^https?$/ })

/**
 * loadQueueConfig reads the region, the optional `SQS_ENDPOINT` and the URLs of `queues` from
 * `env`, failing with an error that names every missing or invalid variable.
 */
export function loadQueueConfig<Q extends QueueName>(
  env: Record<string, string | undefined>,
  queues: readonly Q[],
): QueueConfig<Q> {
  const shape: Record<string, z.ZodType> = {
    AWS_REGION: z.string().min(1).default('us-east-1'),
    SQS_ENDPOINT: QueueUrlSchema.optional(),
  }
  for (const queue of queues) shape[QUEUE_URL_VARIABLES[queue]] = QueueUrlSchema
  const result = z.object(shape).safeParse(env)
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
    throw new Error(`invalid queue configuration: ${problems.join('; ')}`)
  }
  const values = result.data as Record<string, string | undefined>
  const queueUrls = Object.fromEntries(queues.map((q) => [q, values[QUEUE_URL_VARIABLES[q]]])) as Record<Q, string>
  const endpoint = values.SQS_ENDPOINT
  return { region: values.AWS_REGION ?? 'us-east-1', ...(endpoint ? { endpoint } : {}), queueUrls }
}

/** queueEnvironment renders queue URLs as the environment variables `loadQueueConfig` reads. */
export function queueEnvironment(
  queueUrls: Partial<Record<QueueName, string>>,
  endpoint?: string,
): Record<string, string> {
  const env: Record<string, string> = endpoint ? { SQS_ENDPOINT: endpoint } : {}
  for (const [queue, url] of Object.entries(queueUrls) as [QueueName, string][]) env[QUEUE_URL_VARIABLES[queue]] = url
  return env
}

/** isFifoQueueUrl tells a FIFO queue by its URL, as SQS names every FIFO queue `*.fifo`. */
export function isFifoQueueUrl(queueUrl: string): boolean {
  return queueUrl.endsWith('.fifo')
}

/** The envelope type each queue carries (its consumer rejects any other). */
export const QUEUE_MESSAGE_TYPES = {
  events: 'io.nodewarden.nodeview.v1',
  decisions: 'io.nodewarden.decision.v1',
  alerts: 'io.nodewarden.alert.v1',
} as const satisfies Record<QueueName, MessageType>
