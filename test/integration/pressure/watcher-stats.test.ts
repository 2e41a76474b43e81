import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Emulator } from '../../../functions/cluster/emulator.ts'
import type { EmbeddedSqs } from '../../../functions/local/embedded-sqs.ts'
import { startWatcher, type Watcher } from '../../../functions/watcher/watcher.ts'
import { ReliefConfigSchema } from '../../../shared/pressure/config.ts'
import { rawPod } from '../../unit/watcher/raw-objects.ts'
import { QueueReader, seedNodes, startPeers } from '../watcher/harness.ts'

/** The watcher's stats collector wired in: kubelet stats ride on the NodeViews it sends. */

const GiB = 2 ** 30
let emu: Emulator
let sqs: EmbeddedSqs
let close: () => Promise<void>
let watcher: Watcher
let queue: QueueReader
let started = 0

beforeAll(async () => {
  ;({ emu, sqs, close } = await startPeers())
  seedNodes(emu, 3)
  // One pod writing to an emptyDir (disk), one filling a memory-backed emptyDir (tmpfs, not disk).
  for (const [name, volume] of [
    ['node-0-disk', { name: 'scratch', emptyDir: {} }],
    ['node-0-ram', { name: 'ram', emptyDir: { medium: 'Memory' } }],
  ] as const) {
    const pod = rawPod(name, { node: 'node-0' }) as { metadata: Record<string, unknown>; spec: Record<string, unknown> }
    const { resourceVersion: _rv, managedFields: _mf, uid: _uid, ...metadata } = pod.metadata
    emu.store.create({ ...pod, metadata, spec: { ...pod.spec, volumes: [volume] } } as never)
  }
  emu.store.setNodeStats('node-0', {
    fsAvailableBytes: 9 * GiB,
    fsCapacityBytes: 100 * GiB,
    pods: {
      'default/node-0-pod-1': { rootfsUsedBytes: 30 * GiB },
      'default/node-0-disk': { volumeUsedBytes: 2 * GiB },
      'default/node-0-ram': { volumeUsedBytes: 4 * GiB },
    },
  })
  started = Date.now()
  watcher = await startWatcher({
    kubeConfig: emu.kubeConfig(),
    events: { queueUrl: sqs.queueUrls.events, client: sqs.client },
    leaderElection: false,
    stats: { pressure: ReliefConfigSchema.parse({ collect: { shortInterval: '1s', slowInterval: '2s' } }), tickMs: 50 },
  })
  await watcher.ready
  queue = new QueueReader(sqs)
})
afterAll(async () => {
  await watcher?.stop()
  await close?.()
})

describe('watcher with kubelet stats collection (on by default)', () => {
  it('sends a node under disk pressure again with its stats attached', async () => {
    await queue.until((all) => all.some((r) => r.group === 'node-0' && r.view.stats !== undefined))
    const view = queue.of('node-0').find((v) => v.stats)
    expect(view?.stats?.signals['nodefs.available']).toMatchObject({ available: 9 * GiB, capacity: 100 * GiB })
    expect(view?.stats?.pods.map((p) => p.uid).sort()).toEqual(view?.pods.map((p) => p.uid).sort())
    const heavy = view?.pods.find((p) => p.name === 'node-0-pod-1')
    expect(view?.stats?.pods.find((p) => p.uid === heavy?.uid)?.rootfsBytes).toBe(30 * GiB)
  })

  it('carries the usage of the volumes a pod declares local, and drops its tmpfs volumes', async () => {
    await queue.until((all) =>
      all.some((r) => r.group === 'node-0' && r.view.pods.length === 4 && r.view.stats?.pods.length === 4),
    )
    const view = queue.of('node-0').findLast((v) => v.stats?.pods.length === 4)
    const usage = (name: string) => {
      const pod = view?.pods.find((p) => p.name === name)
      return { localVolumes: pod?.localVolumes, stats: view?.stats?.pods.find((p) => p.uid === pod?.uid) }
    }
    expect(usage('node-0-disk').localVolumes).toEqual(['scratch'])
    expect(usage('node-0-disk').stats?.volumes).toEqual([{ name: 'scratch', bytes: 2 * GiB, inodes: 10 }])
    expect(usage('node-0-ram').localVolumes).toBeUndefined()
    expect(usage('node-0-ram').stats).toBeDefined()
    expect(usage('node-0-ram').stats?.volumes).toBeUndefined()
  })

  it('sends a node again when its disk runs low, and stays quiet for calm nodes', async () => {
    await queue.settle(500)
    const calmBefore = queue.of('node-2').length
    emu.store.setNodeStats('node-1', { fsAvailableBytes: 20 * GiB, fsCapacityBytes: 100 * GiB })
    await queue.until((all) =>
      all.some((r) => r.group === 'node-1' && r.view.stats?.signals['nodefs.available']?.available === 20 * GiB),
    )
    await queue.settle(500)
    expect(queue.of('node-2')).toHaveLength(calmBefore)
    expect(queue.of('node-2').every((v) => v.stats === undefined)).toBe(true)
  })

  it('fetches through the node proxy, hot nodes every short interval and calm ones every slow one', async () => {
    const elapsed = Date.now() - started
    const fetches = (node: string) =>
      emu.requests.all().filter((r) => r.path.endsWith(`/nodes/${node}/proxy/stats/summary`)).length
    expect(fetches('node-0')).toBeGreaterThanOrEqual(2)
    expect(fetches('node-0')).toBeLessThanOrEqual(Math.ceil(elapsed / 1_000) + 1)
    expect(fetches('node-2')).toBeGreaterThanOrEqual(1)
    expect(fetches('node-2')).toBeLessThanOrEqual(Math.ceil(elapsed / 2_000) + 1)
    expect((await watcher.counters()).sendFailures).toBe(0)
  })
})
