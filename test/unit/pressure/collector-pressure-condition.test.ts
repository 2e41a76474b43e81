import { describe, expect, it } from 'vitest'
import { startStatsCollector } from '../../../functions/watcher/stats/collector.ts'
import { silentLog } from '../../../shared/log.ts'
import { DEFAULT_RELIEF_CONFIG } from '../../../shared/pressure/index.ts'

const GiB = 2 ** 30
const summary = (node: string) => ({
  node: {
    nodeName: node,
    memory: { availableBytes: 8 * GiB, workingSetBytes: 8 * GiB },
    fs: { availableBytes: 60 * GiB, capacityBytes: 100 * GiB, inodesFree: 900, inodes: 1000 },
    runtime: { imageFs: { availableBytes: 60 * GiB, capacityBytes: 100 * GiB, inodesFree: 900, inodes: 1000 } },
    rlimit: { maxpid: 1000, curproc: 100 },
  },
  pods: [],
})

type Condition = { type: string; status: 'True' | 'False' | 'Unknown' }

describe('the stats collector and the pressure conditions the kubelet reports', () => {
  it.each<{ name: string; conditions: Condition[]; fetchedAgain: boolean }>([
    { name: 'a calm node waits for the slow interval', conditions: [], fetchedAgain: false },
    {
      name: 'a node that now reports DiskPressure is fetched again at the short interval',
      conditions: [{ type: 'DiskPressure', status: 'True' }],
      fetchedAgain: true,
    },
    {
      name: 'a False pressure condition does not count',
      conditions: [{ type: 'MemoryPressure', status: 'False' }],
      fetchedAgain: false,
    },
  ])('$name', async ({ conditions, fetchedAgain }) => {
    let now = new Date('2026-11-22T10:00:00Z')
    let current: Condition[] = []
    const fetched: string[] = []
    const collector = startStatsCollector(
      {
        listNodes: () => [{ name: 'node-a', conditions: current }],
        fetchSummary: async (node) => {
          fetched.push(node)
          return summary(node)
        },
        onStats: () => {},
        now: () => now,
        log: silentLog,
      },
      DEFAULT_RELIEF_CONFIG,
      3_600_000,
    )
    try {
      await collector.tick()
      expect(collector.temperature('node-a')).toBe('calm')
      current = conditions
      now = new Date(now.getTime() + DEFAULT_RELIEF_CONFIG.collect.shortInterval)
      await collector.tick()
      expect(fetched.length).toBe(fetchedAgain ? 2 : 1)
    } finally {
      await collector.stop()
    }
  })
})
