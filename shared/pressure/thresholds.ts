import { parseGoDuration } from '../config/duration.ts'
import {
  addQuantities,
  compareQuantities,
  isPositive,
  parseQuantity,
  type Quantity,
  QuantityError,
} from '../policy/quantity.ts'
import { isSignal, type Observations, SIGNAL_CONDITION, SIGNAL_RESOURCE, type Signal } from './signals.ts'

/**
 * Kubelet eviction thresholds (pkg/kubelet/eviction/helpers.go `ParseThresholdConfig`,
 * `thresholdsMet`, api/types.go `GetThresholdQuantity`). Percentages are float32 values, exactly as
 * upstream: `float32(ParseFloat(x, 32)) / 100`, widened to float64 before multiplying the capacity.
 */

export type ThresholdValue = { quantity: Quantity; text: string } | { percentage: number; text: string }
export type Threshold = {
  signal: Signal
  value: ThresholdValue
  /** 0 = hard threshold (upstream `isHardEvictionThreshold`). */
  gracePeriodMs: number
  minReclaim?: ThresholdValue
}

/** ThresholdError names the configuration field that is wrong (e.g. `evictionHard["memory.available"]`). */
export class ThresholdError extends Error {
  override name = 'ThresholdError'
  readonly field: string
  constructor(
    readonly path: string[],
    readonly detail: string,
  ) {
    const field = path.map((p, i) => (i === 0 ? p : /^[A-Za-z]\w*$/.test(p) ? `.${p}` : `["${p}"]`)).join('')
    super(`${field}: ${detail}`)
    this.field = field
  }
}

export type KubeletEvictionInput = {
  enforceNodeAllocatable?: string[]
  evictionHard?: Record<string, string>
  evictionSoft?: Record<string, string>
  evictionSoftGracePeriod?: Record<string, string>
  evictionMinimumReclaim?: Record<string, string>
}

/** Linux `evictionHard` defaults (pkg/kubelet/eviction/defaults_linux.go; imagefs.inodesFree since v1.30). */
export const LINUX_EVICTION_HARD: Readonly<Record<string, string>> = {
  'memory.available': '100Mi',
  'nodefs.available': '10%',
  'nodefs.inodesFree': '5%',
  'imagefs.available': '15%',
  'imagefs.inodesFree': '5%',
}
/** Default `evictionPressureTransitionPeriod`. */
export const DEFAULT_PRESSURE_TRANSITION_MS = 5 * 60_000

const FLOAT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/

/** parsePercentage is upstream `parsePercentage`: float32(ParseFloat(trimmed, 32)) / 100, in float32. */
export function parsePercentage(text: string): number {
  const trimmed = text.replace(/%+$/, '')
  if (!FLOAT.test(trimmed)) throw new Error(`invalid percentage ${JSON.stringify(text)}`)
  return Math.fround(Math.fround(Number(trimmed)) / 100)
}

function parseValue(field: string[], text: string, what: string): ThresholdValue {
  if (text.endsWith('%')) {
    const pct = catching(field, () => parsePercentage(text))
    if (pct < 0) throw new ThresholdError(field, `${what} percentage must be >= 0%: ${text}`)
    if (pct > 1) throw new ThresholdError(field, `${what} percentage must be <= 100%: ${text}`)
    return { percentage: pct, text }
  }
  return { quantity: catching(field, () => parseQuantity(text)), text }
}

function catching<T>(field: string[], f: () => T): T {
  try {
    return f()
  } catch (err) {
    if (err instanceof QuantityError || err instanceof Error) throw new ThresholdError(field, err.message)
    throw err
  }
}

/** parseThresholdStatement is upstream's: `0%`/`100%` disable the threshold (undefined); quantities must be > 0. */
export function parseThresholdStatement(field: string[], signal: string, text: string): ThresholdValue | undefined {
  if (!isSignal(signal)) throw new ThresholdError(field, `unsupported eviction signal ${signal}`)
  if (text === '0%' || text === '100%') return undefined
  const value = parseValue(field, text, 'eviction threshold')
  if ('quantity' in value && !isPositive(value.quantity))
    throw new ThresholdError(field, `eviction threshold ${signal} must be positive: ${text}`)
  return value
}

type Statements = Record<string, string> | undefined
const entries = (s: Statements) => Object.entries(s ?? {})

/**
 * parseThresholdConfig is upstream `ParseThresholdConfig`: hard thresholds, then soft thresholds with
 * their grace periods, minimum reclaim on every threshold of a signal, and — when
 * `enforceNodeAllocatable` contains "pods" — an `allocatableMemory.available` copy of each hard
 * `memory.available` threshold. Throws ThresholdError naming the field.
 */
export function parseThresholdConfig(input: KubeletEvictionInput, prefix: string[] = []): Threshold[] {
  const results: Threshold[] = []
  for (const [signal, text] of entries(input.evictionHard)) {
    const value = parseThresholdStatement([...prefix, 'evictionHard', signal], signal, text)
    if (value) results.push({ signal: signal as Signal, value, gracePeriodMs: 0 })
  }
  const soft: Threshold[] = []
  for (const [signal, text] of entries(input.evictionSoft)) {
    const value = parseThresholdStatement([...prefix, 'evictionSoft', signal], signal, text)
    if (value) soft.push({ signal: signal as Signal, value, gracePeriodMs: 0 })
  }
  const grace = new Map<string, number>()
  for (const [signal, text] of entries(input.evictionSoftGracePeriod)) {
    const field = [...prefix, 'evictionSoftGracePeriod', signal]
    if (!isSignal(signal)) throw new ThresholdError(field, `unsupported eviction signal ${signal}`)
    const ms = parseGoDuration(text)
    if (ms === undefined) throw new ThresholdError(field, `invalid duration ${JSON.stringify(text)}`)
    if (ms < 0)
      throw new ThresholdError(field, `invalid eviction grace period specified: ${text}, must be a positive value`)
    grace.set(signal, ms)
  }
  const reclaim = new Map<string, ThresholdValue>()
  for (const [signal, text] of entries(input.evictionMinimumReclaim)) {
    const field = [...prefix, 'evictionMinimumReclaim', signal]
    if (!isSignal(signal)) throw new ThresholdError(field, `unsupported eviction signal ${signal}`)
    if (text.endsWith('%')) {
      const percentage = catching(field, () => parsePercentage(text))
      if (!(percentage > 0))
        throw new ThresholdError(field, `eviction percentage minimum reclaim ${signal} must be positive: ${text}`)
      reclaim.set(signal, { percentage, text })
      continue
    }
    const quantity = catching(field, () => parseQuantity(text))
    if (quantity.num < 0n) throw new ThresholdError(field, `negative eviction minimum reclaim specified for ${signal}`)
    reclaim.set(signal, { quantity, text })
  }
  for (const t of soft) {
    const ms = grace.get(t.signal)
    if (ms === undefined)
      throw new ThresholdError(
        [...prefix, 'evictionSoftGracePeriod', t.signal],
        `grace period must be specified for the soft eviction threshold ${t.signal}`,
      )
    results.push({ ...t, gracePeriodMs: ms })
  }
  for (const t of results) {
    const r = reclaim.get(t.signal)
    if (r) t.minReclaim = r
  }
  return (input.enforceNodeAllocatable ?? []).includes('pods') ? addAllocatableThresholds(results) : results
}

/** addAllocatableThresholds copies every hard `memory.available` threshold to `allocatableMemory.available`. */
export function addAllocatableThresholds(thresholds: Threshold[]): Threshold[] {
  const extra = thresholds
    .filter((t) => t.signal === 'memory.available' && isHardThreshold(t))
    .map((t) => ({ signal: 'allocatableMemory.available' as const, value: t.value, gracePeriodMs: 0, ...pick(t) }))
  return [...thresholds, ...extra]
}
const pick = (t: Threshold) => (t.minReclaim ? { minReclaim: t.minReclaim } : {})

/** isHardThreshold is upstream `isHardEvictionThreshold`: grace period 0 (a soft threshold with `0s` too). */
export function isHardThreshold(t: Threshold): boolean {
  return t.gracePeriodMs === 0
}

/** thresholdQuantity is upstream `GetThresholdQuantity`: the quantity, or int64(float64(capacity) × pct). */
export function thresholdQuantity(value: ThresholdValue, capacity: number): Quantity {
  if ('quantity' in value) return value.quantity
  return { num: BigInt(Math.trunc(capacity * value.percentage)), den: 1n }
}

/** thresholdMet reports `quantity (+ minReclaim) > available` — strict: equal is not met. */
export function thresholdMet(t: Threshold, obs: { available: number; capacity: number }, enforceMinReclaim: boolean) {
  let q = thresholdQuantity(t.value, obs.capacity)
  if (enforceMinReclaim && t.minReclaim) q = addQuantities(q, thresholdQuantity(t.minReclaim, obs.capacity))
  return compareQuantities(q, { num: BigInt(Math.trunc(obs.available)), den: 1n }) > 0
}

/** thresholdsMet is upstream's: thresholds whose signal is observed and below; unobserved ones are skipped. */
export function thresholdsMet(thresholds: Threshold[], observations: Observations, enforceMinReclaim: boolean) {
  return thresholds.filter((t) => {
    const obs = observations[t.signal]
    return obs !== undefined && thresholdMet(t, obs, enforceMinReclaim)
  })
}

/** thresholdId names a threshold stably (`hard:memory.available<100Mi`) for first-observed bookkeeping. */
export function thresholdId(t: Threshold): string {
  return `${isHardThreshold(t) ? 'hard' : 'soft'}:${t.signal}<${t.value.text}`
}

/** thresholdsFirstObservedAt keeps the earlier first-observed time of a still-met threshold, else `now`. */
export function thresholdsFirstObservedAt(
  thresholds: Threshold[],
  last: Record<string, string>,
  now: Date,
): Record<string, string> {
  return Object.fromEntries(thresholds.map((t) => [thresholdId(t), last[thresholdId(t)] ?? now.toISOString()]))
}

/** thresholdsMetGracePeriod keeps thresholds met for at least their grace period (hard ones always). */
export function thresholdsMetGracePeriod(thresholds: Threshold[], firstObservedAt: Record<string, string>, now: Date) {
  return thresholds.filter((t) => {
    const at = firstObservedAt[thresholdId(t)]
    const held = at === undefined ? 0 : now.getTime() - Date.parse(at)
    return held >= t.gracePeriodMs
  })
}

/** thresholdsUpdatedStats keeps thresholds whose observation is new (no last one, no time, or strictly later). */
export function thresholdsUpdatedStats(thresholds: Threshold[], observations: Observations, last: Observations) {
  return thresholds.filter((t) => {
    const obs = observations[t.signal]
    if (!obs) return false
    const prev = last[t.signal]
    return !prev || obs.time === undefined || Date.parse(obs.time) > Date.parse(prev.time ?? '')
  })
}

/** nodeConditions maps met thresholds to their node conditions, deduplicated. */
export function nodeConditions(thresholds: Pick<Threshold, 'signal'>[]): string[] {
  return [...new Set(thresholds.map((t) => SIGNAL_CONDITION[t.signal]))]
}

/** nodeConditionsLastObservedAt stamps the given conditions with `now`, keeping older times for the rest. */
export function nodeConditionsLastObservedAt(conditions: string[], last: Record<string, string>, now: Date) {
  const out: Record<string, string> = { ...last }
  for (const c of conditions) out[c] = now.toISOString()
  return out
}

/** nodeConditionsObservedSince keeps conditions last observed less than `periodMs` ago (the transition period). */
export function nodeConditionsObservedSince(observedAt: Record<string, string>, periodMs: number, now: Date) {
  return Object.entries(observedAt)
    .filter(([, at]) => now.getTime() - Date.parse(at) < periodMs)
    .map(([c]) => c)
}

/** sortByEvictionPriority is upstream `byEvictionPriority`: memory signals first, resource-less signals last. */
export function sortByEvictionPriority<T extends Pick<Threshold, 'signal'>>(thresholds: T[]): T[] {
  const rank = (s: string) =>
    s === 'memory.available' || s === 'allocatableMemory.available' ? 0 : isSignal(s) ? 1 : 2
  return [...thresholds].sort((a, b) => rank(a.signal) - rank(b.signal))
}

/** reclaimableThreshold is upstream `getReclaimableThreshold`: the first threshold whose signal maps to a resource. */
export function reclaimableThreshold<T extends Pick<Threshold, 'signal'>>(thresholds: T[]): T | undefined {
  return thresholds.find((t) => SIGNAL_RESOURCE[t.signal] !== undefined)
}

/** formatThresholdValue renders a threshold value as the operator wrote it (`100Mi`, `10%`). */
export function formatThresholdValue(v: ThresholdValue): string {
  return v.text
}
