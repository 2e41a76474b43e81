import type { AddressInfo } from 'node:net'
import { hostname } from 'node:os'
import { serve } from '@hono/node-server'
import type { KubeConfig } from '@kubernetes/client-node'
import { type Log, silentLog } from '../../shared/log.ts'
import { serializeEnvelope, toEnvelope } from '../../shared/messages/envelope.ts'
import type { NodeStats, NodeView } from '../../shared/messages/index.ts'
import { DEFAULT_RELIEF_CONFIG, type ReliefConfig } from '../../shared/pressure/config.ts'
import type { OutgoingMessage } from '../../shared/sqs/batches.ts'
import type { RetryPolicy } from '../../shared/sqs/retry.ts'
import { type SqsApi, sendMessages } from '../../shared/sqs/transport.ts'
import { Forwarder } from './forwarder.ts'
import { createKubeApi } from './kube-api.ts'
import { LeaseElector } from './lease-elector.ts'
import { runListWatch } from './list-watch.ts'
import { counterValue, createWatcherMetrics, type WatcherMetrics } from './metrics.ts'
import { PendingViews } from './pending-views.ts'
import { createProbeApp } from './probe-app.ts'
import { createSink, type ResourceKind, type SlimConverters } from './resource-sinks.ts'
import { SlimCache } from './slim-cache.ts'
import { defaultConverters } from './slim-converters.ts'
import { startStatsCollector, summaryFetcher } from './stats/collector.ts'

export type WatcherOptions = {
  kubeConfig: KubeConfig
  /** The events FIFO queue and an SQS client for it (or `send` to replace the transport). */
  events: { queueUrl: string; client: SqsApi } | { send: (messages: OutgoingMessage[]) => Promise<void> }
  /** Unique per replica (default: hostname + pid). */
  identity?: string
  /** false: no Lease, this replica always forwards (single replica, local runs). Default true. */
  leaderElection?: boolean
  leaseNamespace?: string
  leaseName?: string
  leaseDurationMs?: number
  renewDeadlineMs?: number
  retryPeriodMs?: number
  resyncPeriodMs?: number
  pageSize?: number
  /** Server-side watch timeout (default 300 s); /healthz fails after 3 × this without list/watch progress. */
  watchTimeoutSeconds?: number
  watchIdleTimeoutMs?: number
  requestTimeoutMs?: number
  /** Reconnect backoff (exponential, full jitter); maxAttempts is ignored (it never gives up). */
  backoff?: Omit<RetryPolicy, 'maxAttempts'>
  sendConcurrency?: number
  /** Serve /healthz, /readyz, /metrics on this port (0 = any free port); undefined = no server. */
  httpPort?: number
  httpHost?: string
  /**
   * Kubelet stats for pressure relief (issue 8): the leader fetches each node's Summary through the
   * API server's node proxy — hot nodes every `pressure.collect.shortInterval` (15s), calm ones every
   * `slowInterval` (5m), at most `concurrency` (8) in flight — and attaches them to the node's views.
   * On by default; `false` turns collection off.
   */
  stats?: false | { pressure?: ReliefConfig; tickMs?: number }
  log?: Log
  convert?: SlimConverters
  now?: () => Date
  random?: () => number
}

export type WatcherCounters = {
  eventsReceived: number
  eventsAbsorbed: number
  objectsRejected: number
  viewsSent: number
  viewsTruncated: number
  sendFailures: number
  watchRestarts: number
  relists: number
  pendingViews: number
  cached: { nodes: number; pods: number; pdbs: number }
}

export type Watcher = {
  /** Resolves after the first full list of nodes, pods and PDBs. */
  ready: Promise<void>
  /** stop stops watching, flushes pending views (while leader, up to 5 s), releases the Lease. */
  stop: () => Promise<void>
  isLeader: () => boolean
  counters: () => Promise<WatcherCounters>
  metrics: WatcherMetrics
  /** `http://host:port` of the probe server, when `httpPort` was given. */
  url?: string
}

export const DEFAULTS = {
  leaseNamespace: 'nodewarden',
  leaseName: 'nodewarden-watcher',
  leaseDurationMs: 15_000,
  renewDeadlineMs: 10_000,
  retryPeriodMs: 2_000,
  resyncPeriodMs: 300_000,
  pageSize: 500,
  watchTimeoutSeconds: 300,
  watchIdleTimeoutMs: 120_000,
  requestTimeoutMs: 30_000,
  backoff: { baseDelayMs: 500, maxDelayMs: 30_000 },
  sendConcurrency: 2,
  flushTimeoutMs: 5_000,
  /** /healthz fails when a list/watch loop made no progress for this many watch timeouts. */
  livenessWatchTimeouts: 3,
} as const

const PATHS: Record<ResourceKind, string> = {
  node: '/api/v1/nodes',
  pod: '/api/v1/pods',
  pdb: '/apis/policy/v1/poddisruptionbudgets',
}

/**
 * startWatcher runs the watcher shim: list/watch nodes, pods and PDBs into a slim cache, elect a
 * leader on a Lease, and while leading send a NodeView to the events FIFO queue for every node
 * whose view changed meaningfully, plus every node on each resync period.
 */
export async function startWatcher(options: WatcherOptions): Promise<Watcher> {
  const log = options.log ?? silentLog
  const now = options.now ?? (() => new Date())
  const random = options.random ?? Math.random
  const o = { ...DEFAULTS, ...stripUndefined(options) }
  const backoff: RetryPolicy = { maxAttempts: Number.POSITIVE_INFINITY, ...o.backoff }
  const metrics = createWatcherMetrics()
  const api = createKubeApi(options.kubeConfig, o.requestTimeoutMs)
  const cache = new SlimCache()
  const pending = new PendingViews()
  const abort = new AbortController()
  const sendAbort = new AbortController()
  let synced = false
  let stopped = false
  let leader = options.leaderElection === false
  const latestStats = new Map<string, NodeStats>()

  const forwarder = new Forwarder(
    { batchSize: 10, concurrency: o.sendConcurrency, resyncPeriodMs: o.resyncPeriodMs, backoff },
    {
      cache,
      pending,
      send: makeSend(options.events, random),
      render: (view, id) => renderView(view, id, now()),
      now,
      random,
      sleep,
      isLeader: () => leader,
      log,
      metrics,
      statsOf: (node) => latestStats.get(node),
    },
  )
  const markAll = (cause: 'initial' | 'resync') => {
    for (const node of cache.nodeNames()) pending.mark(node, cause)
    forwarder.notify()
  }
  const mark = (node: string, cause: NodeView['cause']) => {
    pending.mark(node, cause)
    forwarder.notify()
  }

  const elector =
    options.leaderElection === false
      ? undefined
      : new LeaseElector(
          {
            namespace: o.leaseNamespace,
            name: o.leaseName,
            identity: options.identity ?? `${hostname()}-${process.pid}`,
            leaseDurationMs: o.leaseDurationMs,
            renewDeadlineMs: o.renewDeadlineMs,
            retryPeriodMs: o.retryPeriodMs,
          },
          {
            api,
            now,
            sleep,
            log,
            onChange: (isLeader) => {
              leader = isLeader
              metrics.leader.set(isLeader ? 1 : 0)
              forwarder.forgetSent()
              if (isLeader && synced) markAll('initial')
              forwarder.notify()
            },
          },
        )
  metrics.leader.set(leader ? 1 : 0)

  /**
   * startCollector runs the stats collector while this replica leads and the cache is synced. A node
   * is marked pending when its stats matter to decide: it is under pressure or near a relief
   * threshold, or just left that state. A calm node's first sample waits for its next view (a
   * change or the resync), so a cold start does not send every node twice.
   */
  function startCollector(stats: { pressure?: ReliefConfig; tickMs?: number }) {
    const hot = (t: string | undefined) => t === 'pressure' || t === 'near'
    const temperature = new Map<string, string | undefined>()
    const c = startStatsCollector(
      {
        listNodes: () => {
          if (!synced || !leader) return []
          const nodes = cache.nodeNames().flatMap((name) => {
            const found = cache.node(name)
            return found && !found.deleted ? [{ name, conditions: found.node.conditions }] : []
          })
          const live = new Set(nodes.map((n) => n.name))
          for (const name of latestStats.keys()) if (!live.has(name)) latestStats.delete(name)
          return nodes
        },
        fetchSummary: summaryFetcher(api),
        onStats: (node, sample, worthSending) => {
          latestStats.set(node, sample)
          const before = temperature.get(node)
          const now = c.temperature(node)
          temperature.set(node, now)
          if (worthSending && (hot(now) || hot(before))) mark(node, 'node')
        },
        now,
        log,
      },
      stats.pressure ?? DEFAULT_RELIEF_CONFIG,
      stats.tickMs,
    )
    return c
  }

  let resolveReady: () => void = () => {}
  const ready = new Promise<void>((resolve) => {
    resolveReady = resolve
  })
  const unsynced = new Set<ResourceKind>(['node', 'pod', 'pdb'])
  // Liveness: the last time (monotonic clock) each loop listed a page or read a watch event or bookmark.
  const progressAt = new Map<string, number>(Object.keys(PATHS).map((kind) => [kind, performance.now()]))
  const livenessBoundMs = DEFAULTS.livenessWatchTimeouts * o.watchTimeoutSeconds * 1000
  const unhealthyReason = (): string | undefined => {
    if (stopped) return 'stopped'
    const at = performance.now()
    const stale = [...progressAt].filter(([, last]) => at - last > livenessBoundMs)
    if (stale.length === 0) return undefined
    const quiet = stale.map(([kind, last]) => `${kind} ${((at - last) / 1000).toFixed(1)} s`).join(', ')
    return `no successful list, watch event or bookmark for longer than ${livenessBoundMs / 1000} s (${DEFAULTS.livenessWatchTimeouts} × watch timeout): ${quiet}`
  }
  const convert = options.convert ?? defaultConverters
  const loops = (Object.keys(PATHS) as ResourceKind[]).map((kind) =>
    runListWatch(
      {
        resource: kind,
        path: PATHS[kind],
        pageSize: o.pageSize,
        watchTimeoutSeconds: o.watchTimeoutSeconds,
        idleTimeoutMs: o.watchIdleTimeoutMs,
        minHealthyWatchMs: 1_000,
        backoff,
      },
      {
        api,
        sink: createSink(kind, { cache, convert, metrics, log, isSynced: () => synced, mark }),
        log,
        now: () => now().getTime(),
        random,
        sleep,
        onRelist: (resource) => metrics.relists.inc({ resource }),
        onWatchEnd: (resource, reason) => metrics.watchRestarts.inc({ resource, reason }),
        onProgress: (resource) => progressAt.set(resource, performance.now()),
      },
      abort.signal,
      () => {
        unsynced.delete(kind)
        if (unsynced.size > 0) return
        synced = true
        log.info('watcher synced', cache.counts())
        resolveReady()
        if (leader) markAll('initial')
      },
    ),
  )
  const collector = options.stats === false ? undefined : startCollector(options.stats ?? {})
  const forwarding = forwarder.run(sendAbort.signal)
  const electing = elector?.run(abort.signal)
  const resync = setInterval(() => {
    if (synced && leader) markAll('resync')
  }, o.resyncPeriodMs)
  resync.unref()
  const gauges = setInterval(() => updateGauges(metrics, cache, pending), 5_000)
  gauges.unref()

  const server =
    options.httpPort === undefined
      ? undefined
      : await listen(
          createProbeApp({ unhealthyReason, isReady: () => synced, registry: metrics.registry }).fetch,
          options.httpPort,
          options.httpHost ?? '0.0.0.0',
        )

  const stop = async () => {
    if (stopped) return
    stopped = true
    clearInterval(resync)
    clearInterval(gauges)
    await collector?.stop()
    abort.abort()
    await Promise.allSettled([...loops, electing])
    const deadline = Date.now() + DEFAULTS.flushTimeoutMs
    while (leader && pending.size + pending.inFlightCount > 0 && Date.now() < deadline)
      await sleep(20, sendAbort.signal)
    sendAbort.abort()
    await forwarding
    await elector?.release()
    leader = false
    metrics.leader.set(0)
    await server?.close()
    log.info('watcher stopped', { pendingViews: pending.size })
  }

  return {
    ready,
    stop,
    isLeader: () => leader,
    metrics,
    counters: async () => {
      updateGauges(metrics, cache, pending)
      return {
        eventsReceived: await counterValue(metrics.eventsReceived),
        eventsAbsorbed: await counterValue(metrics.eventsAbsorbed),
        objectsRejected: await counterValue(metrics.objectsRejected),
        viewsSent: await counterValue(metrics.viewsSent),
        viewsTruncated: await counterValue(metrics.viewsTruncated),
        sendFailures: await counterValue(metrics.sendFailures),
        watchRestarts: await counterValue(metrics.watchRestarts),
        relists: await counterValue(metrics.relists),
        pendingViews: pending.size,
        cached: cache.counts(),
      }
    },
    ...(server ? { url: server.url } : {}),
  }
}

/** renderView wraps a view in its CloudEvents envelope (validated, compressed when large). */
function renderView(view: NodeView, id: string, time: Date): string {
  return serializeEnvelope(
    toEnvelope('io.nodewarden.nodeview.v1', view, { source: 'nodewarden/watcher', time, id, subject: view.node.name }),
  )
}

function makeSend(events: WatcherOptions['events'], random: () => number) {
  if ('send' in events) return events.send
  const deps = { client: events.client, sleep: (ms: number) => sleep(ms), random }
  return (messages: OutgoingMessage[]) => sendMessages(deps, events.queueUrl, messages)
}

function updateGauges(metrics: WatcherMetrics, cache: SlimCache, pending: PendingViews): void {
  const counts = cache.counts()
  metrics.cachedObjects.set({ resource: 'node' }, counts.nodes)
  metrics.cachedObjects.set({ resource: 'pod' }, counts.pods)
  metrics.cachedObjects.set({ resource: 'pdb' }, counts.pdbs)
  metrics.pendingViews.set(pending.size)
}

/** sleep waits on the real clock, ending early when `signal` aborts. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve()
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    signal?.addEventListener('abort', done)
  })
}

async function listen(
  fetch: (req: Request) => Response | Promise<Response>,
  port: number,
  hostname: string,
): Promise<{ url: string; close: () => Promise<void> }> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port, hostname }, (info: AddressInfo) => {
      const host = hostname === '0.0.0.0' ? '127.0.0.1' : hostname
      resolve({
        url: `http://${host}:${info.port}`,
        close: () => new Promise<void>((done) => server.close(() => done())),
      })
    })
    server.once('error', reject)
  })
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
}
