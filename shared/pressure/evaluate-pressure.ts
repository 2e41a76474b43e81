import type { NodeStats, NodeView, SlimPod } from '../messages/index.ts'
import { isCriticalPod, isTerminalPod } from '../policy/critical-pod.ts'
import { isProtected, type ProtectionPolicy } from '../policy/protection.ts'
import { getPodQOS, type QosClass } from '../policy/qos.ts'
import { parseQuantity, quantityToNumber, quantityValue } from '../policy/quantity.ts'
import type { ReliefConfig } from './config.ts'
import { ANNOTATION_LAST_RELIEF, parseLastRelief } from './last-relief.ts'
import { previewOOMScores } from './oom-score.ts'
import { type RankedPod, type RankFunction, rankForSignal, rankFunctionOf, usageLookup } from './rank.ts'
import { CORE_SIGNALS, type Observations, observationsOf, SIGNAL_CONDITION, type Signal } from './signals.ts'
import {
  isHardThreshold,
  nodeConditions,
  sortByEvictionPriority,
  type Threshold,
  thresholdMet,
  thresholdQuantity,
  thresholdsMetGracePeriod,
} from './thresholds.ts'

/**
 * evaluatePressure is the pure heart of issue 8: from a NodeView with kubelet stats it derives the
 * signals (known or unknown, never guessed), the kubelet's and nodewarden's thresholds met, the
 * kubelet's ranking for the signal under pressure, the kubelet's next victim and nodewarden's
 * relief candidate (the top-ranked pod that is not protected).
 */

export type SignalReport = {
  signal: Signal
  available?: number
  capacity?: number
  time?: string
  /** Why the signal is unknown; absent when known. */
  unknown?: string
}
export type MetReport = {
  signal: Signal
  kind: 'hard' | 'soft' | 'relief'
  threshold: string
  /** The threshold in absolute units (bytes, inodes, pids) for this node's capacity. */
  quantity: number
  available: number
  condition: string
  /** Soft thresholds: still inside the grace period (the kubelet is not evicting for it yet). */
  gracePending?: boolean
}
export type RankEntry = {
  pod: string
  uid: string
  position: number
  priority: number
  qosClass: QosClass
  hasStats: boolean
  usage: number
  request: number
  exceedsRequests: boolean
  /** The kubelet never evicts these (static, mirror, priority ≥ 2000000000). */
  critical: boolean
  terminating: boolean
  /** Why nodewarden protects the pod (empty: not protected). */
  protectedBy: string[]
  /** Highest container oom_score_adj (who the kernel OOM killer picks first). */
  oomScoreAdj: number
}
export type PressureEvaluation = {
  node: string
  statsObservedAt?: string
  signals: SignalReport[]
  kubeletMet: MetReport[]
  reliefMet: MetReport[]
  /** Conditions the kubelet reports for the hard/soft thresholds met now. */
  conditions: string[]
  /** The signal the ranking is for: the first relief threshold met (memory first), else the closest one. */
  rankedFor?: { signal: Signal; rank: RankFunction; pressed: boolean }
  ranking: RankEntry[]
  kubeletVictim?: RankEntry
  reliefCandidate?: RankEntry
  /** Why no relief eviction is proposed although a relief threshold is met. */
  holdBack?: string
  notes: string[]
}

export type EvaluateInput = {
  view: NodeView
  pressure: ReliefConfig
  protection: ProtectionPolicy
  now: Date
}

const podKey = (p: Pick<SlimPod, 'namespace' | 'name'>) => `${p.namespace}/${p.name}`

function metReport(t: Threshold, obs: Observations, kind: MetReport['kind']): MetReport | undefined {
  const o = obs[t.signal]
  if (!o || !thresholdMet(t, o, false)) return undefined
  return {
    signal: t.signal,
    kind,
    threshold: t.value.text,
    quantity: quantityToNumber(thresholdQuantity(t.value, o.capacity)),
    available: o.available,
    condition: SIGNAL_CONDITION[t.signal],
  }
}

function staleness(stats: NodeStats | undefined, maxAgeMs: number, now: Date): string | undefined {
  if (!stats) return 'no kubelet stats collected for this node'
  const age = now.getTime() - Date.parse(stats.observedAt)
  if (age > maxAgeMs) return `kubelet stats are ${Math.round(age / 1000)}s old (max ${Math.round(maxAgeMs / 1000)}s)`
  return undefined
}

/** evaluatePressure judges one node's stats; with no or stale stats every signal is unknown. */
export function evaluatePressure({ view, pressure, protection, now }: EvaluateInput): PressureEvaluation {
  const stats = view.stats
  const stale = staleness(stats, pressure.relief.maxStatsAge, now)
  const obs: Observations = stats && !stale ? observationsOf(stats) : {}
  const signals: SignalReport[] = CORE_SIGNALS.map((signal) => {
    const o = obs[signal]
    if (o) return { signal, ...o }
    return { signal, unknown: stale ?? stats?.unknown[signal] ?? `${signal} not reported` }
  })
  const notes: string[] = []
  for (const s of signals)
    if (s.unknown && pressure.reliefThresholds.some((t) => t.signal === s.signal))
      notes.push(`${s.signal} unknown (${s.unknown}): not treated as healthy; relief cannot judge it`)

  const kubeletMet: MetReport[] = []
  const graceMet = new Set(thresholdsMetGracePeriod(pressure.kubeletThresholds, stats?.firstObservedAt ?? {}, now))
  for (const t of pressure.kubeletThresholds) {
    const r = metReport(t, obs, isHardThreshold(t) ? 'hard' : 'soft')
    if (r) kubeletMet.push(isHardThreshold(t) ? r : { ...r, gracePending: !graceMet.has(t) })
  }
  const reliefMet = pressure.relief.enabled
    ? pressure.reliefThresholds.flatMap((t) => metReport(t, obs, 'relief') ?? [])
    : []

  const base: PressureEvaluation = {
    node: view.node.name,
    ...(stats ? { statsObservedAt: stats.observedAt } : {}),
    signals,
    kubeletMet,
    reliefMet,
    conditions: nodeConditions(kubeletMet),
    ranking: [],
    notes,
  }
  const target = sortByEvictionPriority(reliefMet)[0]?.signal ?? closestSignal(pressure.reliefThresholds, obs)
  if (!target || !stats) return base

  const active = view.pods.filter((p) => !isTerminalPod(p))
  const ranked = rankForSignal(target, pressure.relief.layout ?? stats.layout, active, usageLookup(stats.pods))
  const memCapacity = memoryCapacity(view)
  const ranking = ranked.map((r, i) => rankEntry(r, i + 1, protection, memCapacity))
  const missing = ranking.filter((r) => !r.hasStats).map((r) => r.pod)
  if (missing.length > 0)
    notes.push(`no stats for ${missing.join(', ')}: ranked first, as the kubelet ranks pods without stats`)
  const kubeletVictim = ranking.find((r) => !r.critical)
  const pressed = reliefMet.length > 0
  const reliefCandidate = pressed
    ? ranking.find((r) => !r.critical && !r.terminating && r.protectedBy.length === 0)
    : undefined
  return {
    ...base,
    rankedFor: { signal: target, rank: rankFunctionOf(target), pressed },
    ranking,
    ...(kubeletVictim ? { kubeletVictim } : {}),
    ...(reliefCandidate ? { reliefCandidate } : {}),
    ...holdBackOf(view, active, pressure, pressed, now),
  }
}

function holdBackOf(view: NodeView, active: SlimPod[], pressure: ReliefConfig, pressed: boolean, now: Date) {
  if (!pressed) return {}
  const terminating = active.find((p) => p.deletionTimestamp !== undefined)
  if (terminating)
    return {
      holdBack: `${podKey(terminating)} is terminating (deletionTimestamp ${terminating.deletionTimestamp}): waiting until its resources are reclaimed, as the kubelet does after an eviction`,
    }
  const last = parseLastRelief(view.node.annotations[ANNOTATION_LAST_RELIEF])
  const since = last === undefined ? Number.NaN : now.getTime() - Date.parse(last.at)
  if (since < pressure.relief.interval)
    return {
      holdBack: `last relief eviction at ${last?.at}${last?.pod ? ` (${last.pod})` : ''}, ${Math.round(since / 1000)}s ago: at most one per node every ${Math.round(pressure.relief.interval / 1000)}s`,
    }
  return {}
}

/** closestSignal picks the known relief signal with the least headroom (available ÷ threshold). */
function closestSignal(thresholds: Threshold[], obs: Observations): Signal | undefined {
  let best: { signal: Signal; ratio: number } | undefined
  for (const t of thresholds) {
    const o = obs[t.signal]
    if (!o) continue
    const q = quantityToNumber(thresholdQuantity(t.value, o.capacity))
    const ratio = q > 0 ? o.available / q : Number.POSITIVE_INFINITY
    if (!best || ratio < best.ratio) best = { signal: t.signal, ratio }
  }
  return best?.signal
}

function memoryCapacity(view: NodeView): bigint {
  const text = view.node.capacity.memory
  const cap = text === undefined ? 0n : quantityValue(parseQuantity(text))
  return cap > 0n ? cap : 1n
}

function rankEntry(r: RankedPod, position: number, protection: ProtectionPolicy, memCapacity: bigint): RankEntry {
  const { pod } = r
  return {
    pod: podKey(pod),
    uid: pod.uid,
    position,
    priority: r.priority,
    qosClass: getPodQOS(pod),
    hasStats: r.hasStats,
    usage: r.usage,
    request: quantityToNumber(r.request),
    exceedsRequests: r.exceedsRequests,
    critical: isCriticalPod(pod),
    terminating: pod.deletionTimestamp !== undefined,
    protectedBy: isProtected(pod, protection),
    oomScoreAdj: previewOOMScores(pod, memCapacity).maxOomScoreAdj,
  }
}
