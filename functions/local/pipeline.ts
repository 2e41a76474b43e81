import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { QueueDefinitions } from '../../infra/queues.ts'
import { makeSqsHandler, type SqsHandler } from '../../shared/lambda/sqs-handler.ts'
import type { Log } from '../../shared/log.ts'
import type { Envelope } from '../../shared/messages/envelope.ts'
import { QUEUE_MESSAGE_TYPES, QUEUE_NAMES, type QueueName, queueEnvironment } from '../../shared/sqs/config.ts'
import { createSend, type Send } from '../../shared/sqs/transport.ts'
import { type EmbeddedSqs, startEmbeddedSqs } from './embedded-sqs.ts'
import { type LambdaRuntime, type LocalFunction, type RuntimeEvent, startLambdaRuntime } from './lambda-runtime.ts'

/**
 * The local pipeline's wiring, in small steps `npm start` (and later the full demo) composes:
 * embedded SQS → environment for the handlers → the handlers → the runtime feeding them.
 */

export type PipelineFunction = { name: string; queue: QueueName; handler: SqsHandler }

export type PipelineOptions = {
  log: Log
  /** Embedded SQS port; 0 (default) picks a free one. */
  sqsPort?: number
  /**
   * Returns the functions to run, given the environment they need (queue URLs, SQS_ENDPOINT).
   * A factory, so the caller can publish that environment before handler modules read it.
   */
  functions: (env: Record<string, string>, sqs: EmbeddedSqs) => Promise<PipelineFunction[]>
  /** Queues without a function get a sink that parses each envelope and reports it (default true). */
  sinks?: boolean
  /**
   * Local visibility timeout: how soon a failed record is redelivered (default 2 s; AWS uses the
   * queue's), or a function of the queue and its definition.
   */
  visibilityTimeoutSeconds?: number | ((queue: QueueName, definition: QueueDefinitions[QueueName]) => number)
  onEvent?: (event: RuntimeEvent) => void
  onSinkMessage?: (queue: QueueName, envelope: Envelope) => void
}

export type Pipeline = {
  sqs: EmbeddedSqs
  /** The environment handed to the handlers. */
  env: Record<string, string>
  send: Send
  functions: PipelineFunction[]
  sinks: QueueName[]
  stop: () => Promise<void>
}

/** startPipeline starts embedded SQS and a local runtime feeding every function (and sinks) from its queue. */
export async function startPipeline(options: PipelineOptions): Promise<Pipeline> {
  const sqs = await startEmbeddedSqs({ port: options.sqsPort ?? 0 })
  let runtime: LambdaRuntime | undefined
  try {
    const env = queueEnvironment(sqs.queueUrls, sqs.endpoint)
    const functions = await options.functions(env, sqs)
    const wired = new Set(functions.map((f) => f.queue))
    const sinks = options.sinks === false ? [] : QUEUE_NAMES.filter((q) => !wired.has(q))
    const sinkFunctions = sinks.map((queue) => sinkFunction(queue, options))
    runtime = await startLambdaRuntime({
      client: sqs.client,
      log: options.log,
      ...(options.onEvent ? { onEvent: options.onEvent } : {}),
      functions: [...functions, ...sinkFunctions].map((f) =>
        toLocalFunction(f, sqs, sqs.definitions, options.visibilityTimeoutSeconds),
      ),
    })
    const running = runtime
    return {
      sqs,
      env,
      send: createSend({ client: sqs.client, queueUrls: sqs.queueUrls }),
      functions,
      sinks,
      stop: async () => {
        await running.stop()
        await sqs.close()
      },
    }
  } catch (err) {
    await runtime?.stop()
    await sqs.close()
    throw err
  }
}

/** toLocalFunction gives a function the batch size, timeout and redrive limit infra/queues.yml gives it on AWS. */
function toLocalFunction(
  fn: PipelineFunction,
  sqs: EmbeddedSqs,
  definitions: QueueDefinitions,
  visibility: PipelineOptions['visibilityTimeoutSeconds'],
): LocalFunction {
  const definition = definitions[fn.queue]
  const visibilityTimeoutSeconds =
    typeof visibility === 'function' ? visibility(fn.queue, definition) : (visibility ?? 2)
  return {
    name: fn.name,
    queueUrl: sqs.queueUrls[fn.queue],
    handler: fn.handler,
    batchSize: Math.min(10, definition.consumer.batchSize),
    timeoutSeconds: definition.consumer.timeoutSeconds,
    maxReceiveCount: definition.maxReceiveCount,
    visibilityTimeoutSeconds,
  }
}

/** sinkFunction consumes a queue nothing else consumes yet: parses each envelope (bad ones fail) and reports it. */
function sinkFunction(queue: QueueName, options: PipelineOptions): PipelineFunction {
  const handler = makeSqsHandler({
    queue,
    type: QUEUE_MESSAGE_TYPES[queue],
    log: options.log,
    handle: async (envelope) => options.onSinkMessage?.(queue, envelope),
  })
  return { name: `sink:${queue}`, queue, handler }
}

/** consumerOf names the function infra/queues.yml says consumes each queue (decide, write, alert). */
export function consumersOf(definitions: QueueDefinitions): { name: string; queue: QueueName }[] {
  return QUEUE_NAMES.map((queue) => ({ name: definitions[queue].consumer.function, queue }))
}

/** handlerPath is where a function's Lambda entry lives; it may not exist yet. */
export function handlerPath(root: string, name: string): string {
  return join(root, 'functions', name, 'handler.ts')
}

/**
 * loadHandlers imports `functions/<name>/handler.ts` for each requested consumer that exists and
 * returns it wired to its queue, plus the names that were asked for but are not written yet.
 */
export async function loadHandlers(
  root: string,
  definitions: QueueDefinitions,
  names: readonly string[],
): Promise<{ functions: PipelineFunction[]; missing: string[] }> {
  const functions: PipelineFunction[] = []
  const missing: string[] = []
  for (const { name, queue } of consumersOf(definitions).filter((c) => names.includes(c.name))) {
    const path = handlerPath(root, name)
    if (!existsSync(path)) {
      missing.push(name)
      continue
    }
    const mod = (await import(path)) as { handler?: SqsHandler }
    if (typeof mod.handler !== 'function') throw new Error(`${path} does not export a handler function`)
    functions.push({ name, queue, handler: mod.handler })
  }
  return { functions, missing }
}
