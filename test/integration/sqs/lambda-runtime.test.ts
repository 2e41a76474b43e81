import type { SQSEvent } from 'aws-lambda'
import { afterEach, describe, expect, it } from 'vitest'
import type { EmbeddedSqs } from '../../../functions/local/embedded-sqs.ts'
import { type LambdaRuntime, type RuntimeEvent, startLambdaRuntime } from '../../../functions/local/lambda-runtime.ts'
import { makeSqsHandler } from '../../../shared/lambda/sqs-handler.ts'
import { silentLog } from '../../../shared/log.ts'
import { serializeEnvelope, toEnvelope } from '../../../shared/messages/index.ts'
import { createSend } from '../../../shared/sqs/transport.ts'
import { aNode, aNodeView } from '../../fixtures/builders.ts'
import { recordingLog } from '../../unit/sqs/recording-log.ts'
import { drain, queueDepth, startQueues, waitFor } from './harness.ts'

const T0 = new Date('2026-11-22T10:00:00Z')
/** A valid NodeView envelope; `seq` rides in the observedAt time so a handler can read the order back. */
const viewBody = (node: string, seq: number) =>
  serializeEnvelope(
    toEnvelope(
      'io.nodewarden.nodeview.v1',
      aNodeView({ node: aNode({ name: node }), observedAt: new Date(T0.getTime() + seq * 1000).toISOString() }),
      { source: 'test', time: T0 },
    ),
  )
const seqOf = (observedAt: string) => (Date.parse(observedAt) - T0.getTime()) / 1000

let sqs: EmbeddedSqs | undefined
let runtime: LambdaRuntime | undefined
afterEach(async () => {
  await runtime?.stop()
  await sqs?.close()
  runtime = undefined
  sqs = undefined
})

describe('local Lambda runtime on the embedded SQS server', () => {
  it('keeps per-group order on the FIFO queue, even when a record is retried', async () => {
    sqs = await startQueues()
    const applied: Record<string, number[]> = {}
    let failedOnce = false
    const handler = makeSqsHandler({
      queue: 'events',
      type: 'io.nodewarden.nodeview.v1',
      log: silentLog,
      handle: async (envelope) => {
        const node = envelope.data.node.name
        const seq = seqOf(envelope.data.observedAt)
        if (node === 'node-b' && seq === 2 && !failedOnce) {
          failedOnce = true
          throw new Error('transient')
        }
        applied[node] = [...(applied[node] ?? []), seq]
      },
    })
    const send = createSend({ client: sqs.client, queueUrls: sqs.queueUrls })
    const nodes = ['node-a', 'node-b', 'node-c']
    for (let seq = 1; seq <= 5; seq++) {
      await send(
        'events',
        nodes.map((node) => ({ body: viewBody(node, seq), groupId: node, deduplicationId: `${node}-${seq}` })),
      )
    }
    runtime = await startLambdaRuntime({
      client: sqs.client,
      log: silentLog,
      functions: [
        { name: 'decide', queueUrl: sqs.queueUrls.events, handler, visibilityTimeoutSeconds: 1, concurrency: 2 },
      ],
    })
    await waitFor('15 views applied', () => Object.values(applied).flat().length === 15)
    expect(failedOnce).toBe(true)
    expect(applied).toEqual({ 'node-a': [1, 2, 3, 4, 5], 'node-b': [1, 2, 3, 4, 5], 'node-c': [1, 2, 3, 4, 5] })
  })

  it('sends a poison record to the DLQ after maxReceiveCount receives, logging why each time, while its neighbours succeed', async () => {
    sqs = await startQueues({ decisions: { maxReceiveCount: 3 } })
    const log = recordingLog()
    const handled: string[] = []
    const handler = makeSqsHandler({
      queue: 'decisions',
      type: 'io.nodewarden.nodeview.v1',
      log,
      handle: async (envelope) => void handled.push(envelope.data.node.name),
    })
    const poison = JSON.stringify({ ...JSON.parse(viewBody('poison', 1)), data: { node: { name: 'poison' } } })
    const send = createSend({ client: sqs.client, queueUrls: sqs.queueUrls })
    await send('decisions', [
      { body: viewBody('node-a', 1) },
      { body: poison },
      { body: viewBody('node-b', 1) },
      { body: viewBody('node-c', 1) },
    ])
    const timeline: RuntimeEvent[] = []
    runtime = await startLambdaRuntime({
      client: sqs.client,
      log: silentLog,
      onEvent: (e) => timeline.push(e),
      functions: [
        { name: 'write', queueUrl: sqs.queueUrls.decisions, handler, visibilityTimeoutSeconds: 1, maxReceiveCount: 3 },
      ],
    })
    const dlqUrl = sqs.dlqUrls.decisions
    await waitFor('the poison record in the DLQ', async () => (await queueDepth(sqs!.client, dlqUrl)) === 1)

    expect(handled.sort()).toEqual(['node-a', 'node-b', 'node-c'])
    const rejected = log.lines.filter((l) => l.message === 'message rejected')
    expect(rejected.map((l) => l.fields.receiveCount)).toEqual([1, 2, 3])
    for (const line of rejected) {
      expect(line.fields).toMatchObject({ queue: 'decisions' })
      expect(String(line.fields.fields)).toContain('data.node.uid')
    }
    const poisonId = rejected[0]?.fields.messageId
    expect(rejected.every((l) => l.fields.messageId === poisonId)).toBe(true)
    expect(timeline.filter((e) => e.kind === 'succeeded').map((e) => e.receiveCount)).toEqual([1, 1, 1])
    expect(timeline.filter((e) => e.messageId === poisonId).map((e) => e.kind)).toEqual([
      'received',
      'failed',
      'received',
      'failed',
      'received',
      'failed',
      'dead-lettered',
    ])
    expect(await drain(sqs.client, dlqUrl)).toEqual([poison])
    expect(await queueDepth(sqs.client, sqs.queueUrls.decisions)).toBe(0)
  })

  it('loses nothing when a handler throws mid-batch: the whole batch comes back', async () => {
    sqs = await startQueues()
    const processed: string[] = []
    let invocations = 0
    // A raw handler (not makeSqsHandler): it works through the batch and crashes halfway on its first call.
    const handler = async (event: SQSEvent) => {
      const first = ++invocations === 1
      for (const [i, record] of event.Records.entries()) {
        if (first && i === Math.floor(event.Records.length / 2)) throw new Error('out of memory, say')
        processed.push(record.body)
      }
      return { batchItemFailures: [] }
    }
    const bodies = Array.from({ length: 10 }, (_, i) => `m${i}`)
    await createSend({ client: sqs.client, queueUrls: sqs.queueUrls })(
      'alerts',
      bodies.map((body) => ({ body })),
    )
    runtime = await startLambdaRuntime({
      client: sqs.client,
      log: silentLog,
      functions: [{ name: 'alert', queueUrl: sqs.queueUrls.alerts, handler, visibilityTimeoutSeconds: 1 }],
    })
    await waitFor('every message processed and deleted', async () => {
      return bodies.every((b) => processed.includes(b)) && (await queueDepth(sqs!.client, sqs!.queueUrls.alerts)) === 0
    })
    expect(invocations).toBeGreaterThan(1)
    expect(await queueDepth(sqs.client, sqs.dlqUrls.alerts)).toBe(0)
  })

  it('fails an invocation that outlives the function timeout as a whole, like Lambda, and redelivers its batch', async () => {
    sqs = await startQueues()
    const events: RuntimeEvent[] = []
    let invocations = 0
    const done: string[] = []
    // The first invocation hangs past the 0.3 s timeout; later ones finish at once.
    const handler = async (event: SQSEvent) => {
      if (++invocations === 1) await new Promise((r) => setTimeout(r, 2_000))
      else done.push(...event.Records.map((r) => r.body))
      return { batchItemFailures: [] }
    }
    await createSend({ client: sqs.client, queueUrls: sqs.queueUrls })('alerts', [{ body: 'slow' }])
    runtime = await startLambdaRuntime({
      client: sqs.client,
      log: silentLog,
      onEvent: (e) => events.push(e),
      functions: [
        { name: 'alert', queueUrl: sqs.queueUrls.alerts, handler, timeoutSeconds: 0.3, visibilityTimeoutSeconds: 1 },
      ],
    })
    await waitFor('the message redelivered and handled', async () => done.includes('slow'))
    const failed = events.find((e) => e.kind === 'failed')
    expect(failed).toMatchObject({ function: 'alert', error: 'Task timed out after 0.30 seconds' })
    expect(failed && 'durationMs' in failed ? failed.durationMs : 0).toBeLessThan(1_500)
    await waitFor('the queue empty', async () => (await queueDepth(sqs!.client, sqs!.queueUrls.alerts)) === 0)
  })

  it('hands the handler a real SQS event: batch size, queue ARN, receive count, group id', async () => {
    sqs = await startQueues()
    const events: SQSEvent[] = []
    const handler = async (event: SQSEvent) => {
      events.push(event)
      return { batchItemFailures: [] }
    }
    const send = createSend({ client: sqs.client, queueUrls: sqs.queueUrls })
    await send(
      'decisions',
      Array.from({ length: 7 }, (_, i) => ({ body: `d${i}` })),
    )
    await send('events', [{ body: 'v1', groupId: 'node-a', deduplicationId: 'v1' }])
    runtime = await startLambdaRuntime({
      client: sqs.client,
      log: silentLog,
      functions: [
        { name: 'write', queueUrl: sqs.queueUrls.decisions, handler, batchSize: 3 },
        { name: 'decide', queueUrl: sqs.queueUrls.events, handler },
      ],
    })
    await waitFor('8 records delivered', () => events.flatMap((e) => e.Records).length === 8)
    const records = events.flatMap((e) => e.Records)
    for (const e of events) expect(e.Records.length).toBeLessThanOrEqual(3)
    const fifo = records.find((r) => r.body === 'v1')
    expect(fifo).toMatchObject({
      eventSource: 'aws:sqs',
      eventSourceARN: sqs.queueArns.events,
      awsRegion: 'us-east-1',
      attributes: { ApproximateReceiveCount: '1', MessageGroupId: 'node-a', MessageDeduplicationId: 'v1' },
    })
    expect(records.filter((r) => r.eventSourceARN === sqs?.queueArns.decisions)).toHaveLength(7)
  })

  it('drains an in-flight batch on stop: it completes and is deleted', async () => {
    sqs = await startQueues()
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    let started = false
    const handler = async () => {
      started = true
      await gate
      return { batchItemFailures: [] }
    }
    await createSend({ client: sqs.client, queueUrls: sqs.queueUrls })('alerts', [{ body: 'slow' }])
    const timeline: RuntimeEvent[] = []
    const running = await startLambdaRuntime({
      client: sqs.client,
      log: silentLog,
      onEvent: (e) => timeline.push(e),
      functions: [{ name: 'alert', queueUrl: sqs.queueUrls.alerts, handler }],
    })
    await waitFor('the handler to start', () => started)
    const stopped = running.stop()
    release()
    await stopped
    expect(timeline.map((e) => e.kind)).toEqual(['received', 'succeeded'])
    expect(await queueDepth(sqs.client, sqs.queueUrls.alerts)).toBe(0)
  })
})
