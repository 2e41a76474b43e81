import type { Log } from '../../../shared/log.ts'
import type { NodeCondition, NodeStats } from '../../../shared/messages/index.ts'
import {
  type CollectState,
  classifyNode,
  type NodeTemperature,
  planCollection,
  statsWorthSending,
} from '../../../shared/pressure/collect-plan.ts'
import type { ReliefConfig } from '../../../shared/pressure/config.ts'
import { CORE_SIGNALS, observationsOf, toNodeStats } from '../../../shared/pressure/signals.ts'
import { SummarySchema } from '../../../shared/pressure/summary.ts'
import { thresholdsFirstObservedAt, thresholdsMet } from '../../../shared/pressure/thresholds.ts'

/**
 * The watcher's stats collector: fetches each node's kubelet Summary through the API server's node
 * proxy (`/api/v1/nodes/{node}/proxy/stats/summary`), at most `collect.concurrency` at once, hot nodes
 * every short interval and calm ones every slow interval (`planCollection`), condenses it with
 * `toNodeStats` and hands it to `onStats` with `worthSending` (temperature changed, or under pressure).
 * A failed or malformed fetch yields stats in which every signal is unknown, with the reason.
 */

export type StatsCollectorDeps = {
  listNodes: () => { name: string; conditions: Pick<NodeCondition, 'type' | 'status'>[] }[]
  fetchSummary: (node: string, signal: AbortSignal) => Promise<unknown>
  onStats: (node: string, stats: NodeStats, worthSending: boolean) => void
  now: () => Date
  log: Log
}

export type StatsCollector = {
  /** tick fetches every node due now and resolves when they are done (tests drive it directly). */
  tick: () => Promise<void>
  stop: () => Promise<void>
  temperature: (node: string) => NodeTemperature | undefined
}

type NodeMemo = CollectState & { stats?: NodeStats }

/** summaryPath is the API server proxy path of a node's kubelet Summary. */
export function summaryPath(node: string): string {
  return `/api/v1/nodes/${encodeURIComponent(node)}/proxy/stats/summary`
}

/** summaryFetcher adapts the watcher's KubeApi (`request(method, path)`) to `fetchSummary`. */
export function summaryFetcher(api: { request: (method: 'GET', path: string) => Promise<unknown> }) {
  return (node: string) => api.request('GET', summaryPath(node))
}

function unknownStats(reason: string, now: Date, prev?: NodeStats): NodeStats {
  return {
    observedAt: now.toISOString(),
    layout: prev?.layout ?? 'shared',
    signals: {},
    unknown: Object.fromEntries(CORE_SIGNALS.map((s) => [s, reason])),
    pods: [],
    firstObservedAt: {},
  }
}

/** startStatsCollector runs the collection loop every `tickMs` (default 1 s) until `stop()`. */
export function startStatsCollector(deps: StatsCollectorDeps, config: ReliefConfig, tickMs = 1000): StatsCollector {
  const memo = new Map<string, NodeMemo>()
  const abort = new AbortController()
  let running: Promise<void> | undefined

  async function collect(name: string, conditions: Pick<NodeCondition, 'type' | 'status'>[]): Promise<void> {
    const m = memo.get(name) ?? { name, temperature: 'unknown', failures: 0 }
    const signal = AbortSignal.any([abort.signal, AbortSignal.timeout(config.collect.timeout)])
    let stats: NodeStats
    try {
      const summary = SummarySchema.parse(await deps.fetchSummary(name, signal))
      const now = deps.now()
      stats = toNodeStats(summary, now, config.relief.layout)
      const met = thresholdsMet(config.kubeletThresholds, observationsOf(stats), false)
      stats.firstObservedAt = thresholdsFirstObservedAt(met, m.stats?.firstObservedAt ?? {}, now)
      m.failures = 0
    } catch (err) {
      m.failures += 1
      const reason = `summary fetch failed: ${err instanceof Error ? err.message : String(err)}`.slice(0, 300)
      deps.log.warn('stats fetch failed', { node: name, failures: m.failures, reason })
      stats = unknownStats(reason, deps.now(), m.stats)
    }
    const temperature = classifyNode(conditions, stats, config)
    const worth = statsWorthSending(m.temperature, temperature)
    memo.set(name, { ...m, temperature, lastFetchAt: deps.now().toISOString(), stats })
    deps.onStats(name, stats, worth)
  }

  async function tick(): Promise<void> {
    const nodes = deps.listNodes()
    const byName = new Map(nodes.map((n) => [n.name, n]))
    for (const name of memo.keys()) if (!byName.has(name)) memo.delete(name)
    // A pressure condition the kubelet reports now puts the node on the short interval at once.
    const states = nodes.map((n): CollectState => {
      const m = memo.get(n.name) ?? { name: n.name, temperature: 'unknown' as const, failures: 0 }
      return classifyNode(n.conditions, undefined, config) === 'pressure' ? { ...m, temperature: 'pressure' } : m
    })
    const due = planCollection(states, config, deps.now())
    let next = 0
    const worker = async () => {
      while (next < due.length && !abort.signal.aborted) {
        const name = due[next++] as string
        await collect(name, byName.get(name)?.conditions ?? [])
      }
    }
    await Promise.all(Array.from({ length: Math.min(config.collect.concurrency, due.length) }, worker))
  }

  const timer = setInterval(() => {
    running ??= tick()
      .catch((err) => deps.log.error('stats tick failed', { error: String(err) }))
      .finally(() => {
        running = undefined
      })
  }, tickMs)
  timer.unref?.()

  return {
    tick: () => {
      running ??= tick().finally(() => {
        running = undefined
      })
      return running
    },
    stop: async () => {
      clearInterval(timer)
      abort.abort()
      await running?.catch(() => undefined)
    },
    temperature: (node) => memo.get(node)?.temperature,
  }
}
