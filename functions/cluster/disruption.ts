/**
 * The disruption controller's arithmetic (pkg/controller/disruption): for each PodDisruptionBudget,
 * expected, desired and currently healthy pods, and disruptionsAllowed; stale disruptedPods entries
 * (older than 2 minutes, or whose pod is gone or terminating) are dropped.
 */
import { matchesRequirements, selectorObjectToRequirements } from './selectors.ts'
import type { KubeObject } from './store.ts'

const DISRUPTED_POD_TTL_MS = 2 * 60 * 1000

/** isPodReady reports a Ready condition with status True (podutil.IsPodReady). */
export function isPodReady(pod: KubeObject): boolean {
  return (pod.status?.conditions ?? []).some(
    (c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'True',
  )
}

/** pdbSelects reports whether a PDB's selector matches a pod (nil or invalid selector matches nothing; `{}` matches all). */
export function pdbSelects(pdb: KubeObject, pod: KubeObject): boolean {
  if (pdb.metadata?.namespace !== pod.metadata?.namespace) return false
  const sel = pdb.spec?.selector
  if (sel === undefined || sel === null) return false
  const reqs = selectorObjectToRequirements(sel)
  if (!reqs) return false
  return matchesRequirements(reqs, pod.metadata?.labels)
}

/** resolveIntOrPercent returns an int or `ceil(pct × total / 100)` (intstr.GetScaledValueFromIntOrPercent, round up). */
export function resolveIntOrPercent(value: number | string, total: number): number {
  if (typeof value === 'number') return value
  const m = /^(\d+)%$/.exec(value)
  if (!m) return Number.parseInt(value, 10) || 0
  return Math.ceil((Number(m[1]) * total) / 100)
}

export type PdbStatus = {
  observedGeneration: number
  disruptedPods?: Record<string, string>
  disruptionsAllowed: number
  currentHealthy: number
  desiredHealthy: number
  expectedPods: number
  conditions: Array<{
    type: string
    status: string
    reason: string
    message: string
    observedGeneration: number
    lastTransitionTime: string
  }>
}

/** computePdbStatus recomputes a PDB's status from the pods it selects, at `now`. */
export function computePdbStatus(pdb: KubeObject, pods: KubeObject[], now: Date): PdbStatus {
  const selected = pods.filter((p) => pdbSelects(pdb, p))
  const byName = new Map(selected.map((p) => [p.metadata.name as string, p]))
  const disrupted: Record<string, string> = {}
  for (const [name, at] of Object.entries((pdb.status?.disruptedPods ?? {}) as Record<string, string>)) {
    const pod = byName.get(name)
    if (!pod || pod.metadata.deletionTimestamp) continue
    if (now.getTime() - Date.parse(at) > DISRUPTED_POD_TTL_MS) continue
    disrupted[name] = at
  }
  const expected = selected.length
  const currentHealthy = selected.filter(
    (p) => !p.metadata.deletionTimestamp && isPodReady(p) && !(p.metadata.name in disrupted),
  ).length
  let desired: number
  if (pdb.spec?.maxUnavailable !== undefined && pdb.spec?.maxUnavailable !== null) {
    desired = Math.max(0, expected - resolveIntOrPercent(pdb.spec.maxUnavailable, expected))
  } else if (pdb.spec?.minAvailable !== undefined && pdb.spec?.minAvailable !== null) {
    desired = resolveIntOrPercent(pdb.spec.minAvailable, expected)
  } else desired = Math.max(0, expected - 0)
  const allowed = expected > 0 ? Math.max(0, currentHealthy - desired) : 0
  const generation = pdb.metadata?.generation ?? 1
  const old = (pdb.status?.conditions ?? []).find((c: { type: string }) => c.type === 'DisruptionAllowed')
  const status = allowed > 0 ? 'True' : 'False'
  const nowIso = now.toISOString().replace(/\.\d{3}Z$/, 'Z')
  return {
    observedGeneration: generation,
    ...(Object.keys(disrupted).length > 0 ? { disruptedPods: disrupted } : {}),
    disruptionsAllowed: allowed,
    currentHealthy,
    desiredHealthy: desired,
    expectedPods: expected,
    conditions: [
      {
        type: 'DisruptionAllowed',
        status,
        reason: allowed > 0 ? 'SufficientPods' : 'InsufficientPods',
        message: '',
        observedGeneration: generation,
        lastTransitionTime: old && old.status === status ? old.lastTransitionTime : nowIso,
      },
    ],
  }
}
