import { GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs'
import { type EmbeddedSqs, startEmbeddedSqs } from '../../../functions/local/embedded-sqs.ts'
import { loadQueueDefinitions, type QueueDefinition } from '../../../infra/queues.ts'
import type { QueueName } from '../../../shared/sqs/config.ts'
import { deleteMessages, receiveMessages, type SqsApi, type SqsDeps } from '../../../shared/sqs/transport.ts'

/** startQueues starts the embedded server with the project's queue definitions, some fields overridden. */
export function startQueues(
  overrides: Partial<Record<QueueName, Partial<QueueDefinition>>> = {},
): Promise<EmbeddedSqs> {
  const definitions = loadQueueDefinitions()
  for (const [name, override] of Object.entries(overrides) as [QueueName, Partial<QueueDefinition>][]) {
    definitions[name] = { ...definitions[name], ...override }
  }
  return startEmbeddedSqs({ definitions })
}

type Command = Parameters<SQSClient['send']>[0]
/** Any SQS command object; `instanceof SendMessageBatchCommand` narrows it. */
export type SqsCommand = object

/** interceptSend wraps a real client's send: the seam for injecting faults without module mocks. */
export function interceptSend(
  client: SQSClient,
  intercept: (command: SqsCommand, next: (command: SqsCommand) => Promise<unknown>) => Promise<unknown>,
): SqsApi {
  const next = (command: SqsCommand) => client.send(command as Command)
  return { send: ((command: SqsCommand) => intercept(command, next)) as SQSClient['send'] }
}

/** depsFor gives transport deps over `client` that record sleeps instead of waiting. */
export function depsFor(client: SqsApi): SqsDeps & { sleeps: number[] } {
  const sleeps: number[] = []
  return { client, sleeps, sleep: async (ms) => void sleeps.push(ms), random: () => 0.5 }
}

/** drain receives and deletes until nothing is visible, in flight or delayed, returning every body. */
export async function drain(client: SQSClient, queueUrl: string, timeoutMs = 10_000): Promise<string[]> {
  const deps = depsFor(client)
  const bodies: string[] = []
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const messages = await receiveMessages(deps, queueUrl, { waitTimeSeconds: 0 })
    bodies.push(...messages.map((m) => m.Body ?? ''))
    await deleteMessages(
      deps,
      queueUrl,
      messages.map((m) => m.ReceiptHandle ?? ''),
    )
    if (messages.length === 0 && (await queueDepth(client, queueUrl)) === 0) return bodies
    if (Date.now() > deadline) throw new Error(`${queueUrl} did not drain in ${timeoutMs} ms`)
    if (messages.length === 0) await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** queueDepth counts visible, in-flight and delayed messages. */
export async function queueDepth(client: SQSClient, queueUrl: string): Promise<number> {
  const output = await client.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['All'] }))
  const a = output.Attributes ?? {}
  return (
    Number(a.ApproximateNumberOfMessages ?? 0) +
    Number(a.ApproximateNumberOfMessagesNotVisible ?? 0) +
    Number(a.ApproximateNumberOfMessagesDelayed ?? 0)
  )
}

/** waitFor polls `check` until it returns true, failing with `what` after `timeoutMs`. */
export async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}
