import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EmbeddedSqs } from '../../../functions/local/embedded-sqs.ts'
import { loadQueueDefinitions } from '../../../infra/queues.ts'
import { QUEUE_NAMES } from '../../../shared/sqs/config.ts'
import { startQueues } from './harness.ts'

describe('startEmbeddedSqs', () => {
  let sqs: EmbeddedSqs
  beforeAll(async () => {
    sqs = await startQueues()
  })
  afterAll(() => sqs.close())

  it('listens on loopback only, on a port of its own', () => {
    expect(sqs.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  })

  it.each(QUEUE_NAMES.map((name) => ({ name })))(
    'creates $name with the attributes and redrive policy of infra/queues.yml',
    async ({ name }) => {
      const definition = loadQueueDefinitions()[name]
      const attributes = async (url: string) =>
        (await sqs.client.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['All'] }))).Attributes ??
        {}
      const queue = await attributes(sqs.queueUrls[name])
      const dlq = await attributes(sqs.dlqUrls[name])
      expect(queue.VisibilityTimeout).toBe(String(definition.visibilityTimeoutSeconds))
      expect(queue.FifoQueue === 'true').toBe(definition.fifo)
      expect(dlq.FifoQueue === 'true').toBe(definition.fifo)
      expect(JSON.parse(queue.RedrivePolicy ?? '{}')).toEqual({
        deadLetterTargetArn: dlq.QueueArn,
        maxReceiveCount: definition.maxReceiveCount,
      })
      expect(sqs.queueArns[name]).toBe(queue.QueueArn)
    },
  )
})
