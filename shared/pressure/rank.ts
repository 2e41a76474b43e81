import type { PodUsage, SlimPod } from '../messages/index.ts'
import { compareQuantities, type Quantity, subtractQuantities } from '../policy/quantity.ts'
import { podRequest } from './requests.ts'
import type { FilesystemLayout, Signal } from './signals.ts'

/**
 * The kubelet's eviction ranking (pkg/kubelet/eviction/helpers.go `rankMemoryPressure`,
 * `rankPIDPressure`, `rankDiskPressureFunc`, `buildSignalToRankFunc`). The first pod is evicted first.
 * A pod without stats sorts first in every comparator that needs stats, as upstream. Upstream sorts
 * with Go's unstable `sort.Sort`; this sort is stable, so ties keep the input order.
 */

export type FsStatsType = 'root' | 'logs' | 'localVolumeSource' | 'images'
export type DiskResource = 'ephemeral-storage' | 'inodes'
export type RankFunction = 'memory' | 'pid' | 'disk'

export type RankedPod = {
  pod: SlimPod
  hasStats: boolean
  priority: number
  /** Usage the comparator measured: working set, disk bytes/inodes, or process count. */
  usage: number
  /** The request the usage is compared against (bytes; 0 for PIDs). */
  request: Quantity
  exceedsRequests: boolean
  /** usage − request (memory, disk); for PIDs the process count. */
  excess: Quantity
}

type Key = RankedPod
type Cmp = (a: Key, b: Key) => number

const cmpBool = (a: boolean, b: boolean) => (a === b ? 0 : a ? -1 : 1)
const needsStats =
  (f: Cmp): Cmp =>
  (a, b) =>
    !a.hasStats || !b.hasStats ? cmpBool(!a.hasStats, !b.hasStats) : f(a, b)

const exceeds: Cmp = needsStats((a, b) => cmpBool(a.exceedsRequests, b.exceedsRequests))
const priority: Cmp = (a, b) => (a.priority === b.priority ? 0 : a.priority > b.priority ? 1 : -1)
const byExcess: Cmp = needsStats((a, b) => compareQuantities(b.excess, a.excess))

function orderedBy(keys: Key[], cmps: Cmp[]): RankedPod[] {
  return [...keys].sort((a, b) => {
    for (const c of cmps) {
      const r = c(a, b)
      if (r !== 0) return r
    }
    return 0
  })
}

const bytes = (n: number): Quantity => ({ num: BigInt(Math.trunc(n)), den: 1n })
type UsageOf = (uid: string) => PodUsage | undefined

/** usageLookup indexes per-pod usage by pod uid (upstream `cachedStatsFunc`). */
export function usageLookup(pods: PodUsage[]): UsageOf {
  const byUid = new Map(pods.map((p) => [p.uid, p]))
  return (uid) => byUid.get(uid)
}

/** rankMemoryPressure: usage above requests first, then lower priority, then larger working set − request. */
export function rankMemoryPressure(pods: SlimPod[], usageOf: UsageOf): RankedPod[] {
  const keys = pods.map((pod): Key => {
    const u = usageOf(pod.uid)
    const usage = u?.workingSetBytes ?? 0
    const request = podRequest(pod, 'memory')
    return {
      pod,
      hasStats: u !== undefined,
      priority: pod.priority ?? 0,
      usage,
      request,
      exceedsRequests: compareQuantities(bytes(usage), request) > 0,
      excess: subtractQuantities(bytes(usage), request),
    }
  })
  return orderedBy(keys, [exceeds, priority, byExcess])
}

/** rankPIDPressure: lower priority first, then more processes. */
export function rankPIDPressure(pods: SlimPod[], usageOf: UsageOf): RankedPod[] {
  const keys = pods.map((pod): Key => {
    const u = usageOf(pod.uid)
    const usage = u?.processCount ?? 0
    return {
      pod,
      hasStats: u !== undefined,
      priority: pod.priority ?? 0,
      usage,
      request: bytes(0),
      exceedsRequests: false,
      excess: bytes(usage),
    }
  })
  return orderedBy(keys, [priority, byExcess])
}

/**
 * localVolumeUsage is upstream `podLocalVolumeUsage`: for each of the pod's local volume names
 * (`SlimPod.localVolumes`, upstream `localVolumeNames`), the first volume stat of that name. Stats of
 * any other volume — secret, projected, downwardAPI, memory-backed emptyDir — are not disk usage.
 */
export function localVolumeUsage(u: PodUsage, localVolumes: readonly string[] | undefined, inodes: boolean): number {
  if (!localVolumes || !u.volumes) return 0
  let total = 0
  for (const name of localVolumes) {
    const v = u.volumes.find((s) => s.name === name)
    if (v) total += (inodes ? v.inodes : v.bytes) ?? 0
  }
  return total
}

/** podDiskUsage is upstream's: container rootfs and/or logs plus the pod's local volumes, per the measured fs stats. */
export function podDiskUsage(
  u: PodUsage,
  fsStats: readonly FsStatsType[],
  resource: DiskResource,
  localVolumes?: readonly string[],
): number {
  const inodes = resource === 'inodes'
  let total = 0
  if (fsStats.includes('root')) total += (inodes ? u.rootfsInodes : u.rootfsBytes) ?? 0
  if (fsStats.includes('logs')) total += (inodes ? u.logsInodes : u.logsBytes) ?? 0
  if (fsStats.includes('localVolumeSource')) total += localVolumeUsage(u, localVolumes, inodes)
  return total
}

/**
 * rankDiskPressure: usage above requests first, then lower priority, then usage − ephemeral-storage
 * request. Upstream quirks kept: "above requests" compares against the request of `resource` itself
 * (so for inodes any usage exceeds), while the last comparator subtracts the ephemeral-storage request.
 */
export function rankDiskPressure(
  pods: SlimPod[],
  usageOf: UsageOf,
  fsStats: readonly FsStatsType[],
  resource: DiskResource,
): RankedPod[] {
  const keys = pods.map((pod): Key => {
    const u = usageOf(pod.uid)
    const usage = u ? podDiskUsage(u, fsStats, resource, pod.localVolumes) : 0
    const request = podRequest(pod, 'ephemeral-storage')
    return {
      pod,
      hasStats: u !== undefined,
      priority: pod.priority ?? 0,
      usage,
      request,
      exceedsRequests: compareQuantities(bytes(usage), podRequest(pod, resource)) > 0,
      excess: subtractQuantities(bytes(usage), request),
    }
  })
  return orderedBy(keys, [exceeds, priority, byExcess])
}

/** diskFsStats is upstream `buildSignalToRankFunc`: which pod usage counts for a disk signal on this layout. */
export function diskFsStats(signal: Signal, layout: FilesystemLayout): readonly FsStatsType[] {
  const all: FsStatsType[] = ['images', 'root', 'logs', 'localVolumeSource']
  if (layout === 'shared') return all
  const nodefs = signal.startsWith('nodefs.')
  const containerfs = signal.startsWith('containerfs.')
  if (layout === 'dedicatedImageFs') return nodefs ? ['logs', 'localVolumeSource'] : ['root', 'images']
  return nodefs || containerfs ? ['logs', 'localVolumeSource', 'root'] : ['images']
}

/** rankFunctionOf names the ranking the kubelet uses for a signal. */
export function rankFunctionOf(signal: Signal): RankFunction {
  if (signal === 'memory.available' || signal === 'allocatableMemory.available') return 'memory'
  return signal === 'pid.available' ? 'pid' : 'disk'
}

/** rankForSignal ranks pods exactly as the kubelet would for pressure on `signal`. */
export function rankForSignal(signal: Signal, layout: FilesystemLayout, pods: SlimPod[], usageOf: UsageOf) {
  const fn = rankFunctionOf(signal)
  if (fn === 'memory') return rankMemoryPressure(pods, usageOf)
  if (fn === 'pid') return rankPIDPressure(pods, usageOf)
  const resource: DiskResource = signal.endsWith('inodesFree') ? 'inodes' : 'ephemeral-storage'
  return rankDiskPressure(pods, usageOf, diskFsStats(signal, layout), resource)
}

/** RANK_ORDER_TEXT explains each ranking in words, for reasons and reports. */
export const RANK_ORDER_TEXT: Record<RankFunction, string> = {
  memory: 'working set above requests first, then lower priority, then larger working set − request',
  pid: 'lower priority first, then more processes',
  disk: 'disk usage above requests first, then lower priority, then larger usage − ephemeral-storage request',
}
