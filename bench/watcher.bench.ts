/**
 * Watcher bench: the slim watcher beside a naive baseline (client-node informers caching full
 * objects and forwarding every event), each in its own child process against one emulated cluster
 * with 10-second kubelet churn (node status heartbeats + node Lease renewals) and a small rate of
 * meaningful changes (a cordon/uncordon every 2 s). Reports events received/s, fraction forwarded,
 * CPU seconds per minute and resident memory at steady state, plus slim memory per node and per pod.
 * Size: WATCHER_BENCH_NODES (default 1,000) × 30 pods; see the report's `scaling` note.
 */
import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

export const name = 'watcher'

const NODES = Number(process.env.WATCHER_BENCH_NODES ?? 1000)
const PODS_PER_NODE = 30
const STEADY_MS = Number(process.env.WATCHER_BENCH_STEADY_MS ?? 20_000)
const CHURN_MEANINGFUL_MS = 2_000

type ChildReport = {
  mode: 'slim' | 'naive'
  syncMs: number
  events: number
  /** Watch restarts + relists during the window (slim only). */
  restarts: number
  forwarded: number
  cpuSeconds: number
  windowSeconds: number
  rssMiB: number
  heapUsedMiB: number
}

/** run seeds the emulated cluster, runs both watchers side by side and returns their figures and ratios. */
export async function run(): Promise<Record<string, unknown>> {
  const { startEmulator } = await import('../functions/cluster/emulator.ts')
  const { generateCluster } = await import('../functions/cluster/scenario/generate.ts')
  const { seedScenario } = await import('../functions/cluster/scenario/seed.ts')
  const { startKubeletSimulation } = await import('../functions/cluster/kubelet-sim.ts')
  const perObject = await measureSlimMemory()
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
    const [slim, naive] = await Promise.all([child('slim', kubeconfig), child('naive', kubeconfig)])
    const perMinute = (r: ChildReport) => (r.cpuSeconds / r.windowSeconds) * 60
    return {
      cluster: {
        nodes: NODES,
        pods: NODES * PODS_PER_NODE,
        seedMs,
        churn: 'kubelet heartbeat 10 s + lease 10 s per node; 1 cordon flip / 2 s',
      },
      slim: summary(slim, perMinute(slim)),
      baseline: summary(naive, perMinute(naive)),
      ratio: {
        memoryRss: round(naive.rssMiB / slim.rssMiB),
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
    heapUsedMiB: r.heapUsedMiB,
  }
}

/** child runs one watcher in its own process and collects its report. */
function child(mode: 'slim' | 'naive', kubeconfig: string): Promise<ChildReport> {
  return new Promise((resolve, reject) => {
    const proc = fork(fileURLToPath(import.meta.url), [], {
      execArgv: ['--import', 'tsx', '--expose-gc', '--max-old-space-size=4096'],
      env: {
        ...process.env,
        WATCHER_BENCH_CHILD: mode,
        KUBECONFIG: kubeconfig,
        WATCHER_BENCH_STEADY_MS: String(STEADY_MS),
      },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    })
    proc.once('message', (m) => resolve(m as ChildReport))
    proc.once('exit', (code) => reject(new Error(`${mode} bench child exited with ${code}`)))
  })
}

/** runChild is the child process: start one watcher, wait for sync, measure a steady window, report. */
async function runChild(mode: 'slim' | 'naive'): Promise<void> {
  const { KubeConfig } = await import('@kubernetes/client-node')
  const kc = new KubeConfig()
  kc.loadFromFile(process.env.KUBECONFIG ?? '')
  const started = performance.now()
  const meter = mode === 'slim' ? await startSlim(kc) : await startNaive(kc)
  const syncMs = Math.round(performance.now() - started)
  // Let the initial burst (one view per node, events queued during the list) drain before the steady window.
  while (((await meter.counts()).pending ?? 0) > 0) await new Promise((r) => setTimeout(r, 250))
  await new Promise((r) => setTimeout(r, 8_000))
  const base = { ...(await meter.counts()), cpu: process.cpuUsage(), at: performance.now() }
  await new Promise((r) => setTimeout(r, Number(process.env.WATCHER_BENCH_STEADY_MS)))
  const end = await meter.counts()
  const cpu = process.cpuUsage(base.cpu)
  const windowSeconds = (performance.now() - base.at) / 1000
  ;(globalThis as { gc?: () => void }).gc?.()
  const mem = process.memoryUsage()
  const report: ChildReport = {
    mode,
    syncMs,
    events: end.events - base.events,
    restarts: (end.restarts ?? 0) - (base.restarts ?? 0),
    forwarded: end.forwarded - base.forwarded,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    windowSeconds,
    rssMiB: Math.round(mem.rss / 2 ** 20),
    heapUsedMiB: Math.round(mem.heapUsed / 2 ** 20),
  }
  process.send?.(report, () => process.exit(0))
}

type Meter = { counts: () => Promise<{ events: number; forwarded: number; restarts?: number; pending?: number }> }

async function startSlim(kc: import('@kubernetes/client-node').KubeConfig): Promise<Meter> {
  const { startWatcher } = await import('../functions/watcher/watcher.ts')
  let forwarded = 0
  const watcher = await startWatcher({
    kubeConfig: kc,
    leaderElection: false,
    // The queue is left out of the measurement: views are rendered (validated, gzip'd) and counted.
    events: {
      send: async (messages) => {
        forwarded += messages.length
      },
    },
  })
  await watcher.ready
  return {
    counts: async () => {
      const c = await watcher.counters()
      return { events: c.eventsReceived, forwarded, restarts: c.watchRestarts + c.relists, pending: c.pendingViews }
    },
  }
}

async function startNaive(kc: import('@kubernetes/client-node').KubeConfig): Promise<Meter> {
  const k8s = await import('@kubernetes/client-node')
  const core = kc.makeApiClient(k8s.CoreV1Api)
  const policy = kc.makeApiClient(k8s.PolicyV1Api)
  let events = 0
  let forwarded = 0
  let bytes = 0
  const informers = [
    k8s.makeInformer(kc, '/api/v1/nodes', () => core.listNode()),
    k8s.makeInformer(kc, '/api/v1/pods', () => core.listPodForAllNamespaces()),
    k8s.makeInformer(kc, '/apis/policy/v1/poddisruptionbudgets', () =>
      policy.listPodDisruptionBudgetForAllNamespaces(),
    ),
  ]
  for (const informer of informers) {
    const forward = (obj: unknown) => {
      events++
      // Naive forwarding: every event goes out as its full object.
      bytes += JSON.stringify(obj).length
      forwarded++
    }
    for (const verb of ['add', 'update', 'delete'] as const) informer.on(verb as 'error', forward)
    informer.on('error', () => setTimeout(() => informer.start(), 1000))
  }
  await Promise.all(informers.map((i) => i.start()))
  const synced = events
  return { counts: async () => ({ events: events - synced, forwarded: forwarded - synced + 0 * bytes }) }
}

/** measureSlimMemory fills a SlimCache with generated nodes, then pods, and reports heap bytes per object. */
async function measureSlimMemory(): Promise<{ perNode: number; perPod: number; sample: string }> {
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as () => void
  const { SlimCache } = await import('../functions/watcher/slim-cache.ts')
  const { generateCluster } = await import('../functions/cluster/scenario/generate.ts')
  const { toNode, toPod } = await import('../functions/cluster/scenario/objects.ts')
  const { toSlimNode } = await import('../shared/kube-slim/to-slim-node.ts')
  const { toSlimPod } = await import('../shared/kube-slim/to-slim-pod.ts')
  const nodes = 1000
  const scenario = generateCluster({ nodes, podsPerNode: PODS_PER_NODE, zones: 3, seed: 2 })
  const now = new Date().toISOString()
  const cache = new SlimCache()
  gc()
  const h0 = process.memoryUsage().heapUsed
  scenario.nodes.forEach((spec, i) => {
    const n = toNode(spec, scenario.zones, now, i + 1)
    n.metadata.uid = `uid-${i}`
    n.metadata.resourceVersion = String(i + 1)
    cache.upsertNode(toSlimNode(n), String(i))
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
      pod.metadata.uid = `pod-uid-${pods}`
      cache.upsertPod(`${rs.namespace}/${rs.name}-${i}`, toSlimPod(pod), String(pods++))
    }
  }
  gc()
  const h2 = process.memoryUsage().heapUsed
  const result = {
    perNode: Math.round((h1 - h0) / nodes),
    perPod: Math.round((h2 - h1) / pods),
    sample: `${nodes} nodes, ${pods} pods`,
  }
  if (cache.counts().pods !== pods) throw new Error('slim memory sample lost pods')
  return result
}

function round(n: number): number {
  return Math.round(n * 100) / 100
}

const childMode = process.env.WATCHER_BENCH_CHILD
if (childMode === 'slim' || childMode === 'naive') await runChild(childMode)
