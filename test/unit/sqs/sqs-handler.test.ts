import type { SQSEvent, SQSRecord } from 'aws-lambda'
import { describe, expect, it } from 'vitest'
import { makeSqsHandler, NonRetryableError } from '../../../shared/lambda/sqs-handler.ts'
import { serializeEnvelope, toEnvelope } from '../../../shared/messages/index.ts'
import { aNode, aNodeView } from '../../fixtures/builders.ts'
import { recordingLog } from './recording-log.ts'

const STANDARD_ARN = 'arn:aws:sqs:us-east-1:000000000000:decisions'
const FIFO_ARN = 'arn:aws:sqs:us-east-1:000000000000:events.fifo'

const viewBody = (node: string) =>
  serializeEnvelope(
    toEnvelope('io.nodewarden.nodeview.v1', aNodeView({ node: aNode({ name: node }) }), {
      source: 'test',
      time: new Date('2026-11-22T10:00:00Z'),
    }),
  )

function aRecord(messageId: string, body: string, extra: { arn?: string; group?: string; receiveCount?: number } = {}) {
  return {
    messageId,
    receiptHandle: `rh-${messageId}`,
    body,
    attributes: {
      ApproximateReceiveCount: String(extra.receiveCount ?? 1),
      SentTimestamp: '0',
      SenderId: 'test',
      ApproximateFirstReceiveTimestamp: '0',
      ...(extra.group ? { MessageGroupId: extra.group } : {}),
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: extra.arn ?? STANDARD_ARN,
    awsRegion: 'us-east-1',
  } satisfies SQSRecord
}
const anEvent = (...records: SQSRecord[]): SQSEvent => ({ Records: records })

function setup(handle: (node: string) => Promise<void> = async () => {}) {
  const log = recordingLog()
  const handled: string[] = []
  const handler = makeSqsHandler({
    queue: 'events',
    type: 'io.nodewarden.nodeview.v1',
    log,
    handle: async (envelope, record) => {
      handled.push(record.messageId)
      await handle(envelope.data.node.name)
    },
  })
  return { handler, log, handled }
}

const failedIds = (r: { batchItemFailures: { itemIdentifier: string }[] }) =>
  r.batchItemFailures.map((f) => f.itemIdentifier).sort()

describe('makeSqsHandler on bad input', () => {
  it.each([
    { name: 'malformed JSON', body: '{"specversion":', field: '(body)' },
    {
      name: 'a wrong envelope type',
      body: viewBody('node-a').replace('io.nodewarden.nodeview.v1', 'io.nodewarden.alert.v1'),
      field: 'type',
    },
    {
      name: 'an unknown envelope type',
      body: viewBody('node-a').replace('io.nodewarden.nodeview.v1', 'io.nodewarden.nodeview.v9'),
      field: 'type',
    },
    {
      name: 'a body failing its schema',
      body: JSON.stringify({ ...JSON.parse(viewBody('node-a')), data: { node: { name: 'n' } } }),
      field: 'data.node.uid',
    },
  ])('fails only the record with $name, logging one warning that names the field', async ({ body, field }) => {
    const { handler, log, handled } = setup()
    const event = anEvent(
      aRecord('good-1', viewBody('node-a')),
      aRecord('bad', body, { receiveCount: 3 }),
      aRecord('good-2', viewBody('node-b')),
    )
    expect(failedIds(await handler(event))).toEqual(['bad'])
    expect(handled.sort()).toEqual(['good-1', 'good-2'])
    expect(log.lines).toHaveLength(1)
    expect(log.lines[0]).toMatchObject({
      level: 'warn',
      message: 'message rejected',
      fields: { queue: 'events', messageId: 'bad', receiveCount: 3 },
    })
    expect(String(log.lines[0]?.fields.fields)).toContain(field)
  })
})

describe('makeSqsHandler on handler outcomes', () => {
  it('acknowledges a NonRetryableError instead of retrying it, and logs why', async () => {
    const { handler, log } = setup(async (node) => {
      if (node === 'gone') throw new NonRetryableError('node gone was deleted')
    })
    const response = await handler(anEvent(aRecord('m1', viewBody('gone')), aRecord('m2', viewBody('node-a'))))
    expect(response.batchItemFailures).toEqual([])
    expect(log.lines).toMatchObject([
      { level: 'warn', message: 'message dropped', fields: { messageId: 'm1', reason: 'node gone was deleted' } },
    ])
  })

  it('fails a record whose handler throws, so SQS redelivers it', async () => {
    const { handler, log } = setup(async (node) => {
      if (node === 'flaky') throw new Error('cluster unreachable')
    })
    const response = await handler(anEvent(aRecord('m1', viewBody('flaky')), aRecord('m2', viewBody('node-a'))))
    expect(failedIds(response)).toEqual(['m1'])
    expect(log.lines).toMatchObject([
      { message: 'message failed', fields: { messageId: 'm1', error: 'cluster unreachable' } },
    ])
  })

  it('reports a batch where every record fails instead of throwing', async () => {
    const { handler } = setup(async () => {
      throw new Error('down')
    })
    const response = await handler(anEvent(aRecord('m1', viewBody('a')), aRecord('m2', viewBody('b'))))
    expect(failedIds(response)).toEqual(['m1', 'm2'])
  })

  it('on a FIFO queue skips the rest of a failing group and carries on with the other groups', async () => {
    const { handler, handled } = setup(async (node) => {
      if (node === 'node-a') throw new Error('first of group a fails')
    })
    const fifo = (id: string, group: string) => aRecord(id, viewBody(group), { arn: FIFO_ARN, group })
    const response = await handler(
      anEvent(fifo('a1', 'node-a'), fifo('b1', 'node-b'), fifo('a2', 'node-a'), fifo('b2', 'node-b')),
    )
    expect(failedIds(response)).toEqual(['a1', 'a2'])
    expect(handled).toEqual(['a1', 'b1', 'b2'])
  })
})
