/**
 * The measuring half of a watcher bench child (bench/watcher.bench.ts): one watcher per process,
 * bundled with esbuild and run by plain node, so each process holds only the code its watcher
 * needs. Measures the idle floor (after imports), waits for sync and for the initial views to
 * drain, then a steady window of CPU time and events, and resident memory after full GCs (and the peak).
 */
import { getHeapSpaceStatistics } from 'node:v8'

export type Meter = {
  counts: () => Promise<{ events: number; forwarded: number; restarts?: number; pending?: number }>
}

export type ChildReport = {
  mode: 'slim' | 'naive'
  syncMs: number
  events: number
  /** Watch restarts + relists during the window (slim only). */
  restarts: number
  forwarded: number
  cpuSeconds: number
  windowSeconds: number
  /** Resident memory after imports, before listing anything (runtime + libraries). */
  floorRssMiB: number
  rssMiB: number
  /** Mean and highest resident memory sampled each second of the steady window. */
  windowRssMiB: { mean: number; max: number }
  /** Peak resident memory over the process's life (the initial list included). */
  peakRssMiB: number
  heapUsedMiB: number
  heapTotalMiB: number
  externalMiB: number
  /** Resident size of each V8 heap space of 1 MiB or more (new_space is the young generation). */
  heapSpacesMiB: Record<string, number>
}

const MiB = 2 ** 20
const gc = () => (globalThis as { gc?: () => void }).gc?.()
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** measureChild runs one watcher (started by `start`) through the bench protocol and sends its report to the parent. */
export async function measureChild(
  mode: 'slim' | 'naive',
  start: (kubeconfig: string) => Promise<Meter>,
): Promise<void> {
  gc()
  const floorRssMiB = Math.round(process.memoryUsage().rss / MiB)
  const started = performance.now()
  const meter = await start(process.env.KUBECONFIG ?? '')
  const syncMs = Math.round(performance.now() - started)
  // Let the initial burst (one view per node, events queued during the list) drain before the steady window.
  while (((await meter.counts()).pending ?? 0) > 0) await sleep(250)
  await sleep(Number(process.env.WATCHER_BENCH_SETTLE_MS ?? 8_000))
  const base = { ...(await meter.counts()), cpu: process.cpuUsage(), at: performance.now() }
  // Resident memory sampled each second of the window: V8 releases memory in its own time (after
  // a major GC, when allocation slows), so one reading can land before or after a release.
  const samples: number[] = []
  const sampler = setInterval(() => samples.push(process.memoryUsage.rss()), 1_000)
  await sleep(Number(process.env.WATCHER_BENCH_STEADY_MS))
  clearInterval(sampler)
  const end = await meter.counts()
  const cpu = process.cpuUsage(base.cpu)
  const windowSeconds = (performance.now() - base.at) / 1000
  // Two full collections a moment apart: buffers whose wrappers die in the first are freed by the second.
  gc()
  await sleep(500)
  gc()
  const mem = process.memoryUsage()
  const report: ChildReport = {
    mode,
    syncMs,
    events: end.events - base.events,
    restarts: (end.restarts ?? 0) - (base.restarts ?? 0),
    forwarded: end.forwarded - base.forwarded,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    windowSeconds,
    floorRssMiB,
    rssMiB: Math.round(mem.rss / MiB),
    windowRssMiB: {
      mean: Math.round(samples.reduce((a, b) => a + b, 0) / Math.max(1, samples.length) / MiB),
      max: Math.round(Math.max(0, ...samples) / MiB),
    },
    peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    heapUsedMiB: Math.round(mem.heapUsed / MiB),
    heapTotalMiB: Math.round(mem.heapTotal / MiB),
    externalMiB: Math.round(mem.external / MiB),
    heapSpacesMiB: Object.fromEntries(
      getHeapSpaceStatistics()
        .filter((sp) => sp.physical_space_size >= MiB)
        .map((sp) => [sp.space_name, Math.round(sp.physical_space_size / MiB)]),
    ),
  }
  process.send?.(report, () => process.exit(0))
}
