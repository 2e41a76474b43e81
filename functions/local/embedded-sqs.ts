import { CreateQueueCommand, GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs'
import { buildApp } from 'fauxqs'
import {
  dlqAttributes,
  dlqNameOf,
  loadQueueDefinitions,
  type QueueDefinitions,
  queueAttributes,
  queueNameOf,
} from '../../infra/queues.ts'
import { createSqsClient } from '../../shared/sqs/client.ts'
import { QUEUE_NAMES, type QueueName } from '../../shared/sqs/config.ts'

export type EmbeddedSqsOptions = {
  /** 0 (default) picks a free port. */
  port?: number
  /** Defaults to infra/queues.yml, the definition serverless.yml deploys. */
  definitions?: QueueDefinitions
  region?: string
}

export type EmbeddedSqs = {
  /** `http://127.0.0.1:<port>`: pass it as the SQS client's `endpoint` (queue-URL hosts do not resolve). */
  endpoint: string
  region: string
  client: SQSClient
  definitions: QueueDefinitions
  queueUrls: Record<QueueName, string>
  dlqUrls: Record<QueueName, string>
  queueArns: Record<QueueName, string>
  close: () => Promise<void>
}

/**
 * startEmbeddedSqs starts fauxqs in-process on loopback and creates every queue, DLQ and redrive
 * policy from the queue definitions through the SQS API itself.
 */
export async function startEmbeddedSqs(options: EmbeddedSqsOptions = {}): Promise<EmbeddedSqs> {
  const region = options.region ?? 'us-east-1'
  const definitions = options.definitions ?? loadQueueDefinitions()
  // buildApp + listen on 127.0.0.1: startFauxqs always binds 0.0.0.0.
  const app = buildApp({ logger: false, defaultRegion: region })
  const endpoint = (await app.listen({ port: options.port ?? 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1')
  const client = createSqsClient({ region, endpoint })
  try {
    const queueUrls = {} as Record<QueueName, string>
    const dlqUrls = {} as Record<QueueName, string>
    const queueArns = {} as Record<QueueName, string>
    for (const name of QUEUE_NAMES) {
      const definition = definitions[name]
      const dlqUrl = await createQueue(client, dlqNameOf(name, definition), dlqAttributes(definition))
      const dlqArn = await queueArnOf(client, dlqUrl)
      queueUrls[name] = await createQueue(client, queueNameOf(name, definition), queueAttributes(definition, dlqArn))
      dlqUrls[name] = dlqUrl
      queueArns[name] = await queueArnOf(client, queueUrls[name])
    }
    const close = async () => {
      client.destroy()
      await app.close()
    }
    return { endpoint, region, client, definitions, queueUrls, dlqUrls, queueArns, close }
  } catch (err) {
    client.destroy()
    await app.close()
    throw new Error('create the embedded queues', { cause: err })
  }
}

async function createQueue(client: SQSClient, name: string, attributes: Record<string, string>): Promise<string> {
  const output = await client.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }))
  if (!output.QueueUrl) throw new Error(`CreateQueue ${name} returned no URL`)
  return output.QueueUrl
}

/** queueArnOf reads a queue's ARN (what a Lambda event source mapping names as eventSourceARN). */
export async function queueArnOf(client: SQSClient, queueUrl: string): Promise<string> {
  const output = await client.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }))
  const arn = output.Attributes?.QueueArn
  if (!arn) throw new Error(`GetQueueAttributes ${queueUrl} returned no QueueArn`)
  return arn
}
