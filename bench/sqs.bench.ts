/**
 * Messages per second through the local Lambda runtime (send → handler → delete) beside a raw SDK
 * loop (send batch → receive 10 → delete batch) on the same embedded SQS server, in one process,
 * with the same message count and worker count: the ratio is the runtime's cost over bare SQS calls.
 */
import { DeleteMessageBatchCommand, ReceiveMessageCommand, SendMessageBatchCommand } from '@aws-sdk/client-sqs'
import type { SQSEvent } from 'aws-lambda'
import { startEmbeddedSqs } from '../functions/local/embedded-sqs.ts'
import { startLambdaRuntime } from '../functions/local/lambda-runtime.ts'
import { makeSqsHandler } from '../shared/lambda/sqs-handler.ts'
import { silentLog } from '../shared/log.ts'
import { serializeEnvelope, toEnvelope } from '../shared/messages/envelope.ts'
import { createSend } from '../shared/sqs/transport.ts'

export const name = 'sqs'

const MESSAGES = 2_000
const WORKERS = 4

const T = new Date('2026-11-22T10:00:00Z')
/** anAlertBody is one valid alert envelope, the message every loop moves. */
const anAlertBody = () =>
  serializeEnvelope(
    toEnvelope(
      'io.nodewarden.alert.v1',
      {
        id: 'bench-alert-0001',
        status: 'firing',
        severity: 'warning',
        kind: 'ConditionTainted',
        subject: { kind: 'Node', name: 'node-a' },
        summary: 'bench',
        startsAt: T.toISOString(),
        groupKey: 'bench',
      },
      { source: 'bench', time: T },
    ),
  )

/** run measures both loops on one embedded server and returns their rates and ratio. */
export async function run(): Promise<Record<string, unknown>> {
  const sqs = await startEmbeddedSqs()
  try {
    const send = createSend({ client: sqs.client, queueUrls: sqs.queueUrls })
    const backlog = Array.from({ length: MESSAGES }, () => ({ body: anAlertBody() }))
    const queueUrl = sqs.queueUrls.alerts

    // Baseline: bare SDK calls — SendMessageBatch of 10, then WORKERS concurrent receive-10 → delete-batch loops.
    const rawStarted = performance.now()
    for (let i = 0; i < MESSAGES; i += 10) {
      const entries = backlog.slice(i, i + 10).map((m, j) => ({ Id: String(j), MessageBody: m.body }))
      await sqs.client.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }))
    }
    let rawDone = 0
    await Promise.all(
      Array.from({ length: WORKERS }, async () => {
        while (rawDone < MESSAGES) {
          const { Messages = [] } = await sqs.client.send(
            new ReceiveMessageCommand({
              QueueUrl: queueUrl,
              MaxNumberOfMessages: 10,
              WaitTimeSeconds: 0,
              MessageSystemAttributeNames: ['All'],
            }),
          )
          if (Messages.length === 0) continue
          await sqs.client.send(
            new DeleteMessageBatchCommand({
              QueueUrl: queueUrl,
              Entries: Messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle })),
            }),
          )
          rawDone += Messages.length
        }
      }),
    )
    const rawMs = performance.now() - rawStarted

    // Measured: the transport's send, and the local runtime with WORKERS pollers handing batches to a
    // Powertools handler that parses each envelope, then deleting the successes.
    let handled = 0
    let finish: () => void = () => {}
    const finished = new Promise<void>((resolve) => {
      finish = resolve
    })
    const parse = makeSqsHandler({
      queue: 'alerts',
      type: 'io.nodewarden.alert.v1',
      log: silentLog,
      handle: async () => {},
    })
    const handler = async (event: SQSEvent) => parse(event)
    const runtimeStarted = performance.now()
    const runtime = await startLambdaRuntime({
      client: sqs.client,
      log: silentLog,
      waitTimeSeconds: 1,
      onEvent: (e) => {
        if (e.kind === 'succeeded' && ++handled === MESSAGES) finish()
      },
      functions: [{ name: 'bench', queueUrl, handler, batchSize: 10, concurrency: WORKERS }],
    })
    await send('alerts', backlog)
    await finished
    const runtimeMs = performance.now() - runtimeStarted
    await runtime.stop()

    const rawRate = Math.round((MESSAGES / rawMs) * 1000)
    const runtimeRate = Math.round((MESSAGES / runtimeMs) * 1000)
    return {
      messages: MESSAGES,
      pollers: WORKERS,
      runtimeMessagesPerSecond: runtimeRate,
      rawSdkMessagesPerSecond: rawRate,
      ratio: Number((runtimeRate / rawRate).toFixed(3)),
      note: 'runtime = sendMessages → long-poll receive → SQSEvent → makeSqsHandler (envelope parse) → delete; raw = SendMessageBatch, then receive 10 → DeleteMessageBatch',
    }
  } finally {
    await sqs.close()
  }
}
