import { randomUUID } from 'node:crypto'
import type { Message, SQSClient } from '@aws-sdk/client-sqs'
import type { SqsHandler } from '../../shared/lambda/sqs-handler.ts'
import type { Log } from '../../shared/log.ts'
import { realSleep } from '../../shared/sqs/retry.ts'
import { deleteMessages, receiveMessages, type SqsDeps } from '../../shared/sqs/transport.ts'
import { queueArnOf } from './embedded-sqs.ts'
import { toLambdaContext, toSqsEvent } from './sqs-event.ts'

/**
 * A local stand-in for Lambda's SQS event source mapping: long-polls each queue, hands the batch
 * to the same handler module Lambda runs, deletes the records it did not report as failed, and
 * leaves failures invisible until their visibility timeout lapses — so SQS itself redelivers them
 * and, after maxReceiveCount receives, moves them to the DLQ, exactly as on AWS.
 */

export type LocalFunction = {
  name: string
  queueUrl: string
  handler: SqsHandler
  /** Records per invocation, 1..10 (default 10). */
  batchSize?: number
  /** Visibility timeout set on each receive: how long a failed record waits before redelivery. Default: the queue's. */
  visibilityTimeoutSeconds?: number
  /** Only for the timeline: a failure at this receive count is the last before SQS dead-letters the record. */
  maxReceiveCount?: number
  /**
   * Function timeout (default 30 s): the invocation's Context deadline, and enforced as Lambda does —
   * an invocation still running then fails as a whole ("Task timed out"), so its batch is redelivered.
   */
  timeoutSeconds?: number
  /** Parallel pollers, like Lambda's concurrent batches (default 1). Group order on FIFO holds either way. */
  concurrency?: number
}

export type RuntimeEventKind = 'received' | 'succeeded' | 'failed' | 'dead-lettered'
export type RuntimeEvent = {
  at: Date
  kind: RuntimeEventKind
  function: string
  messageId: string
  receiveCount: number
  groupId?: string
  /** The invocation's duration, for succeeded/failed. */
  durationMs?: number
  /** Set when the whole invocation failed (the handler threw or returned an invalid response). */
  error?: string
}

export type LambdaRuntimeOptions = {
  client: SQSClient
  functions: LocalFunction[]
  log: Log
  onEvent?: (event: RuntimeEvent) => void
  /** Long-poll wait per receive, 0..20 s (default 2: stop() aborts it anyway). */
  waitTimeSeconds?: number
  now?: () => Date
}

export type LambdaRuntime = {
  /** Stops polling and waits for in-flight batches to finish and be acknowledged. */
  stop: () => Promise<void>
}

/** startLambdaRuntime starts polling every function's queue and invoking its handler with SQS events. */
export async function startLambdaRuntime(options: LambdaRuntimeOptions): Promise<LambdaRuntime> {
  const abort = new AbortController()
  const deps: SqsDeps = { client: options.client, sleep: realSleep, random: Math.random }
  const pollers: Promise<void>[] = []
  for (const fn of options.functions) {
    const queueArn = await queueArnOf(options.client, fn.queueUrl)
    for (let i = 0; i < (fn.concurrency ?? 1); i++) pollers.push(poll(options, deps, fn, queueArn, abort.signal))
  }
  return {
    stop: async () => {
      abort.abort()
      await Promise.all(pollers)
    },
  }
}

async function poll(
  options: LambdaRuntimeOptions,
  deps: SqsDeps,
  fn: LocalFunction,
  queueArn: string,
  signal: AbortSignal,
): Promise<void> {
  while (!signal.aborted) {
    let messages: Message[]
    try {
      messages = await receiveMessages(deps, fn.queueUrl, {
        maxMessages: fn.batchSize ?? 10,
        waitTimeSeconds: options.waitTimeSeconds ?? 2,
        ...(fn.visibilityTimeoutSeconds === undefined ? {} : { visibilityTimeoutSeconds: fn.visibilityTimeoutSeconds }),
        abortSignal: signal,
      })
    } catch (err) {
      if (signal.aborted) return
      options.log.error('receive failed', { function: fn.name, error: (err as Error).message })
      await realSleep(1_000)
      continue
    }
    // An in-flight batch always completes: stop() drains instead of abandoning it.
    if (messages.length > 0) await invoke(options, deps, fn, queueArn, messages)
  }
}

/** invoke runs one batch through the handler and acknowledges it the way the event source mapping does. */
async function invoke(
  options: LambdaRuntimeOptions,
  deps: SqsDeps,
  fn: LocalFunction,
  queueArn: string,
  messages: Message[],
): Promise<void> {
  const now = options.now ?? (() => new Date())
  const emit = options.onEvent ?? (() => {})
  const event = toSqsEvent(messages, queueArn)
  const describe = event.Records.map((r) => ({
    function: fn.name,
    messageId: r.messageId,
    receiveCount: Number(r.attributes.ApproximateReceiveCount),
    ...(r.attributes.MessageGroupId ? { groupId: r.attributes.MessageGroupId } : {}),
  }))
  for (const d of describe) emit({ at: now(), kind: 'received', ...d })

  const started = performance.now()
  const timeoutSeconds = fn.timeoutSeconds ?? 30
  const context = toLambdaContext(fn.name, randomUUID(), Date.now() + timeoutSeconds * 1000, Date.now)
  let failedIds: Set<string>
  let error: string | undefined
  let timer: NodeJS.Timeout | undefined
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`Task timed out after ${timeoutSeconds.toFixed(2)} seconds`)),
      timeoutSeconds * 1000,
    )
  })
  try {
    // Unlike Lambda, this process cannot freeze a timed-out handler: it runs on, but its result is ignored.
    const response = await Promise.race([fn.handler(event, context), timedOut])
    failedIds = new Set((response?.batchItemFailures ?? []).map((f) => f.itemIdentifier))
    // Lambda treats a response naming an unknown or empty id as a failure of the whole batch.
    if ([...failedIds].some((id) => !describe.some((d) => d.messageId === id))) {
      error = 'invalid batchItemFailures in response'
      failedIds = new Set(describe.map((d) => d.messageId))
    }
  } catch (err) {
    error = (err as Error).message
    options.log.error('invocation failed', { function: fn.name, records: messages.length, error })
    failedIds = new Set(describe.map((d) => d.messageId))
  } finally {
    clearTimeout(timer)
  }
  const durationMs = Math.round(performance.now() - started)

  const succeeded = event.Records.filter((r) => !failedIds.has(r.messageId))
  if (succeeded.length > 0) {
    try {
      await deleteMessages(
        deps,
        fn.queueUrl,
        succeeded.map((r) => r.receiptHandle),
      )
    } catch (err) {
      // Not deleted means redelivered: at-least-once, as on AWS when the mapping's delete fails.
      options.log.error('delete failed', { function: fn.name, error: (err as Error).message })
    }
  }
  for (const d of describe) {
    const failed = failedIds.has(d.messageId)
    emit({ at: now(), kind: failed ? 'failed' : 'succeeded', ...d, durationMs, ...(error ? { error } : {}) })
    if (failed && fn.maxReceiveCount !== undefined && d.receiveCount >= fn.maxReceiveCount) {
      emit({ at: now(), kind: 'dead-lettered', ...d })
    }
  }
}
