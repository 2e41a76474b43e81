import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Emulator } from '../../../functions/cluster/emulator.ts'
import type { EmbeddedSqs } from '../../../functions/local/embedded-sqs.ts'
import { startWatcher, type Watcher } from '../../../functions/watcher/watcher.ts'
import { QueueReader, readyOf, seedNodes, startPeers } from './harness.ts'

const NODES = 3
let emu: Emulator
let sqs: EmbeddedSqs
let close: () => Promise<void>
let watcher: Watcher
let queue: QueueReader

type Condition = {
  type: string
  status: string
  reason?: string
  lastTransitionTime?: string
  lastHeartbeatTime?: string
}

/** setReady flips a node's Ready condition as the node lifecycle controller / kubelet would. */
function setReady(node: string, status: 'True' | 'False' | 'Unknown', at: string): void {
  const current = emu.store.get('nodes', '', node) as { status: { conditions: Condition[] } }
  const conditions = current.status.conditions.map((c) =>
    c.type === 'Ready' ? { ...c, status, reason: `Test${status}`, lastTransitionTime: at, lastHeartbeatTime: at } : c,
  )
  emu.store.patch('nodes', '', node, { status: { conditions } })
}

/** heartbeat rewrites every condition's lastHeartbeatTime (what the kubelet does every 10 s). */
function heartbeat(node: string, at: string): void {
  const current = emu.store.get('nodes', '', node) as { status: { conditions: Condition[] } }
  emu.store.patch('nodes', '', node, {
    status: { conditions: current.status.conditions.map((c) => ({ ...c, lastHeartbeatTime: at })) },
  })
}

beforeAll(async () => {
  ;({ emu, sqs, close } = await startPeers())
  seedNodes(emu, NODES)
  watcher = await startWatcher({
    kubeConfig: emu.kubeConfig(),
    events: { queueUrl: sqs.queueUrls.events, client: sqs.client },
    leaderElection: false,
    backoff: { baseDelayMs: 50, maxDelayMs: 400 },
    watchIdleTimeoutMs: 5_000,
  })
  await watcher.ready
  queue = new QueueReader(sqs)
  await queue.until((all) => all.length >= NODES)
})

afterAll(async () => {
  await watcher?.stop()
  await close?.()
})

describe('watcher against the emulator with faults', () => {
  it('sends one initial view per node once synced', () => {
    expect(queue.received.map((r) => r.view.cause)).toEqual(['initial', 'initial', 'initial'])
    expect(new Set(queue.received.map((r) => r.group))).toEqual(new Set(['node-0', 'node-1', 'node-2']))
  })

  it('delivers a scripted sequence of transitions in order per node, none missing, none duplicated', async () => {
    const before = queue.received.length
    const script: {
      step: () => void | Promise<void>
      expect: { node: string; check: (v: Received['view']) => boolean }
    }[] = [
      {
        step: () => setReady('node-0', 'False', '2026-11-22T10:01:00Z'),
        expect: { node: 'node-0', check: (v) => readyOf(v) === 'False' },
      },
      {
        step: () => {
          emu.faults.dropWatches()
          emu.store.patch('nodes', '', 'node-1', {
            spec: { taints: [{ key: 'nodewarden.io/test', effect: 'NoSchedule' }] },
          })
        },
        expect: { node: 'node-1', check: (v) => v.node.taints.some((t) => t.key === 'nodewarden.io/test') },
      },
      {
        // API 500s on half the watch and list requests, plus latency, while a node turns Unknown.
        step: () => {
          emu.faults.fail(500, { verb: 'watch', rate: 0.5, times: 6 })
          emu.faults.fail(500, { verb: 'list', rate: 0.5, times: 6 })
          emu.faults.latency(30)
          emu.faults.dropWatches()
          setReady('node-2', 'Unknown', '2026-11-22T10:02:00Z')
        },
        expect: { node: 'node-2', check: (v) => readyOf(v) === 'Unknown' },
      },
      {
        // Forced 410 Gone with a pod deleted while the pod watch is down: the relist diff must emit the deletion.
        step: async () => {
          emu.faults.clear()
          const stopPods = emu.faults.fail(500, { resource: 'pods', verb: 'watch' })
          emu.faults.dropWatches('pods')
          emu.store.delete('pods', 'default', 'node-1-pod-0')
          emu.faults.forceGone('pods', 1)
          stopPods()
        },
        expect: { node: 'node-1', check: (v) => !v.pods.some((p) => p.name === 'node-1-pod-0') },
      },
      {
        step: () => {
          emu.faults.forceGone('*', 1)
          setReady('node-0', 'True', '2026-11-22T10:03:00Z')
        },
        expect: { node: 'node-0', check: (v) => readyOf(v) === 'True' },
      },
    ]
    for (const { step, expect: want } of script) {
      await step()
      await queue.until((all) => all.slice(before).some((r) => r.group === want.node && want.check(r.view)))
    }
    // Heartbeats on every node: absorbed, nothing more is sent.
    for (let i = 0; i < NODES; i++) heartbeat(`node-${i}`, '2026-11-22T10:04:00Z')
    await queue.settle(1_500)
    const after = queue.received.slice(before)
    // One view per transition, in script order; a change that happened across a 410 arrives as a relist diff.
    expect(after.map((r) => r.group)).toEqual(['node-0', 'node-1', 'node-2', 'node-1', 'node-0'])
    expect(after[3]?.view.cause).toBe('relist')
    for (const r of after) expect(['node', 'relist']).toContain(r.view.cause)
    expect(new Set(queue.received.map((r) => r.dedupId)).size).toBe(queue.received.length)
    const counters = await watcher.counters()
    expect(counters.relists).toBeGreaterThanOrEqual(4)
    expect(counters.watchRestarts).toBeGreaterThan(0)
    expect(counters.eventsAbsorbed).toBeGreaterThanOrEqual(NODES)
  })

  it('backs off instead of hot-looping while every watch fails', async () => {
    emu.requests.clear()
    const stop = emu.faults.fail(500, { verb: 'watch' })
    emu.faults.dropWatches()
    await new Promise((r) => setTimeout(r, 2_000))
    stop()
    const watches = emu.requests.filter({ verb: 'watch' }).length
    // Three resources, backoff 50 ms doubling to 400 ms with full jitter: a handful each, not thousands.
    expect(watches).toBeGreaterThan(3)
    expect(watches).toBeLessThan(80)
  })
})

type Received = QueueReader['received'][number]
