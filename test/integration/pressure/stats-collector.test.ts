import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Emulator, startEmulator } from '../../../functions/cluster/emulator.ts'
import { createKubeApi } from '../../../functions/watcher/kube-api.ts'
import { startStatsCollector, summaryFetcher } from '../../../functions/watcher/stats/collector.ts'
import { silentLog } from '../../../shared/log.ts'
import type { NodeStats } from '../../../shared/messages/index.ts'
import { ReliefConfigSchema } from '../../../shared/pressure/config.ts'

/** The stats collector against the Kubernetes API emulator's node proxy over real HTTP. */

const GiB = 2 ** 30
const NODES = 12
let emu: Emulator

function node(name: string) {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name },
    status: {
      capacity: { cpu: '4', memory: '16Gi', 'ephemeral-storage': '100Gi', pods: '110' },
      allocatable: { cpu: '4', memory: '15Gi', 'ephemeral-storage': '90Gi', pods: '110' },
      conditions: [{ type: 'Ready', status: 'True' }],
    },
  }
}

beforeAll(async () => {
  emu = await startEmulator({ tickMs: 1000 })
  for (let i = 0; i < NODES; i++) emu.store.create(node(`node-${i}`))
  emu.store.create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web-1', namespace: 'default' },
    spec: { nodeName: 'node-0', containers: [{ name: 'app', image: 'x' }] },
  })
  emu.store.setNodeStats('node-0', { fsAvailableBytes: 9 * GiB, fsCapacityBytes: 100 * GiB })
  emu.state.silentNodes.add('node-11')
})
afterAll(async () => {
  await emu?.close()
})

describe('stats collector over the API server node proxy', () => {
  it('fetches every node, bounded in flight, and classifies pressure, calm and unreachable nodes', async () => {
    const config = ReliefConfigSchema.parse({ collect: { concurrency: 3 } })
    const api = createKubeApi(emu.kubeConfig())
    const fetchSummary = summaryFetcher(api)
    let inFlight = 0
    let maxInFlight = 0
    const got = new Map<string, { stats: NodeStats; worth: boolean }>()
    const collector = startStatsCollector(
      {
        listNodes: () => Array.from({ length: NODES }, (_, i) => ({ name: `node-${i}`, conditions: [] })),
        fetchSummary: async (name) => {
          inFlight++
          maxInFlight = Math.max(maxInFlight, inFlight)
          try {
            return await fetchSummary(name)
          } finally {
            inFlight--
          }
        },
        onStats: (name, stats, worth) => got.set(name, { stats, worth }),
        now: () => new Date(),
        log: silentLog,
      },
      config,
      60_000,
    )
    try {
      await collector.tick()
      expect(got.size).toBe(NODES)
      expect(maxInFlight).toBeLessThanOrEqual(3)
      expect(maxInFlight).toBeGreaterThan(1)
      const pressed = got.get('node-0')
      expect(pressed?.stats.signals['nodefs.available']).toMatchObject({ available: 9 * GiB, capacity: 100 * GiB })
      expect(pressed?.stats.pods).toHaveLength(1)
      expect(collector.temperature('node-0')).toBe('pressure')
      expect(pressed?.worth).toBe(true)
      expect(collector.temperature('node-1')).toBe('calm')
      expect(collector.temperature('node-11')).toBe('unknown')
      // the emulator reports the pods cgroup (systemContainers[name=pods]): allocatable 15Gi, no pods on node-1
      expect(got.get('node-1')?.stats.signals['allocatableMemory.available']).toMatchObject({ available: 15 * GiB })
      expect(pressed?.stats.pods[0]).toMatchObject({ rootfsBytes: 9 * 2 ** 20, logsBytes: 2 ** 20 })
      const silent = got.get('node-11')?.stats
      expect(silent?.signals).toEqual({})
      expect(silent?.unknown['memory.available']).toContain('summary fetch failed')
      // a second tick right away fetches nothing: every node was just fetched
      got.clear()
      await collector.tick()
      expect(got.size).toBe(0)
    } finally {
      await collector.stop()
    }
  })
})
