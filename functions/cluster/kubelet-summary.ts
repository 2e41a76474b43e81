/**
 * Simulated kubelet stats served at `/api/v1/nodes/{name}/proxy/stats/summary` in the Summary API shape
 * (k8s.io/kubelet/pkg/apis/stats/v1alpha1). Unset figures derive from the node's capacity.
 */
import * as z from 'zod'
import type { KubeObject } from './store.ts'

export const PodStatsSchema = z.object({
  cpuUsageNanoCores: z.number().nonnegative().optional(),
  memoryWorkingSetBytes: z.number().nonnegative().optional(),
  ephemeralStorageUsedBytes: z.number().nonnegative().optional(),
})

export const NodeStatsSchema = z.object({
  cpuUsageNanoCores: z.number().nonnegative().optional(),
  memoryAvailableBytes: z.number().nonnegative().optional(),
  memoryWorkingSetBytes: z.number().nonnegative().optional(),
  fsAvailableBytes: z.number().nonnegative().optional(),
  fsCapacityBytes: z.number().nonnegative().optional(),
  fsInodesFree: z.number().nonnegative().optional(),
  fsInodes: z.number().nonnegative().optional(),
  imageFsAvailableBytes: z.number().nonnegative().optional(),
  imageFsCapacityBytes: z.number().nonnegative().optional(),
  pidsMax: z.number().nonnegative().optional(),
  pidsRunning: z.number().nonnegative().optional(),
  /** per pod, keyed `namespace/name`. */
  pods: z.record(z.string(), PodStatsSchema).optional(),
})
export type NodeStats = z.infer<typeof NodeStatsSchema>

const UNITS: Record<string, number> = {
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
}

/** quantityToNumber parses a Kubernetes quantity (`16Gi`, `500m`, `1e3`) to a number. */
export function quantityToNumber(q: string | number | undefined): number {
  if (q === undefined) return 0
  if (typeof q === 'number') return q
  const m = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?$/.exec(q.trim())
  if (!m) return 0
  return Number(m[1]) * (m[2] ? (UNITS[m[2]] as number) : 1)
}

/** renderSummary builds the kubelet Summary JSON for a node, its pods and their stats at `now`. */
export function renderSummary(node: KubeObject, pods: KubeObject[], stats: NodeStats, now: Date) {
  const time = now.toISOString().replace(/\.\d{3}Z$/, 'Z')
  const cap = node.status?.capacity ?? {}
  const memCapacity = quantityToNumber(cap.memory ?? '8Gi')
  const fsCapacity = stats.fsCapacityBytes ?? quantityToNumber(cap['ephemeral-storage'] ?? '100Gi')
  const workingSet = stats.memoryWorkingSetBytes ?? Math.round(memCapacity * 0.4)
  const available = stats.memoryAvailableBytes ?? Math.max(0, memCapacity - workingSet)
  const fsAvailable = stats.fsAvailableBytes ?? Math.round(fsCapacity * 0.6)
  const inodes = stats.fsInodes ?? 6_553_600
  const inodesFree = stats.fsInodesFree ?? Math.round(inodes * 0.9)
  const imageCapacity = stats.imageFsCapacityBytes ?? fsCapacity
  const imageAvailable = stats.imageFsAvailableBytes ?? fsAvailable
  const fs = (cap: number, avail: number) => ({
    time,
    availableBytes: avail,
    capacityBytes: cap,
    usedBytes: Math.max(0, cap - avail),
    inodesFree,
    inodes,
    inodesUsed: Math.max(0, inodes - inodesFree),
  })
  return {
    node: {
      nodeName: node.metadata.name,
      startTime: node.metadata.creationTimestamp,
      cpu: { time, usageNanoCores: stats.cpuUsageNanoCores ?? 250_000_000, usageCoreNanoSeconds: 0 },
      memory: {
        time,
        availableBytes: available,
        usageBytes: workingSet,
        workingSetBytes: workingSet,
        rssBytes: Math.round(workingSet * 0.8),
        pageFaults: 0,
        majorPageFaults: 0,
      },
      fs: fs(fsCapacity, fsAvailable),
      runtime: { imageFs: fs(imageCapacity, imageAvailable) },
      rlimit: { time, maxpid: stats.pidsMax ?? 4_194_304, curproc: stats.pidsRunning ?? 300 },
      systemContainers: [],
    },
    pods: pods.map((pod) => {
      const ps = stats.pods?.[`${pod.metadata.namespace}/${pod.metadata.name}`] ?? {}
      const ws = ps.memoryWorkingSetBytes ?? 64 * 2 ** 20
      const used = ps.ephemeralStorageUsedBytes ?? 10 * 2 ** 20
      return {
        podRef: { name: pod.metadata.name, namespace: pod.metadata.namespace, uid: pod.metadata.uid },
        startTime: pod.status?.startTime ?? pod.metadata.creationTimestamp,
        containers: (pod.spec?.containers ?? []).map((c: { name: string }) => ({
          name: c.name,
          startTime: pod.status?.startTime ?? pod.metadata.creationTimestamp,
          cpu: { time, usageNanoCores: 0 },
          memory: { time, workingSetBytes: 0 },
        })),
        cpu: { time, usageNanoCores: ps.cpuUsageNanoCores ?? 10_000_000 },
        memory: { time, usageBytes: ws, workingSetBytes: ws },
        'ephemeral-storage': { time, usedBytes: used, availableBytes: fsAvailable, capacityBytes: fsCapacity },
        volume: [],
      }
    }),
  }
}
