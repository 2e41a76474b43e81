/**
 * Simulated kubelet stats served at `/api/v1/nodes/{name}/proxy/stats/summary` in the Summary API shape
 * (k8s.io/kubelet/pkg/apis/stats/v1alpha1). Unset figures derive from the node's capacity. Per pod,
 * the settable figures become what the kubelet reports: each container's `rootfs` (writable layer)
 * and `logs`, the pod's emptyDir `volume` stats, its `ephemeral-storage` (rootfs + logs + local
 * volumes, as the kubelet sums it), memory and process count; the node's `systemContainers` carry
 * `pods` (the pods cgroup: allocatable memory, the pods' working sets), so the disk and memory
 * eviction rankings see real usage.
 */
import * as z from 'zod'
import type { KubeObject } from './store.ts'

const n = () => z.number().nonnegative().optional()
export const PodStatsSchema = z.object({
  cpuUsageNanoCores: n(),
  memoryWorkingSetBytes: n(),
  /** Total ephemeral storage; without rootfsUsedBytes the remainder after logs and volumes is the rootfs. */
  ephemeralStorageUsedBytes: n(),
  /** Containers' writable layers, split evenly over the containers (default 9Mi). */
  rootfsUsedBytes: n(),
  /** Containers' logs, split evenly over the containers (default 1Mi). */
  logsUsedBytes: n(),
  /** emptyDir volumes (default 0), reported on the pod's first emptyDir volume (or `scratch`). */
  volumeUsedBytes: n(),
  rootfsInodesUsed: n(),
  logsInodesUsed: n(),
  volumeInodesUsed: n(),
  processCount: n(),
})
export type PodStats = z.infer<typeof PodStatsSchema>

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
  /**
   * Without fsAvailableBytes: what the node itself uses on nodefs; available is then capacity −
   * this − the disk usage of the pods on the node (logs and emptyDirs, plus container writable
   * layers when the image filesystem is not dedicated), so an evicted pod frees its disk.
   */
  fsBaseUsedBytes: z.number().nonnegative().optional(),
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
  const imageCapacity = stats.imageFsCapacityBytes ?? fsCapacity
  const fsAvailable =
    stats.fsAvailableBytes ??
    (stats.fsBaseUsedBytes === undefined
      ? Math.round(fsCapacity * 0.6)
      : Math.max(0, fsCapacity - stats.fsBaseUsedBytes - podsOnNodefs(pods, stats, imageCapacity !== fsCapacity)))
  const inodes = stats.fsInodes ?? 6_553_600
  const inodesFree = stats.fsInodesFree ?? Math.round(inodes * 0.9)
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
  const rendered = pods.map(renderPod)
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
      systemContainers: [podsContainer(node, rendered, time)],
    },
    pods: rendered.map((r) => r.stats),
  }
  function renderPod(pod: KubeObject) {
    const ps = stats.pods?.[`${pod.metadata.namespace}/${pod.metadata.name}`] ?? {}
    return renderPodStats(pod, ps, { time, fsAvailable, fsCapacity, inodesFree, inodes })
  }
}

/** podDiskUsage: a pod's container writable layers, logs and emptyDir volumes, from its settable stats. */
function podDiskUsage(ps: PodStats): { rootfs: number; logs: number; volume: number } {
  const logs = ps.logsUsedBytes ?? 2 ** 20
  const volume = ps.volumeUsedBytes ?? 0
  const rootfs =
    ps.rootfsUsedBytes ??
    (ps.ephemeralStorageUsedBytes === undefined
      ? 9 * 2 ** 20
      : Math.max(0, ps.ephemeralStorageUsedBytes - logs - volume))
  return { rootfs, logs, volume }
}

/** podsOnNodefs sums what the node's running pods use on nodefs (writable layers live on a dedicated imagefs). */
function podsOnNodefs(pods: KubeObject[], stats: NodeStats, dedicatedImageFs: boolean): number {
  let total = 0
  for (const pod of pods) {
    if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') continue
    const u = podDiskUsage(stats.pods?.[`${pod.metadata.namespace}/${pod.metadata.name}`] ?? {})
    total += u.logs + u.volume + (dedicatedImageFs ? 0 : u.rootfs)
  }
  return total
}

type FsContext = { time: string; fsAvailable: number; fsCapacity: number; inodesFree: number; inodes: number }

/** split divides `total` over `parts` whole shares, the first taking the remainder. */
function split(total: number, parts: number): number[] {
  if (parts <= 0) return []
  const share = Math.floor(total / parts)
  return Array.from({ length: parts }, (_, i) => (i === 0 ? total - share * (parts - 1) : share))
}

/** renderPodStats reports one pod as the kubelet does: per-container rootfs and logs, emptyDir volumes, their sum. */
export function renderPodStats(pod: KubeObject, ps: PodStats, ctx: FsContext) {
  const { time } = ctx
  const ws = ps.memoryWorkingSetBytes ?? 64 * 2 ** 20
  const { rootfs, logs, volume: volumeBytes } = podDiskUsage(ps)
  const containers: { name: string }[] = pod.spec?.containers ?? []
  const count = Math.max(1, containers.length)
  const rootfsShares = split(rootfs, count)
  const logShares = split(logs, count)
  const rootfsInodes = split(ps.rootfsInodesUsed ?? 100 * count, count)
  const logInodes = split(ps.logsInodesUsed ?? 2 * count, count)
  const wsShares = split(ws, count)
  const fs = (used: number, inodesUsed: number) => ({
    time,
    availableBytes: ctx.fsAvailable,
    capacityBytes: ctx.fsCapacity,
    usedBytes: used,
    inodesFree: ctx.inodesFree,
    inodes: ctx.inodes,
    inodesUsed,
  })
  const emptyDirs: string[] = (pod.spec?.volumes ?? [])
    .filter((v: { emptyDir?: unknown }) => v.emptyDir !== undefined)
    .map((v: { name: string }) => v.name)
  const volumeNames = emptyDirs.length > 0 ? emptyDirs : volumeBytes > 0 ? ['scratch'] : []
  const volumeInodes = ps.volumeInodesUsed ?? (volumeBytes > 0 ? 10 : 0)
  const volume = volumeNames.map((name, i) => ({
    name,
    ...fs(i === 0 ? volumeBytes : 0, i === 0 ? volumeInodes : 0),
  }))
  const started = pod.status?.startTime ?? pod.metadata.creationTimestamp
  const total = rootfs + logs + volumeBytes
  return {
    workingSet: ws,
    stats: {
      podRef: { name: pod.metadata.name, namespace: pod.metadata.namespace, uid: pod.metadata.uid },
      startTime: started,
      containers: containers.map((c, i) => ({
        name: c.name,
        startTime: started,
        cpu: { time, usageNanoCores: 0 },
        memory: { time, usageBytes: wsShares[i] ?? 0, workingSetBytes: wsShares[i] ?? 0 },
        rootfs: fs(rootfsShares[i] ?? 0, rootfsInodes[i] ?? 0),
        logs: fs(logShares[i] ?? 0, logInodes[i] ?? 0),
      })),
      cpu: { time, usageNanoCores: ps.cpuUsageNanoCores ?? 10_000_000 },
      memory: { time, usageBytes: ws, workingSetBytes: ws },
      'ephemeral-storage': {
        ...fs(total, rootfsInodes.reduce((a, b) => a + b, 0) + logInodes.reduce((a, b) => a + b, 0) + volumeInodes),
      },
      volume,
      process_stats: { process_count: ps.processCount ?? 5 * count },
    },
  }
}

/** podsContainer is the `pods` system container: the pods cgroup, limited to allocatable memory. */
function podsContainer(node: KubeObject, pods: { workingSet: number }[], time: string) {
  const status = node.status ?? {}
  const allocatable = quantityToNumber(status.allocatable?.memory ?? status.capacity?.memory ?? '8Gi')
  const workingSet = pods.reduce((sum, p) => sum + p.workingSet, 0)
  return {
    name: 'pods',
    startTime: node.metadata.creationTimestamp,
    memory: {
      time,
      availableBytes: Math.max(0, allocatable - workingSet),
      usageBytes: workingSet,
      workingSetBytes: workingSet,
    },
  }
}
