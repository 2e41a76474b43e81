import type { NodeCondition, NodeStats } from '../messages/index.ts'
import { quantityToNumber } from '../policy/quantity.ts'
import type { ReliefConfig } from './config.ts'
import { observationsOf } from './signals.ts'
import { thresholdMet, thresholdQuantity } from './thresholds.ts'

/**
 * Which nodes the stats collector fetches now. Nodes under pressure or near a relief threshold are
 * polled every `collect.shortInterval`, the rest every `collect.slowInterval`; a failing node backs
 * off from the short interval up to the slow one. At 5,000 nodes with the defaults (15 s / 5 m) and
 * 100 hot nodes that is 4,900/300 + 100/15 = 23 requests/s through the API server, at most
 * `collect.concurrency` (8) in flight (see `requestRate`).
 */

export type NodeTemperature = 'pressure' | 'near' | 'calm' | 'unknown'
export type CollectState = {
  name: string
  temperature: NodeTemperature
  lastFetchAt?: string
  failures: number
}

const PRESSURE_CONDITIONS = new Set(['MemoryPressure', 'DiskPressure', 'PIDPressure'])

/** classifyNode: pressure when a relief threshold is met or the kubelet reports a pressure condition; near within nearFactor × threshold. */
export function classifyNode(
  conditions: Pick<NodeCondition, 'type' | 'status'>[],
  stats: NodeStats | undefined,
  config: ReliefConfig,
): NodeTemperature {
  if (conditions.some((c) => PRESSURE_CONDITIONS.has(c.type) && c.status === 'True')) return 'pressure'
  if (!stats) return 'unknown'
  const obs = observationsOf(stats)
  let near = false
  for (const t of config.reliefThresholds) {
    const o = obs[t.signal]
    if (!o) continue
    if (thresholdMet(t, o, false)) return 'pressure'
    if (o.available < quantityToNumber(thresholdQuantity(t.value, o.capacity)) * config.collect.nearFactor) near = true
  }
  if (near) return 'near'
  // a node that reports no signal at all (unreachable kubelet) is retried at the short interval with backoff
  return Object.keys(stats.signals).length === 0 ? 'unknown' : 'calm'
}

/** intervalFor: short for hot or unknown nodes, slow for calm ones; failures back off (×2 each) up to slow. */
export function intervalFor(s: Pick<CollectState, 'temperature' | 'failures'>, config: ReliefConfig): number {
  const { shortInterval, slowInterval } = config.collect
  if (s.failures > 0) return Math.min(slowInterval, shortInterval * 2 ** s.failures)
  return s.temperature === 'calm' ? slowInterval : shortInterval
}

/** planCollection returns the nodes due at `now`: hot ones first, then the most overdue. */
export function planCollection(states: CollectState[], config: ReliefConfig, now: Date): string[] {
  const due: { name: string; hot: boolean; overdue: number }[] = []
  for (const s of states) {
    const last = s.lastFetchAt === undefined ? Number.NEGATIVE_INFINITY : Date.parse(s.lastFetchAt)
    const overdue = now.getTime() - last - intervalFor(s, config)
    if (overdue >= 0) due.push({ name: s.name, hot: s.temperature === 'pressure' || s.temperature === 'near', overdue })
  }
  due.sort((a, b) => Number(b.hot) - Number(a.hot) || b.overdue - a.overdue || a.name.localeCompare(b.name))
  return due.map((d) => d.name)
}

/** requestRate is the steady Summary request rate (per second) for `nodes` nodes of which `hot` are hot. */
export function requestRate(nodes: number, hot: number, config: ReliefConfig): number {
  return (nodes - hot) / (config.collect.slowInterval / 1000) + hot / (config.collect.shortInterval / 1000)
}

/** statsWorthSending: a new view is worth sending when the temperature changed or the node is under pressure. */
export function statsWorthSending(prev: NodeTemperature | undefined, next: NodeTemperature): boolean {
  return prev !== next || next === 'pressure'
}
