import { fileURLToPath } from 'node:url'
import type { Message } from '@aws-sdk/client-sqs'
import type { EmbeddedSqs } from '../../../functions/local/embedded-sqs.ts'
import type { StackEvent } from '../../../functions/local/stack-events.ts'
import { QUEUE_NAMES, type QueueName } from '../../../shared/sqs/config.ts'
import { realSleep } from '../../../shared/sqs/retry.ts'
import { receiveMessages } from '../../../shared/sqs/transport.ts'

/** Shared helpers for the local-stack e2e tests: polling real peers, reading DLQs. */

export const DEMO = fileURLToPath(new URL('../../../functions/cluster/scenarios/demo.yaml', import.meta.url))

/** until polls `probe` (against real peers on real time) until it returns a value, or fails naming `what`. */
export async function until<T>(what: string, probe: () => T | undefined | false, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = probe()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await realSleep(50)
  }
}

/** eventsOf narrows a stack's events to one kind. */
export function eventsOf<K extends StackEvent['kind']>(events: readonly StackEvent[], kind: K) {
  return events.filter((e): e is Extract<StackEvent, { kind: K }> => e.kind === kind)
}

/** drainDeadLetters reads (and removes) every message now in each DLQ. */
export async function drainDeadLetters(sqs: EmbeddedSqs): Promise<Record<QueueName, Message[]>> {
  const deps = { client: sqs.client, sleep: realSleep, random: Math.random }
  const out = {} as Record<QueueName, Message[]>
  for (const queue of QUEUE_NAMES) {
    out[queue] = []
    for (;;) {
      const batch = await receiveMessages(deps, sqs.dlqUrls[queue], { waitTimeSeconds: 0, maxMessages: 10 })
      if (batch.length === 0) break
      out[queue].push(...batch)
    }
  }
  return out
}
