import { SendMessageBatchCommand, type SendMessageBatchCommandOutput } from '@aws-sdk/client-sqs'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { EmbeddedSqs } from '../../../functions/local/embedded-sqs.ts'
import {
  createSend,
  deleteMessages,
  receiveMessages,
  SendMessagesError,
  type SqsApi,
  sendMessages,
} from '../../../shared/sqs/transport.ts'
import { depsFor, drain, interceptSend, startQueues } from './harness.ts'

let sqs: EmbeddedSqs
beforeAll(async () => {
  sqs = await startQueues()
})
afterAll(() => sqs.close())
beforeEach(async () => {
  // Each test starts from empty queues.
  await drain(sqs.client, sqs.queueUrls.decisions)
})

const bodies = (n: number, size = 10) => Array.from({ length: n }, (_, i) => `${i}:`.padEnd(size, 'x'))
const sqsError = (name: string, status: number) =>
  Object.assign(new Error(name), {
    name,
    $fault: status >= 500 ? 'server' : 'client',
    $metadata: { httpStatusCode: status },
  })

/** recordBatches counts SendMessageBatch requests and their entry ids while passing them through. */
function recordBatches(sqsClient: EmbeddedSqs['client']): { api: SqsApi; requests: string[][] } {
  const requests: string[][] = []
  const api = interceptSend(sqsClient, (command, next) => {
    if (command instanceof SendMessageBatchCommand) requests.push((command.input.Entries ?? []).map((e) => e.Id ?? ''))
    return next(command)
  })
  return { api, requests }
}

describe('sendMessages batching', () => {
  it.each([
    { name: 'splits 25 small messages into requests of 10, 10 and 5', messages: bodies(25), want: [10, 10, 5] },
    { name: 'splits three 100 KiB messages by size into 2 + 1', messages: bodies(3, 100 * 1024), want: [2, 1] },
  ])('$name and delivers every one', async ({ messages, want }) => {
    const { api, requests } = recordBatches(sqs.client)
    await sendMessages(
      depsFor(api),
      sqs.queueUrls.decisions,
      messages.map((body) => ({ body })),
    )
    expect(requests.map((r) => r.length)).toEqual(want)
    expect((await drain(sqs.client, sqs.queueUrls.decisions)).sort()).toEqual([...messages].sort())
  })

  it('sets group and deduplication ids on the FIFO queue, so a duplicate is dropped by SQS', async () => {
    const deps = depsFor(sqs.client)
    const view = { body: 'view-1', groupId: 'node-a', deduplicationId: 'uid-a:hash-1' }
    await sendMessages(deps, sqs.queueUrls.events, [view])
    await sendMessages(deps, sqs.queueUrls.events, [
      view,
      { body: 'view-2', groupId: 'node-a', deduplicationId: 'uid-a:hash-2' },
    ])
    const received = await receiveMessages(deps, sqs.queueUrls.events, { waitTimeSeconds: 1 })
    expect(received.map((m) => [m.Body, m.Attributes?.MessageGroupId])).toEqual([['view-1', 'node-a']])
    await deleteMessages(deps, sqs.queueUrls.events, [received[0]?.ReceiptHandle ?? ''])
    expect(await drain(sqs.client, sqs.queueUrls.events)).toEqual(['view-2'])
  })
})

describe('sendMessages retries', () => {
  it.each([
    {
      name: 'throttling',
      error: Object.assign(sqsError('RequestThrottled', 400), { $retryable: { throttling: true } }),
    },
    { name: 'a 500', error: sqsError('InternalError', 500) },
    { name: 'a 503', error: sqsError('ServiceUnavailable', 503) },
  ])('retries $name with backoff, then delivers', async ({ error }) => {
    let calls = 0
    const api = interceptSend(sqs.client, (command, next) => (++calls <= 2 ? Promise.reject(error) : next(command)))
    const deps = depsFor(api)
    await sendMessages(deps, sqs.queueUrls.decisions, [{ body: 'after-retries' }])
    expect(calls).toBe(3)
    expect(deps.sleeps).toEqual([25, 50])
    expect(await drain(sqs.client, sqs.queueUrls.decisions)).toEqual(['after-retries'])
  })

  it('does not retry a request SQS rejects as invalid', async () => {
    let calls = 0
    const api = interceptSend(sqs.client, () => {
      calls++
      return Promise.reject(sqsError('InvalidParameterValue', 400))
    })
    await expect(sendMessages(depsFor(api), sqs.queueUrls.decisions, [{ body: 'x' }])).rejects.toThrow(
      /SendMessageBatch to .* failed/,
    )
    expect(calls).toBe(1)
  })

  /** failEntries forwards a batch without the entries `shouldFail` picks and reports those as failed. */
  const failEntries = (shouldFail: (id: string, call: number) => boolean, senderFault = false) => {
    const requests: string[][] = []
    const api = interceptSend(sqs.client, async (command, next) => {
      if (!(command instanceof SendMessageBatchCommand)) return next(command)
      const entries = command.input.Entries ?? []
      requests.push(entries.map((e) => e.Id ?? ''))
      const failing = entries.filter((e) => shouldFail(e.Id ?? '', requests.length))
      const passing = entries.filter((e) => !failing.includes(e))
      const output = passing.length
        ? ((await next(
            new SendMessageBatchCommand({ ...command.input, Entries: passing }),
          )) as SendMessageBatchCommandOutput)
        : { Successful: [], Failed: [], $metadata: {} }
      const failed = failing.map((e) => ({
        Id: e.Id,
        SenderFault: senderFault,
        Code: 'InternalError',
        Message: 'injected',
      }))
      return { ...output, Failed: [...(output.Failed ?? []), ...failed] }
    })
    return { api, requests }
  }

  it('resends only the entries SQS failed, until they are delivered', async () => {
    const { api, requests } = failEntries((id, call) => call === 1 && ['m1', 'm4'].includes(id))
    const messages = bodies(6)
    await sendMessages(
      depsFor(api),
      sqs.queueUrls.decisions,
      messages.map((body) => ({ body })),
    )
    expect(requests).toEqual([
      ['m0', 'm1', 'm2', 'm3', 'm4', 'm5'],
      ['m1', 'm4'],
    ])
    expect((await drain(sqs.client, sqs.queueUrls.decisions)).sort()).toEqual(messages.sort())
  })

  it('throws naming the messages that still fail, after delivering all the others', async () => {
    const { api } = failEntries((id) => id === 'm3')
    const messages = bodies(12)
    const sent = sendMessages(
      depsFor(api),
      sqs.queueUrls.decisions,
      messages.map((body) => ({ body })),
    )
    await expect(sent).rejects.toBeInstanceOf(SendMessagesError)
    await expect(sent).rejects.toMatchObject({ failed: [{ index: 3, code: 'InternalError', senderFault: false }] })
    expect((await drain(sqs.client, sqs.queueUrls.decisions)).sort()).toEqual(messages.filter((_, i) => i !== 3).sort())
  })

  it('does not resend an entry SQS refused by the sender’s fault', async () => {
    const { api, requests } = failEntries((id) => id === 'm0', true)
    await expect(
      sendMessages(depsFor(api), sqs.queueUrls.decisions, [{ body: 'a' }, { body: 'b' }]),
    ).rejects.toMatchObject({
      failed: [{ index: 0, senderFault: true }],
    })
    expect(requests).toHaveLength(1)
  })
})

describe('delays', () => {
  it('delivers delayed messages on time, not before', async () => {
    const send = createSend({ client: sqs.client, queueUrls: sqs.queueUrls })
    const started = performance.now()
    await send('decisions', [
      { body: 'now', delaySeconds: 0 },
      { body: 'in-1s', delaySeconds: 1 },
      { body: 'in-2s', delaySeconds: 2 },
    ])
    const arrivedMs: Record<string, number> = {}
    const deps = depsFor(sqs.client)
    while (Object.keys(arrivedMs).length < 3 && performance.now() - started < 6_000) {
      const received = await receiveMessages(deps, sqs.queueUrls.decisions, { waitTimeSeconds: 1 })
      for (const m of received) arrivedMs[m.Body ?? ''] = performance.now() - started
      await deleteMessages(
        deps,
        sqs.queueUrls.decisions,
        received.map((m) => m.ReceiptHandle ?? ''),
      )
    }
    expect(Object.keys(arrivedMs).sort()).toEqual(['in-1s', 'in-2s', 'now'])
    expect(arrivedMs.now).toBeLessThan(500)
    expect(arrivedMs['in-1s']).toBeGreaterThanOrEqual(1_000)
    expect(arrivedMs['in-1s']).toBeLessThan(1_800)
    expect(arrivedMs['in-2s']).toBeGreaterThanOrEqual(2_000)
    expect(arrivedMs['in-2s']).toBeLessThan(2_800)
  })
})

describe('createSend', () => {
  it('refuses a queue it has no URL for, naming it', async () => {
    const send = createSend({ client: sqs.client, queueUrls: { decisions: sqs.queueUrls.decisions } })
    await expect(send('alerts', [{ body: 'x' }])).rejects.toThrow('no URL bound for queue alerts')
  })
})
