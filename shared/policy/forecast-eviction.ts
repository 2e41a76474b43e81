import type { SlimPod, Taint } from '../messages/index.ts'
import { getMatchingTolerations, getMinTolerationTime } from './tolerations.ts'

/**
 * When will the control plane's taint-eviction controller delete this pod? As `processPodOnNode`
 * (pkg/controller/tainteviction/taint_eviction.go): an untolerated NoExecute taint → now; all
 * tolerated forever → never; else the minimum `tolerationSeconds` after the controller first
 * processed the pod against the taints. That moment is not observable, so it is estimated as the
 * later of the earliest taint's `timeAdded` and the pod's arrival (startTime, else creation).
 */

export type EvictionForecast = {
  outcome: 'now' | 'at' | 'never'
  /** ISO timestamp; null when never. For `now`, the decision time. */
  evictAt: string | null
  reason: string
  /** True when evictAt rests on the estimated countdown start. */
  estimate: boolean
}

function describe(t: Pick<Taint, 'key' | 'value' | 'effect'>): string {
  return `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`
}

/** forecastEviction predicts the pod's NoExecute eviction on a node carrying `taints` (any effects). */
export function forecastEviction(
  pod: Pick<SlimPod, 'tolerations' | 'startTime' | 'creationTimestamp'>,
  taints: readonly Taint[],
  now: Date,
): EvictionForecast {
  const noExecute = taints.filter((t) => t.effect === 'NoExecute')
  const nowIso = now.toISOString()
  if (noExecute.length === 0)
    return { outcome: 'never', evictAt: null, reason: 'no NoExecute taints on the node', estimate: false }
  const match = getMatchingTolerations(noExecute, pod.tolerations)
  if (!match.tolerated)
    return {
      outcome: 'now',
      evictAt: nowIso,
      reason: `does not tolerate ${describe(match.untolerated ?? noExecute[0] ?? { key: '?', effect: 'NoExecute' })}`,
      estimate: false,
    }
  const min = getMinTolerationTime(match.used)
  const all = noExecute.map(describe).join(', ')
  if (min < 0) return { outcome: 'never', evictAt: null, reason: `tolerates ${all} forever`, estimate: false }
  if (min === 0)
    return { outcome: 'now', evictAt: nowIso, reason: `tolerates ${all} with tolerationSeconds ≤ 0`, estimate: false }
  const start = countdownStart(pod, noExecute, now)
  const dueMs = start.ms + min * 1000
  const due = new Date(dueMs).toISOString()
  const estimate = `${min}s countdown from ~${new Date(start.ms).toISOString()} (${start.from}; estimate: upstream starts it when its taint-eviction controller first sees the pod)`
  if (dueMs <= now.getTime())
    return {
      outcome: 'now',
      evictAt: nowIso,
      reason: `tolerates ${all} for ${min}s; overdue since ${due}: ${estimate}`,
      estimate: true,
    }
  return { outcome: 'at', evictAt: due, reason: `tolerates ${all} for ${min}s: ${estimate}`, estimate: true }
}

function countdownStart(
  pod: Pick<SlimPod, 'startTime' | 'creationTimestamp'>,
  taints: readonly Taint[],
  now: Date,
): { ms: number; from: string } {
  const added = taints.map((t) => (t.timeAdded ? Date.parse(t.timeAdded) : Number.NaN)).filter(Number.isFinite)
  const taintMs = added.length > 0 ? Math.min(...added) : undefined
  const arrival = pod.startTime ?? pod.creationTimestamp
  const arrivalMs = arrival ? Date.parse(arrival) : undefined
  if (taintMs === undefined && arrivalMs === undefined)
    return { ms: now.getTime(), from: 'no taint timeAdded or pod start known: counted from now' }
  if (arrivalMs !== undefined && (taintMs === undefined || arrivalMs > taintMs))
    return { ms: arrivalMs, from: 'pod arrival' }
  return { ms: taintMs ?? now.getTime(), from: 'taint timeAdded' }
}
