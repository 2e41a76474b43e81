/**
 * Pressure relief cost: the kubelet's memory and disk ranking of 250 pods on one node, and signal +
 * threshold evaluation for 5,000 nodes, each beside a plain sort of the same pods by one key.
 */
import type { NodeStats, PodUsage, SlimPod } from '../shared/messages/index.ts'
import { SlimPodSchema } from '../shared/messages/index.ts'
import { ReliefConfigSchema } from '../shared/pressure/config.ts'
import { diskFsStats, rankDiskPressure, rankMemoryPressure, usageLookup } from '../shared/pressure/rank.ts'
import { observationsOf } from '../shared/pressure/signals.ts'
import { thresholdsMet } from '../shared/pressure/thresholds.ts'

export const name = 'pressure'

const PODS = 250
const NODES = 5000
const Mi = 2 ** 20

function pods(): { pods: SlimPod[]; usage: PodUsage[] } {
  let seed = 42
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31
    return seed / 2 ** 31
  }
  const list: SlimPod[] = []
  const usage: PodUsage[] = []
  for (let i = 0; i < PODS; i++) {
    const uid = `uid-${i}`
    list.push(
      SlimPodSchema.parse({
        namespace: 'default',
        name: `p-${i}`,
        uid,
        priority: Math.floor(rnd() * 4) * 100,
        containers: [
          { name: 'app', requests: { memory: `${64 + Math.floor(rnd() * 512)}Mi`, 'ephemeral-storage': '1Gi' } },
          { name: 'sidecar', requests: { memory: '32Mi' } },
        ],
        localVolumes: ['scratch'],
      }),
    )
    usage.push({
      uid,
      workingSetBytes: Math.floor(rnd() * 1024) * Mi,
      rootfsBytes: Math.floor(rnd() * 4096) * Mi,
      logsBytes: Math.floor(rnd() * 256) * Mi,
      // The service-account token volume (projected, tmpfs) is reported but never counted.
      volumes: [
        { name: 'kube-api-access', bytes: 12_288, inodes: 9 },
        { name: 'scratch', bytes: Math.floor(rnd() * 512) * Mi },
      ],
    })
  }
  return { pods: list, usage }
}

function time(iterations: number, f: () => unknown): number {
  for (let i = 0; i < Math.min(50, iterations); i++) f()
  const start = performance.now()
  for (let i = 0; i < iterations; i++) f()
  return (performance.now() - start) / iterations
}

/** run measures the figures and their baselines in this process. */
export async function run(): Promise<Record<string, unknown>> {
  const { pods: list, usage } = pods()
  const lookup = usageLookup(usage)
  const byUid = new Map(usage.map((u) => [u.uid, u.workingSetBytes ?? 0]))
  const fs = diskFsStats('nodefs.available', 'shared')
  const iterations = 400
  const memoryMs = time(iterations, () => rankMemoryPressure(list, lookup))
  const diskMs = time(iterations, () => rankDiskPressure(list, lookup, fs, 'ephemeral-storage'))
  const plainMs = time(iterations, () => [...list].sort((a, b) => (byUid.get(b.uid) ?? 0) - (byUid.get(a.uid) ?? 0)))

  const config = ReliefConfigSchema.parse({})
  const thresholds = [...config.kubeletThresholds, ...config.reliefThresholds]
  const nodes: NodeStats[] = Array.from({ length: NODES }, (_, i) => ({
    observedAt: '2026-11-22T10:00:00Z',
    layout: 'shared',
    signals: {
      'memory.available': { available: (i % 16) * 1024 * Mi, capacity: 16 * 1024 * Mi },
      'allocatableMemory.available': { available: (i % 15) * 1024 * Mi, capacity: 15 * 1024 * Mi },
      'nodefs.available': { available: (i % 100) * 1024 * Mi, capacity: 100 * 1024 * Mi },
      'nodefs.inodesFree': { available: 6_000_000 - i, capacity: 6_553_600 },
      'imagefs.available': { available: (i % 100) * 1024 * Mi, capacity: 100 * 1024 * Mi },
      'imagefs.inodesFree': { available: 6_000_000 - i, capacity: 6_553_600 },
      'pid.available': { available: 4_000_000, capacity: 4_194_304 },
    },
    unknown: {},
    pods: [],
    firstObservedAt: {},
  }))
  let met = 0
  const fleetMs = time(20, () => {
    met = 0
    for (const n of nodes) met += thresholdsMet(thresholds, observationsOf(n), false).length
  })
  return {
    pods: PODS,
    nodes: NODES,
    rankMemory250PodsMs: Number(memoryMs.toFixed(4)),
    rankDisk250PodsMs: Number(diskMs.toFixed(4)),
    plainSort250PodsMs: Number(plainMs.toFixed(4)),
    memoryRankToPlainSortRatio: Number((memoryMs / plainMs).toFixed(1)),
    diskRankToPlainSortRatio: Number((diskMs / plainMs).toFixed(1)),
    signals5000NodesMs: Number(fleetMs.toFixed(2)),
    thresholdsPerNode: thresholds.length,
    thresholdsMetAcrossFleet: met,
    signals5000NodesToPlainSortRatio: Number((fleetMs / plainMs).toFixed(1)),
  }
}
