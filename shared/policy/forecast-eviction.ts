import type { SlimPod, Taint } from '../messages/index.ts'
import { getMatchingTolerations, getMinTolerationTime, toleratesTaint } from './tolerations.ts'

/**
 * When will the control plane's taint-eviction controller delete this pod? As `processPodOnNode`
 * (pkg/controller/tainteviction/taint_eviction.go): an untolerated NoExecute taint → now; all
 * tolerated forever → never; else the minimum `tolerationSeconds` after the controller first
 * processed the pod against the taints with a finite minimum. That moment is not observable, so it
 * is estimated as the later of the pod's arrival (startTime, else creation) and the earliest
 * `timeAdded` among the taints the pod tolerates only for a time: while every taint is tolerated
 * forever the controller sets no timer, so a forever-tolerated taint starts no countdown.
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

type Arrival = Pick<SlimPod, 'tolerations' | 'startTime' | 'creationTimestamp'>

/** ForecastContext: what every pod of one node shares, computed once (taints, their text, the clock). */
export type ForecastContext = {
  noExecute: Taint[]
  /** Each NoExecute taint's `timeAdded` in ms (NaN when absent), in `noExecute` order. */
  addedMs: number[]
  all: string
  now: Date
  nowIso: string
  iso: Map<number, string>
}

const NEVER_NO_TAINTS: EvictionForecast = Object.freeze({
  outcome: 'never',
  evictAt: null,
  reason: 'no NoExecute taints on the node',
  estimate: false,
})

/** forecastContext prepares the per-node part of the forecast. */
export function forecastContext(taints: readonly Taint[], now: Date): ForecastContext {
  const noExecute = taints.filter((t) => t.effect === 'NoExecute')
  const addedMs = noExecute.map((t) => (t.timeAdded ? Date.parse(t.timeAdded) : Number.NaN))
  return { noExecute, addedMs, all: noExecute.map(describe).join(', '), now, nowIso: now.toISOString(), iso: new Map() }
}

/** forecastEviction predicts the pod's NoExecute eviction on a node carrying `taints` (any effects). */
export function forecastEviction(pod: Arrival, taints: readonly Taint[], now: Date): EvictionForecast {
  return forecastWith(pod, forecastContext(taints, now))
}

/** forecastWith is forecastEviction with the node's context prepared once for all its pods. */
export function forecastWith(pod: Arrival, ctx: ForecastContext): EvictionForecast {
  const { noExecute, all, nowIso } = ctx
  if (noExecute.length === 0) return NEVER_NO_TAINTS
  const match = getMatchingTolerations(noExecute, pod.tolerations)
  if (!match.tolerated)
    return {
      outcome: 'now',
      evictAt: nowIso,
      reason: `does not tolerate ${describe(match.untolerated ?? noExecute[0] ?? { key: '?', effect: 'NoExecute' })}`,
      estimate: false,
    }
  const min = getMinTolerationTime(match.used)
  if (min < 0) return { outcome: 'never', evictAt: null, reason: `tolerates ${all} forever`, estimate: false }
  if (min === 0)
    return { outcome: 'now', evictAt: nowIso, reason: `tolerates ${all} with tolerationSeconds ≤ 0`, estimate: false }
  const start = countdownStart(pod, ctx)
  const dueMs = start.ms + min * 1000
  const due = isoOf(ctx, dueMs)
  const estimate = `${min}s countdown from ~${isoOf(ctx, start.ms)} (${start.from}; estimate: upstream starts it when its taint-eviction controller first sees the pod)`
  if (dueMs <= ctx.now.getTime())
    return {
      outcome: 'now',
      evictAt: nowIso,
      reason: `tolerates ${all} for ${min}s; overdue since ${due}: ${estimate}`,
      estimate: true,
    }
  return { outcome: 'at', evictAt: due, reason: `tolerates ${all} for ${min}s: ${estimate}`, estimate: true }
}

function isoOf(ctx: ForecastContext, ms: number): string {
  let iso = ctx.iso.get(ms)
  if (iso === undefined) {
    iso = new Date(ms).toISOString()
    ctx.iso.set(ms, iso)
  }
  return iso
}

/** firstTimedTaintMs: the earliest `timeAdded` among taints some toleration with `tolerationSeconds` matches. */
function firstTimedTaintMs(pod: Arrival, ctx: ForecastContext): number | undefined {
  let first: number | undefined
  ctx.noExecute.forEach((taint, i) => {
    const ms = ctx.addedMs[i] ?? Number.NaN
    if (Number.isNaN(ms) || (first !== undefined && ms >= first)) return
    const timed = pod.tolerations.some(
      (t) => t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && toleratesTaint(t, taint),
    )
    if (timed) first = ms
  })
  return first
}

function countdownStart(pod: Arrival, ctx: ForecastContext): { ms: number; from: string } {
  const taintMs = firstTimedTaintMs(pod, ctx)
  const arrival = pod.startTime ?? pod.creationTimestamp
  const arrivalMs = arrival ? Date.parse(arrival) : undefined
  if (taintMs === undefined && arrivalMs === undefined)
    return { ms: ctx.now.getTime(), from: 'no taint timeAdded or pod start known: counted from now' }
  if (arrivalMs !== undefined && (taintMs === undefined || arrivalMs > taintMs))
    return { ms: arrivalMs, from: 'pod arrival' }
  return { ms: taintMs ?? ctx.now.getTime(), from: 'taint timeAdded' }
}
