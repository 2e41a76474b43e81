/**
 * Watcher bench: the slim watcher beside a naive baseline (client-node informers caching full
 * objects and forwarding every event), each in its own child process against one emulated cluster
 * with 10-second kubelet churn (node status heartbeats + node Lease renewals) and a small rate of
 * meaningful changes (a cordon/uncordon every 2 s). Both children are esbuild bundles run by plain
 * node (as a deployed watcher would run), measured the same way: idle floor after imports, then
 * events received/s, fraction forwarded and CPU seconds per minute (all threads, GC included) in a
 * steady window, resident memory sampled through the window (mean, max), at its end after full GCs,
 * and the lifetime peak. Also reports slim memory per node and per pod, measured in this process.
 * Size: WATCHER_BENCH_NODES (default 1,000) × 30 pods; see the report's `scaling` note.
 */
import { fork } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import type { ChildReport } from './watcher-child.ts'

export const name = 'watcher'

const NODES = Number(process.env.WATCHER_BENCH_NODES ?? 1000)
const PODS_PER_NODE = 30
const STEADY_MS = Number(process.env.WATCHER_BENCH_STEADY_MS ?? 40_000)
const CHURN_MEANINGFUL_MS = 2_000
const HERE = dirname(fileURLToPath(import.meta.url))

/** run seeds the emulated cluster, runs both watchers side by side and returns their figures and ratios. */
export async function run(): Promise<Record<string, unknown>> {
  const { startEmulator } = await import('../functions/cluster/emulator.ts')
  const { generateCluster } = await import('../functions/cluster/scenario/generate.ts')
  const { seedScenario } = await import('../functions/cluster/scenario/seed.ts')
  const { startKubeletSimulation } = await import('../functions/cluster/kubelet-sim.ts')
  const perObject = await measureSlimMemory()
  const bundles = await bundleChildren()
  const emu = await startEmulator({ bookmarkIntervalMs: 10_000, historyLimit: 200_000 })
  const seedStart = performance.now()
  seedScenario(emu, generateCluster({ nodes: NODES, podsPerNode: PODS_PER_NODE, zones: 3, seed: 1 }))
  const seedMs = Math.round(performance.now() - seedStart)
  const kubelets = startKubeletSimulation(emu, { heartbeatSeconds: 10, leaseSeconds: 10 })
  let flips = 0
  const cordon = setInterval(() => {
    const node = `node-${String(flips % NODES).padStart(5, '0')}`
    emu.store.patch('nodes', '', node, { spec: { unschedulable: flips % (2 * NODES) < NODES } })
    flips++
  }, CHURN_MEANINGFUL_MS)
  try {
    const kubeconfig = emu.writeKubeconfig()
    const [slim, naive] = await Promise.all([
      child('slim', bundles.slim, kubeconfig),
      child('naive', bundles.naive, kubeconfig),
    ])
    const perMinute = (r: ChildReport) => (r.cpuSeconds / r.windowSeconds) * 60
    return {
      cluster: {
        nodes: NODES,
        pods: NODES * PODS_PER_NODE,
        seedMs,
        churn: 'kubelet heartbeat 10 s + lease 10 s per node; 1 cordon flip / 2 s',
      },
      runtime: `esbuild bundles on plain node ${process.version} (--max-old-space-size=4096), one child process each, run side by side`,
      slim: summary(slim, perMinute(slim)),
      baseline: summary(naive, perMinute(naive)),
      ratio: {
        memoryRss: round(naive.rssMiB / slim.rssMiB),
        memoryWindowRss: round(naive.windowRssMiB.mean / slim.windowRssMiB.mean),
        memoryPeakRss: round(naive.peakRssMiB / slim.peakRssMiB),
        memoryRssAboveFloor: round((naive.rssMiB - naive.floorRssMiB) / (slim.rssMiB - slim.floorRssMiB)),
        memoryHeap: round(naive.heapUsedMiB / slim.heapUsedMiB),
        cpu: round(perMinute(naive) / perMinute(slim)),
        forwarded: round(naive.forwarded / Math.max(1, slim.forwarded)),
      },
      slimBytesPerObject: perObject,
      scaling:
        'watcher memory is linear in objects (see slimBytesPerObject); events/s is linear in nodes (one heartbeat per node per 10 s)',
    }
  } finally {
    clearInterval(cordon)
    kubelets.stop()
    await emu.close()
    rmSync(bundles.dir, { recursive: true, force: true })
  }
}

function summary(r: ChildReport, cpuPerMinute: number) {
  return {
    syncMs: r.syncMs,
    watchRestartsInWindow: r.restarts,
    eventsPerSecond: round(r.events / r.windowSeconds),
    forwardedPerSecond: round(r.forwarded / r.windowSeconds),
    fractionForwarded: r.events === 0 ? 0 : Number((r.forwarded / r.events).toFixed(4)),
    cpuSecondsPerMinute: round(cpuPerMinute),
    rssMiB: r.rssMiB,
    windowRssMiB: r.windowRssMiB,
    floorRssMiB: r.floorRssMiB,
    peakRssMiB: r.peakRssMiB,
    heapUsedMiB: r.heapUsedMiB,
    heapTotalMiB: r.heapTotalMiB,
    externalMiB: r.externalMiB,
    heapSpacesMiB: r.heapSpacesMiB,
  }
}

/** bundleChildren builds each child entry into its own ESM bundle (tree-shaken: each holds only what it imports). */
async function bundleChildren(): Promise<{ dir: string; slim: string; naive: string }> {
  const { build } = await import('esbuild')
  const dir = mkdtempSync(join(tmpdir(), 'nodewarden-watcher-bench-'))
  await build({
    entryPoints: { slim: join(HERE, 'watcher-slim-child.ts'), naive: join(HERE, 'watcher-naive-child.ts') },
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // ESM bundles of CommonJS dependencies still call require(); give them one (as infra/build.ts does).
    banner: { js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);" },
    logLevel: 'error',
  })
  return { dir, slim: join(dir, 'slim.mjs'), naive: join(dir, 'naive.mjs') }
}

/** child runs one bundled watcher in its own process and collects its report. */
function child(mode: 'slim' | 'naive', bundle: string, kubeconfig: string): Promise<ChildReport> {
  return new Promise((resolve, reject) => {
    const proc = fork(bundle, [], {
      execArgv: ['--expose-gc', '--max-old-space-size=4096'],
      env: { ...process.env, KUBECONFIG: kubeconfig, WATCHER_BENCH_STEADY_MS: String(STEADY_MS) },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    })
    proc.once('message', (m) => resolve(m as ChildReport))
    proc.once('exit', (code) => reject(new Error(`${mode} bench child exited with ${code}`)))
  })
}

/**
 * measureSlimMemory fills a SlimCache with generated nodes, then pods, through the watcher's own
 * entry points, and reports heap bytes per object. Every object goes through a JSON round trip
 * first, so its strings are fresh copies as they are when parsed off a watch stream.
 */
async function measureSlimMemory(): Promise<{ perNode: number; perPod: number; podShapes: number; sample: string }> {
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as () => void
  const { randomUUID } = await import('node:crypto')
  const { SlimCache } = await import('../functions/watcher/slim-cache.ts')
  const { generateCluster } = await import('../functions/cluster/scenario/generate.ts')
  const { toNode, toPod } = await import('../functions/cluster/scenario/objects.ts')
  const { toSlimNode } = await import('../shared/kube-slim/to-slim-node.ts')
  const { toSlimPod } = await import('../shared/kube-slim/to-slim-pod.ts')
  const nodes = 1000
  const scenario = generateCluster({ nodes, podsPerNode: PODS_PER_NODE, zones: 3, seed: 2 })
  const now = new Date().toISOString()
  const wire = (o: unknown): Record<string, unknown> => JSON.parse(JSON.stringify(o))
  const cache = new SlimCache()
  gc()
  const h0 = process.memoryUsage().heapUsed
  scenario.nodes.forEach((spec, i) => {
    const n = toNode(spec, scenario.zones, now, i + 1)
    n.metadata.uid = randomUUID()
    n.metadata.resourceVersion = String(i + 1)
    cache.upsertNodeObject(spec.name, wire(n), String(i), toSlimNode)
  })
  gc()
  const h1 = process.memoryUsage().heapUsed
  let pods = 0
  const owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: 'rs-uid' }
  for (const rs of scenario.replicaSets) {
    for (let i = 0; i < rs.replicas; i++) {
      const pod = toPod(
        { ...rs, labels: rs.labels ?? { app: rs.name }, name: `${rs.name}-${i}`, node: rs.nodes?.[i] },
        owner,
        now,
      )
      pod.metadata.uid = randomUUID()
      pod.metadata.creationTimestamp = new Date(Date.parse(now) - pods * 1000).toISOString()
      cache.upsertPod(`${rs.namespace}/${rs.name}-${i}`, toSlimPod(wire(pod)), String(pods++))
    }
  }
  gc()
  const h2 = process.memoryUsage().heapUsed
  const result = {
    perNode: Math.round((h1 - h0) / nodes),
    perPod: Math.round((h2 - h1) / pods),
    podShapes: cache.podShapes(),
    sample: `${nodes} nodes, ${pods} pods`,
  }
  if (cache.counts().pods !== pods) throw new Error('slim memory sample lost pods')
  return result
}

function round(n: number): number {
  return Math.round(n * 100) / 100
}
