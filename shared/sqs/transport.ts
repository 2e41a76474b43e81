import {
  type BatchResultErrorEntry,
  DeleteMessageBatchCommand,
  type Message,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs'
import { type OutgoingMessage, type PlannedEntry, planBatches } from './batches.ts'
import { isFifoQueueUrl, type QueueName } from './config.ts'
import {
  backoffDelayMs,
  DEFAULT_RETRY_POLICY,
  type RetryDeps,
  type RetryPolicy,
  realSleep,
  withRetry,
} from './retry.ts'

export type { OutgoingMessage } from './batches.ts'
export { delaySecondsUntil, MAX_BATCH_ENTRIES, MAX_DELAY_SECONDS, MAX_REQUEST_BYTES } from './batches.ts'

/** The one SDK method the transport uses; tests wrap it to inject faults. */
export type SqsApi = Pick<SQSClient, 'send'>
export type SqsDeps = RetryDeps & { client: SqsApi; policy?: RetryPolicy }

/** A producer's view of the queues: send these messages to that queue, or throw. */
export type Send = (queue: QueueName, messages: OutgoingMessage[]) => Promise<void>

export type FailedEntry = { index: number; code: string; message: string; senderFault: boolean }

/** SendMessagesError lists the messages SQS still refused after retries; every other message was sent. */
export class SendMessagesError extends Error {
  override name = 'SendMessagesError'
  constructor(
    readonly queueUrl: string,
    readonly failed: FailedEntry[],
  ) {
    const listed = failed.map((f) => `#${f.index} ${f.code}: ${f.message}`).join('; ')
    super(`send to ${queueUrl}: ${failed.length} message(s) not sent: ${listed}`)
  }
}

/**
 * sendMessages sends every message to `queueUrl` in batches of ≤ 10 entries and ≤ 256 KiB, retrying
 * throttling/5xx with backoff and resending entries SQS reports as failed by its own fault. It sends
 * every batch it can, then throws SendMessagesError naming any message still not sent — never drops.
 */
export async function sendMessages(
  deps: SqsDeps,
  queueUrl: string,
  messages: readonly OutgoingMessage[],
): Promise<void> {
  const failed: FailedEntry[] = []
  for (const batch of planBatches(messages, isFifoQueueUrl(queueUrl))) {
    failed.push(...(await sendBatch(deps, queueUrl, batch)))
  }
  if (failed.length > 0) throw new SendMessagesError(queueUrl, failed)
}

/** sendBatch sends one planned batch, resending the entries that failed transiently; returns what still failed. */
async function sendBatch(deps: SqsDeps, queueUrl: string, batch: PlannedEntry[]): Promise<FailedEntry[]> {
  const policy = deps.policy ?? DEFAULT_RETRY_POLICY
  const byId = new Map(batch.map((p) => [p.entry.Id, p]))
  const permanent: FailedEntry[] = []
  let pending = batch
  for (let attempt = 1; ; attempt++) {
    const output = await withRetry(
      deps,
      `SendMessageBatch to ${queueUrl}`,
      () => deps.client.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: pending.map((p) => p.entry) })),
      policy,
    )
    const errors = output.Failed ?? []
    permanent.push(...errors.filter((e) => e.SenderFault).map((e) => toFailedEntry(e, byId)))
    const transient = errors.filter((e) => !e.SenderFault)
    if (transient.length === 0) return permanent
    if (attempt >= policy.maxAttempts) return [...permanent, ...transient.map((e) => toFailedEntry(e, byId))]
    const retryIds = new Set(transient.map((e) => e.Id))
    pending = pending.filter((p) => retryIds.has(p.entry.Id))
    await deps.sleep(backoffDelayMs(attempt, deps.random, policy))
  }
}

function toFailedEntry(error: BatchResultErrorEntry, byId: Map<string | undefined, PlannedEntry>): FailedEntry {
  return {
    index: byId.get(error.Id)?.index ?? -1,
    code: error.Code ?? 'Unknown',
    message: error.Message ?? '',
    senderFault: error.SenderFault ?? false,
  }
}

export type ReceiveOptions = {
  maxMessages?: number
  /** Long poll: 0..20 s, default 20. */
  waitTimeSeconds?: number
  /** Overrides the queue's visibility timeout for these messages. */
  visibilityTimeoutSeconds?: number
  abortSignal?: AbortSignal
}

/** receiveMessages long-polls `queueUrl` for up to 10 messages with every system attribute (receive count, group id…). */
export async function receiveMessages(
  deps: SqsDeps,
  queueUrl: string,
  options: ReceiveOptions = {},
): Promise<Message[]> {
  const command = new ReceiveMessageCommand({
    QueueUrl: queueUrl,
    MaxNumberOfMessages: options.maxMessages ?? 10,
    WaitTimeSeconds: options.waitTimeSeconds ?? 20,
    ...(options.visibilityTimeoutSeconds === undefined ? {} : { VisibilityTimeout: options.visibilityTimeoutSeconds }),
    MessageSystemAttributeNames: ['All'],
    MessageAttributeNames: ['All'],
  })
  const sendOptions = options.abortSignal ? { abortSignal: options.abortSignal } : {}
  const output = await withRetry(
    deps,
    `ReceiveMessage from ${queueUrl}`,
    () => deps.client.send(command, sendOptions),
    deps.policy,
  )
  return output.Messages ?? []
}

/** deleteMessages deletes received messages by receipt handle in batches of 10, retrying failed entries; throws if any remain. */
export async function deleteMessages(
  deps: SqsDeps,
  queueUrl: string,
  receiptHandles: readonly string[],
): Promise<void> {
  const policy = deps.policy ?? DEFAULT_RETRY_POLICY
  for (let start = 0; start < receiptHandles.length; start += 10) {
    let pending = receiptHandles
      .slice(start, start + 10)
      .map((handle, i) => ({ Id: `d${start + i}`, ReceiptHandle: handle }))
    for (let attempt = 1; pending.length > 0; attempt++) {
      const output = await withRetry(
        deps,
        `DeleteMessageBatch on ${queueUrl}`,
        () => deps.client.send(new DeleteMessageBatchCommand({ QueueUrl: queueUrl, Entries: pending })),
        policy,
      )
      const failedIds = new Set((output.Failed ?? []).map((f) => f.Id))
      if (failedIds.size === 0) break
      if (attempt >= policy.maxAttempts) {
        const codes = (output.Failed ?? []).map((f) => `${f.Id} ${f.Code}`).join(', ')
        throw new Error(`DeleteMessageBatch on ${queueUrl}: ${failedIds.size} entries still failing: ${codes}`)
      }
      pending = pending.filter((e) => failedIds.has(e.Id))
      await deps.sleep(backoffDelayMs(attempt, deps.random, policy))
    }
  }
}

export type SendOptions = {
  client: SqsApi
  queueUrls: Partial<Record<QueueName, string>>
  sleep?: (ms: number) => Promise<void>
  random?: () => number
  policy?: RetryPolicy
}

/** createSend binds queue URLs to a `Send`; sending to a queue without a URL throws, naming it. */
export function createSend(options: SendOptions): Send {
  const deps: SqsDeps = {
    client: options.client,
    sleep: options.sleep ?? realSleep,
    random: options.random ?? Math.random,
    ...(options.policy ? { policy: options.policy } : {}),
  }
  return async (queue, messages) => {
    const queueUrl = options.queueUrls[queue]
    if (queueUrl === undefined) throw new Error(`no URL bound for queue ${queue}`)
    if (messages.length === 0) return
    await sendMessages(deps, queueUrl, messages)
  }
}
