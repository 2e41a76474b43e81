import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Emulator } from '../../../functions/cluster/emulator.ts'
import type { EmbeddedSqs } from '../../../functions/local/embedded-sqs.ts'
import { startWatcher, type Watcher } from '../../../functions/watcher/watcher.ts'
import type { OutgoingMessage } from '../../../shared/sqs/batches.ts'
import { SendMessagesError, sendMessages } from '../../../shared/sqs/transport.ts'
import { QueueReader, seedNodes, startPeers } from './harness.ts'

const NODES = 3
const STEPS = 20

let emu: Emulator
let sqs: EmbeddedSqs
let close: () => Promise<void>
let watcher: Watcher | undefined

beforeAll(async () => {
  ;({ emu, sqs, close } = await startPeers())
  seedNodes(emu, NODES)
})

afterAll(async () => {
  await watcher?.stop()
  await close?.()
})

const stepTaint = (i: number) => ({ key: 'nodewarden.io/step', value: `step-${i}`, effect: 'NoSchedule' })

describe('forwarder under send failures', () => {
  it('delivers every node once the queue recovers, node-0 with its latest state only, counting the refusals', async () => {
    // The transport in front of the real (embedded) queue: every send waits for `open`; the first then
    // throws a plain Error (nothing sent), the second sends all but node-0's entry and reports that
    // one as failed (SendMessagesError, what shared/sqs throws after its own retries), the rest pass.
    let open: () => void = () => {}
    const gate = new Promise<void>((resolve) => {
      open = resolve
    })
    const deps = { client: sqs.client, sleep: async () => {}, random: Math.random }
    const forwarded: string[] = [] // group ids the transport really handed to SQS
    let calls = 0
    let refused = 0
    const send = async (messages: OutgoingMessage[]) => {
      await gate
      calls++
      if (calls === 1) {
        refused += messages.length
        throw new Error('connect ECONNREFUSED (injected)')
      }
      if (calls === 2) {
        const keep = messages.map((m, index) => ({ m, index })).filter(({ m }) => m.groupId !== 'node-0')
        await sendMessages(
          deps,
          sqs.queueUrls.events,
          keep.map(({ m }) => m),
        )
        forwarded.push(...keep.map(({ m }) => m.groupId ?? ''))
        const failed = messages
          .map((m, index) => ({ m, index }))
          .filter(({ m }) => m.groupId === 'node-0')
          .map(({ index }) => ({ index, code: 'InternalError', message: 'injected', senderFault: false }))
        refused += failed.length
        if (failed.length > 0) throw new SendMessagesError(sqs.queueUrls.events, failed)
        return
      }
      await sendMessages(deps, sqs.queueUrls.events, messages)
      forwarded.push(...messages.map((m) => m.groupId ?? ''))
    }

    watcher = await startWatcher({
      kubeConfig: emu.kubeConfig(),
      events: { send },
      leaderElection: false,
      stats: false,
      backoff: { baseDelayMs: 20, maxDelayMs: 100 },
    })
    await watcher.ready
    const before = (await watcher.counters()).eventsReceived

    // While the initial batch is stuck in the transport, node-0 changes STEPS times.
    for (let i = 0; i < STEPS; i++) emu.store.patch('nodes', '', 'node-0', { spec: { taints: [stepTaint(i)] } })
    await poll('the watcher to see every step', async () => (await watcher?.counters())?.eventsReceived ?? 0, {
      atLeast: before + STEPS,
    })
    open()

    const queue = new QueueReader(sqs)
    await queue.until((all) => new Set(all.map((r) => r.group)).size === NODES, 10_000)
    await queue.settle(500)

    // Every node arrived; node-0 once, with the last step (not once per step, not a stale state).
    expect(new Set(queue.received.map((r) => r.group))).toEqual(new Set(['node-0', 'node-1', 'node-2']))
    const node0 = queue.of('node-0')
    expect(node0).toHaveLength(1)
    expect(node0[0]?.node.taints).toEqual([stepTaint(STEPS - 1)])
    // Entries the partial failure delivered were not resent; only node-0's refused entry was.
    expect(forwarded.filter((g) => g === 'node-1')).toHaveLength(1)
    expect(forwarded.filter((g) => g === 'node-0')).toHaveLength(1)

    const counters = await watcher.counters()
    expect(calls).toBeGreaterThanOrEqual(3)
    expect(refused).toBeGreaterThanOrEqual(NODES + 1)
    expect(counters.sendFailures).toBe(refused)
    expect(counters.viewsSent).toBe(NODES)
    expect(counters.pendingViews).toBe(0)
    expect(await watcher.metrics.registry.getSingleMetricAsString('nodewarden_watcher_send_failures_total')).toContain(
      `nodewarden_watcher_send_failures_total ${refused}`,
    )

    const stopping = watcher.stop()
    watcher = undefined
    await expect(withTimeout(stopping, 5_000)).resolves.toBeUndefined()
  })
})

async function poll(what: string, read: () => Promise<number>, want: { atLeast: number }, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs
  for (let value = await read(); value < want.atLeast; value = await read()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${value} < ${want.atLeast}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    p,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`not settled within ${ms} ms`)), ms).unref()),
  ])
}
