import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import * as z from 'zod'
import { QUEUE_NAMES, type QueueName } from '../shared/sqs/config.ts'

/**
 * Reads `infra/queues.yml`, the one definition of the pipeline's queues, and renders it for both
 * consumers: CloudFormation resources for serverless.yml and CreateQueue attributes for the
 * embedded server. Pure apart from `loadQueueDefinitions`.
 */

export type { QueueName } from '../shared/sqs/config.ts'

const ConsumerSchema = z.object({
  function: z.string().min(1),
  timeoutSeconds: z.int().min(1).max(900),
  memorySize: z.int().min(128).max(10_240),
  batchSize: z.int().min(1).max(10_000),
  maximumBatchingWindowSeconds: z.int().min(0).max(300).optional(),
})

export const QueueDefinitionSchema = z
  .object({
    fifo: z.boolean(),
    contentBasedDeduplication: z.boolean(),
    visibilityTimeoutSeconds: z.int().min(0).max(43_200),
    messageRetentionSeconds: z.int().min(60).max(1_209_600),
    maxReceiveCount: z.int().min(1).max(1000),
    dlqRetentionSeconds: z.int().min(60).max(1_209_600),
    consumer: ConsumerSchema,
  })
  .refine((q) => q.visibilityTimeoutSeconds >= 6 * q.consumer.timeoutSeconds, {
    message: 'visibilityTimeoutSeconds must be at least 6 × consumer.timeoutSeconds',
    path: ['visibilityTimeoutSeconds'],
  })
  .refine((q) => !q.fifo || q.consumer.batchSize <= 10, {
    message: 'a FIFO queue feeds Lambda at most 10 records per batch',
    path: ['consumer', 'batchSize'],
  })
  .refine((q) => !q.fifo || q.consumer.maximumBatchingWindowSeconds === undefined, {
    message: 'a FIFO event source has no batching window',
    path: ['consumer', 'maximumBatchingWindowSeconds'],
  })
  .refine((q) => q.fifo || !q.contentBasedDeduplication, {
    message: 'only FIFO queues deduplicate',
    path: ['contentBasedDeduplication'],
  })
export type QueueDefinition = z.infer<typeof QueueDefinitionSchema>

export const QueueDefinitionsSchema = z.strictObject(
  Object.fromEntries(QUEUE_NAMES.map((name) => [name, QueueDefinitionSchema])) as Record<
    QueueName,
    typeof QueueDefinitionSchema
  >,
)
export type QueueDefinitions = Record<QueueName, QueueDefinition>

/** parseQueueDefinitions validates the YAML text of queues.yml, naming every bad field. */
export function parseQueueDefinitions(text: string): QueueDefinitions {
  const result = QueueDefinitionsSchema.safeParse(parse(text))
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
    throw new Error(`invalid queue definitions: ${problems.join('; ')}`)
  }
  return result.data as QueueDefinitions
}

/** loadQueueDefinitions reads and validates infra/queues.yml (or another file with the same shape). */
export function loadQueueDefinitions(path: string | URL = new URL('./queues.yml', import.meta.url)): QueueDefinitions {
  return parseQueueDefinitions(readFileSync(path, 'utf8'))
}

/** queueNameOf is the queue's SQS name without a prefix: `events.fifo`, `decisions`. */
export function queueNameOf(name: QueueName, definition: QueueDefinition): string {
  return definition.fifo ? `${name}.fifo` : name
}

/** dlqNameOf is the dead-letter queue's SQS name without a prefix: `events-dlq.fifo`, `decisions-dlq`. */
export function dlqNameOf(name: QueueName, definition: QueueDefinition): string {
  return definition.fifo ? `${name}-dlq.fifo` : `${name}-dlq`
}

/** logicalIdOf names the CloudFormation resources: `EventsQueue`, `EventsDlq`. */
export function logicalIdOf(name: QueueName, kind: 'Queue' | 'Dlq'): string {
  return `${name[0]!.toUpperCase()}${name.slice(1)}${kind}`
}

/** queueAttributes renders CreateQueue attributes for the main queue, redriving to `dlqArn`. */
export function queueAttributes(definition: QueueDefinition, dlqArn: string): Record<string, string> {
  return {
    ...(definition.fifo
      ? { FifoQueue: 'true', ContentBasedDeduplication: String(definition.contentBasedDeduplication) }
      : {}),
    VisibilityTimeout: String(definition.visibilityTimeoutSeconds),
    MessageRetentionPeriod: String(definition.messageRetentionSeconds),
    RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: definition.maxReceiveCount }),
  }
}

/** dlqAttributes renders CreateQueue attributes for the dead-letter queue (FIFO like its source). */
export function dlqAttributes(definition: QueueDefinition): Record<string, string> {
  return {
    ...(definition.fifo ? { FifoQueue: 'true' } : {}),
    MessageRetentionPeriod: String(definition.dlqRetentionSeconds),
  }
}

type CfnValue = string | number | boolean | Record<string, unknown>

/**
 * renderQueueResources renders every queue and DLQ as CloudFormation, named `<stack>-<queue>`, plus
 * outputs with their URLs. Only intrinsic functions: packaging needs no credentials.
 */
export function renderQueueResources(definitions: QueueDefinitions): {
  Resources: Record<string, { Type: string; Properties: Record<string, CfnValue> }>
  Outputs: Record<string, { Value: CfnValue }>
} {
  const Resources: Record<string, { Type: string; Properties: Record<string, CfnValue> }> = {}
  const Outputs: Record<string, { Value: CfnValue }> = {}
  for (const name of QUEUE_NAMES) {
    const definition = definitions[name]
    const queueId = logicalIdOf(name, 'Queue')
    const dlqId = logicalIdOf(name, 'Dlq')
    const fifo: Record<string, CfnValue> = definition.fifo ? { FifoQueue: true } : {}
    Resources[dlqId] = {
      Type: 'AWS::SQS::Queue',
      Properties: {
        QueueName: { 'Fn::Sub': `\${AWS::StackName}-${dlqNameOf(name, definition)}` },
        ...fifo,
        MessageRetentionPeriod: definition.dlqRetentionSeconds,
      },
    }
    Resources[queueId] = {
      Type: 'AWS::SQS::Queue',
      Properties: {
        QueueName: { 'Fn::Sub': `\${AWS::StackName}-${queueNameOf(name, definition)}` },
        ...fifo,
        ...(definition.fifo ? { ContentBasedDeduplication: definition.contentBasedDeduplication as CfnValue } : {}),
        VisibilityTimeout: definition.visibilityTimeoutSeconds,
        MessageRetentionPeriod: definition.messageRetentionSeconds,
        RedrivePolicy: {
          deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] },
          maxReceiveCount: definition.maxReceiveCount,
        },
      },
    }
    Outputs[`${queueId}Url`] = { Value: { Ref: queueId } }
    Outputs[`${queueId}Arn`] = { Value: { 'Fn::GetAtt': [queueId, 'Arn'] } }
    Outputs[`${dlqId}Url`] = { Value: { Ref: dlqId } }
  }
  return { Resources, Outputs }
}
