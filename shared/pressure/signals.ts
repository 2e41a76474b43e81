import type { NodeStats, PodUsage, PodVolumeUsage, SignalObservation } from '../messages/index.ts'
import type { FsStats, PodStats, Summary } from './summary.ts'

/**
 * Eviction signals as the kubelet observes them (pkg/kubelet/eviction/helpers.go
 * `makeSignalObservations`, api/types.go). Only `LessThan` exists: a threshold is met when the
 * available amount drops below it.
 */

export const SIGNALS = [
  'memory.available',
  'allocatableMemory.available',
  'nodefs.available',
  'nodefs.inodesFree',
  'imagefs.available',
  'imagefs.inodesFree',
  'containerfs.available',
  'containerfs.inodesFree',
  'pid.available',
] as const
export type Signal = (typeof SIGNALS)[number]

/** The seven signals every Linux kubelet evaluates (containerfs.* only with KubeletSeparateDiskGC). */
export const CORE_SIGNALS: readonly Signal[] = SIGNALS.filter((s) => !s.startsWith('containerfs.'))

export type Resource = 'memory' | 'ephemeral-storage' | 'inodes' | 'pids'
export type PressureCondition = 'MemoryPressure' | 'DiskPressure' | 'PIDPressure'

/** SIGNAL_RESOURCE is upstream `signalToResource`. */
export const SIGNAL_RESOURCE: Record<Signal, Resource> = {
  'memory.available': 'memory',
  'allocatableMemory.available': 'memory',
  'nodefs.available': 'ephemeral-storage',
  'nodefs.inodesFree': 'inodes',
  'imagefs.available': 'ephemeral-storage',
  'imagefs.inodesFree': 'inodes',
  'containerfs.available': 'ephemeral-storage',
  'containerfs.inodesFree': 'inodes',
  'pid.available': 'pids',
}

/** SIGNAL_CONDITION is upstream `signalToNodeCondition`: the node condition a met threshold drives. */
export const SIGNAL_CONDITION: Record<Signal, PressureCondition> = {
  'memory.available': 'MemoryPressure',
  'allocatableMemory.available': 'MemoryPressure',
  'nodefs.available': 'DiskPressure',
  'nodefs.inodesFree': 'DiskPressure',
  'imagefs.available': 'DiskPressure',
  'imagefs.inodesFree': 'DiskPressure',
  'containerfs.available': 'DiskPressure',
  'containerfs.inodesFree': 'DiskPressure',
  'pid.available': 'PIDPressure',
}

/** isSignal reports whether the text names a supported eviction signal (upstream `validSignal`). */
export function isSignal(text: string): text is Signal {
  return Object.hasOwn(SIGNAL_RESOURCE, text)
}

export type Observations = Partial<Record<Signal, SignalObservation>>
export type SignalObservationResult = { observations: Observations; unknown: Partial<Record<Signal, string>> }

type Pair = { available: number | undefined; capacity: number | undefined; time: string | undefined }

function observe(
  out: SignalObservationResult,
  signal: Signal,
  where: string,
  pair: Pair | undefined,
  names: [string, string],
): void {
  if (!pair) {
    out.unknown[signal] = `${where} not reported`
    return
  }
  const missing = names.filter((_, i) => (i === 0 ? pair.available : pair.capacity) === undefined)
  if (missing.length > 0) {
    out.unknown[signal] = `${where}.${missing.join(' and ')} not reported`
    return
  }
  out.observations[signal] = {
    available: pair.available as number,
    capacity: pair.capacity as number,
    ...(pair.time === undefined ? {} : { time: pair.time }),
  }
}

const fsBytes = (fs: FsStats | undefined): Pair | undefined =>
  fs && { available: fs.availableBytes, capacity: fs.capacityBytes, time: fs.time }
const fsInodes = (fs: FsStats | undefined): Pair | undefined =>
  fs && { available: fs.inodesFree, capacity: fs.inodes, time: fs.time }

/**
 * makeSignalObservations derives the signals from a Summary document as the kubelet does
 * (Linux, no swap): memory capacity = available + workingSet; pid.available = maxpid − curproc.
 * A signal whose figures are missing is listed in `unknown` with the missing field.
 */
export function makeSignalObservations(summary: Summary): SignalObservationResult {
  const out: SignalObservationResult = { observations: {}, unknown: {} }
  const { node } = summary
  const mem = node.memory
  const memPair = (m: typeof mem): Pair | undefined =>
    m && {
      available: m.availableBytes,
      capacity:
        m.availableBytes === undefined || m.workingSetBytes === undefined
          ? undefined
          : m.availableBytes + m.workingSetBytes,
      time: m.time,
    }
  observe(out, 'memory.available', 'node.memory', memPair(mem), ['availableBytes', 'workingSetBytes'])
  const pods = node.systemContainers?.find((c) => c.name === 'pods')
  observe(out, 'allocatableMemory.available', 'node.systemContainers["pods"].memory', memPair(pods?.memory), [
    'availableBytes',
    'workingSetBytes',
  ])
  observe(out, 'nodefs.available', 'node.fs', fsBytes(node.fs), ['availableBytes', 'capacityBytes'])
  observe(out, 'nodefs.inodesFree', 'node.fs', fsInodes(node.fs), ['inodesFree', 'inodes'])
  const imageFs = node.runtime?.imageFs
  observe(out, 'imagefs.available', 'node.runtime.imageFs', fsBytes(imageFs), ['availableBytes', 'capacityBytes'])
  observe(out, 'imagefs.inodesFree', 'node.runtime.imageFs', fsInodes(imageFs), ['inodesFree', 'inodes'])
  const containerFs = node.runtime?.containerFs
  if (containerFs) {
    observe(out, 'containerfs.available', 'node.runtime.containerFs', fsBytes(containerFs), [
      'availableBytes',
      'capacityBytes',
    ])
    observe(out, 'containerfs.inodesFree', 'node.runtime.containerFs', fsInodes(containerFs), ['inodesFree', 'inodes'])
  }
  const rl = node.rlimit
  if (rl && (rl.maxpid === undefined || rl.curproc === undefined)) {
    const missing = (['curproc', 'maxpid'] as const).filter((k) => rl[k] === undefined)
    out.unknown['pid.available'] = `node.rlimit.${missing.join(' and ')} not reported`
  } else {
    const pid = rl && { available: (rl.maxpid ?? 0) - (rl.curproc ?? 0), capacity: rl.maxpid, time: rl.time }
    observe(out, 'pid.available', 'node.rlimit', pid, ['curproc', 'maxpid'])
  }
  return out
}

export type FilesystemLayout = NodeStats['layout']

/**
 * detectLayout guesses the kubelet's `HasDedicatedImageFs` from the Summary: the image filesystem is
 * dedicated when its capacity differs from nodefs (one device reports one capacity), and the container
 * filesystem is split when it is reported with a capacity different from the image filesystem.
 * Two separate devices of identical size read as shared; set `layout` in the policy for such nodes.
 */
export function detectLayout(summary: Summary): FilesystemLayout {
  const { fs, runtime } = summary.node
  const image = runtime?.imageFs
  if (!image || image.capacityBytes === undefined || image.capacityBytes === fs?.capacityBytes) return 'shared'
  const container = runtime?.containerFs
  if (container?.capacityBytes !== undefined && container.capacityBytes !== image.capacityBytes)
    return 'splitContainerFs'
  return 'dedicatedImageFs'
}

function sum(values: (number | undefined)[]): number | undefined {
  let total: number | undefined
  for (const v of values) if (v !== undefined) total = (total ?? 0) + v
  return total
}

/**
 * toPodUsage condenses one pod's stats: container rootfs/logs sums, processes, and the usage of each
 * volume without a PVC by name — which of those count as disk usage depends on the pod's spec
 * (`SlimPod.localVolumes`), so the ranking picks them, not this.
 */
export function toPodUsage(pod: PodStats): PodUsage {
  const containers = pod.containers ?? []
  const volumes: PodVolumeUsage[] = []
  for (const v of pod.volume ?? []) {
    if (v.pvcRef !== undefined) continue
    const entry: PodVolumeUsage = { name: v.name }
    if (v.usedBytes !== undefined) entry.bytes = v.usedBytes
    if (v.inodesUsed !== undefined) entry.inodes = v.inodesUsed
    volumes.push(entry)
  }
  const usage: PodUsage = {
    uid: pod.podRef.uid,
    workingSetBytes: pod.memory?.workingSetBytes,
    rootfsBytes: sum(containers.map((c) => c.rootfs?.usedBytes)),
    rootfsInodes: sum(containers.map((c) => c.rootfs?.inodesUsed)),
    logsBytes: sum(containers.map((c) => c.logs?.usedBytes)),
    logsInodes: sum(containers.map((c) => c.logs?.inodesUsed)),
    volumes: volumes.length > 0 ? volumes : undefined,
    processCount: pod.process_stats?.process_count,
  }
  return Object.fromEntries(Object.entries(usage).filter(([, v]) => v !== undefined)) as PodUsage
}

/** toNodeStats condenses a Summary into the NodeView `stats` field (signals, unknowns, per-pod usage). */
export function toNodeStats(summary: Summary, now: Date, layout?: FilesystemLayout): NodeStats {
  const { observations, unknown } = makeSignalObservations(summary)
  return {
    observedAt: now.toISOString(),
    layout: layout ?? detectLayout(summary),
    signals: observations as Record<string, SignalObservation>,
    unknown: unknown as Record<string, string>,
    pods: (summary.pods ?? []).map(toPodUsage),
    firstObservedAt: {},
  }
}

/** observationsOf reads the known signals of a NodeView's stats, keyed by signal. */
export function observationsOf(stats: NodeStats): Observations {
  const out: Observations = {}
  for (const [k, v] of Object.entries(stats.signals)) if (isSignal(k)) out[k] = v
  return out
}
