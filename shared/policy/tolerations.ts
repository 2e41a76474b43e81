import type { Taint, Toleration } from '../messages/index.ts'

/**
 * Toleration ↔ taint matching, exactly as upstream:
 * - `Toleration.ToleratesTaint` (k8s.io/api/core/v1/toleration.go)
 * - `TolerationsTolerateTaint`, `FindMatchingUntoleratedTaint` (component-helpers/scheduling/corev1/helpers.go)
 * - `GetMatchingTolerations` (pkg/apis/core/v1/helper/helpers.go)
 * - `getMinTolerationTime` (pkg/controller/tainteviction/taint_eviction.go)
 */

/** A taint as matching sees it: `timeAdded` is ignored, an absent value is "". */
export type TaintLike = Pick<Taint, 'key' | 'effect'> & { value?: string | undefined }

/** The v1.35 alpha `Lt`/`Gt` operators are off by default (gate TaintTolerationComparisonOperators). */
export type MatchOptions = { comparisonOperators?: boolean }

const DECIMAL_INT = /^(0|-?[1-9]\d*)$/
const INT64_MAX = 2n ** 63n - 1n
const INT64_MIN = -(2n ** 63n)

function int64(text: string): bigint | undefined {
  if (!DECIMAL_INT.test(text)) return undefined
  const n = BigInt(text)
  return n > INT64_MAX || n < INT64_MIN ? undefined : n
}

function compareNumeric(tolerationValue: string, taintValue: string, op: 'Lt' | 'Gt'): boolean {
  const want = int64(tolerationValue)
  const have = int64(taintValue)
  if (want === undefined || have === undefined) return false
  return op === 'Lt' ? have < want : have > want
}

/** toleratesTaint is upstream `Toleration.ToleratesTaint`: effect, then key, then operator. */
export function toleratesTaint(toleration: Toleration, taint: TaintLike, options: MatchOptions = {}): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false
  if (toleration.key && toleration.key !== taint.key) return false
  const op = toleration.operator ?? ''
  if (op === '' || op === 'Equal') return (toleration.value ?? '') === (taint.value ?? '')
  if (op === 'Exists') return true
  if (options.comparisonOperators && (op === 'Lt' || op === 'Gt'))
    return compareNumeric(toleration.value ?? '', taint.value ?? '', op)
  return false
}

/** tolerationsTolerateTaint is upstream `TolerationsTolerateTaint`: any toleration tolerates the taint. */
export function tolerationsTolerateTaint(tolerations: readonly Toleration[], taint: TaintLike): boolean {
  return tolerations.some((t) => toleratesTaint(t, taint))
}

/** findMatchingUntoleratedTaint is upstream `FindMatchingUntoleratedTaint`: the first kept taint no toleration tolerates. */
export function findMatchingUntoleratedTaint<T extends TaintLike>(
  taints: readonly T[],
  tolerations: readonly Toleration[],
  filter?: (taint: T) => boolean,
): T | undefined {
  return taints.find((taint) => (!filter || filter(taint)) && !tolerationsTolerateTaint(tolerations, taint))
}

/** matchToleration is upstream `Toleration.MatchToleration`: identity by key, operator, value, effect. */
export function matchToleration(a: Toleration, b: Toleration): boolean {
  return (
    (a.key ?? '') === (b.key ?? '') &&
    (a.operator ?? '') === (b.operator ?? '') &&
    (a.value ?? '') === (b.value ?? '') &&
    (a.effect ?? '') === (b.effect ?? '')
  )
}

/** matchTaint is upstream `Taint.MatchTaint`: identity by key and effect. */
export function matchTaint(a: TaintLike, b: TaintLike): boolean {
  return a.key === b.key && a.effect === b.effect
}

/**
 * getMatchingTolerations is upstream `GetMatchingTolerations`: for each taint, the first tolerating
 * toleration; `tolerated: false` (and no tolerations) when any taint is untolerated.
 */
export function getMatchingTolerations(
  taints: readonly TaintLike[],
  tolerations: readonly Toleration[],
): { tolerated: boolean; used: Toleration[]; untolerated?: TaintLike } {
  if (taints.length === 0) return { tolerated: true, used: [] }
  if (tolerations.length === 0) return { tolerated: false, used: [], untolerated: taints[0] }
  const used: Toleration[] = []
  for (const taint of taints) {
    const match = tolerations.find((t) => toleratesTaint(t, taint))
    if (!match) return { tolerated: false, used: [], untolerated: taint }
    used.push(match)
  }
  return { tolerated: true, used }
}

/**
 * getMinTolerationTime is upstream `getMinTolerationTime`, in seconds: 0 for an empty list or any
 * `tolerationSeconds <= 0` (evict now), -1 when every toleration is forever (nil), else the minimum.
 */
export function getMinTolerationTime(tolerations: readonly Toleration[]): number {
  if (tolerations.length === 0) return 0
  let min = -1
  for (const t of tolerations) {
    const s = t.tolerationSeconds
    if (s === undefined || s === null) continue
    if (s <= 0) return 0
    if (min < 0 || s < min) min = s
  }
  return min
}
