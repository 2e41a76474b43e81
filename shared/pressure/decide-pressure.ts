import type { Alert, Decision, NodeView } from '../messages/index.ts'
import { endsAfter, makeAlert, nodeSubject } from '../policy/alert-builders.ts'
import { type Verdict, verdict } from '../policy/verdict.ts'
import { getZoneKey } from '../policy/zones.ts'
import { decideRelief, describeMet, type PressurePolicy, RELIEF_RULE_ID } from './decide-relief.ts'
import { evaluatePressure, type PressureEvaluation } from './evaluate-pressure.ts'
import { type PressureCondition, SIGNAL_CONDITION } from './signals.ts'

/**
 * decidePressure is the policy core's pressure step (issue 8): with kubelet stats in the view it
 * runs `decideRelief` (relief eviction, PressureRelief / ProtectedPodAtRisk / AllocatableMisconfigured
 * alerts); either way, a pressure condition the kubelet reports (DiskPressure, MemoryPressure,
 * PIDPressure = True) that no known signal explains while some of its signals cannot be read fires a PressureRelief alert saying the
 * signal is unknown — never silence, never "healthy". Pure: the same view, policy and clock give
 * the same output.
 */

export type PressureOutcome = { decisions: Decision[]; alerts: Alert[]; verdicts: Verdict[] }

const CONDITIONS: PressureCondition[] = ['MemoryPressure', 'DiskPressure', 'PIDPressure']

/** decidePressure judges one NodeView's pressure at `now`. */
export function decidePressure(view: NodeView, policy: PressurePolicy, now: Date): PressureOutcome {
  const subject = `node/${view.node.name}`
  if (view.cause === 'deleted') return { decisions: [], alerts: [], verdicts: [] }
  const relief = view.stats ? decideRelief(view, policy, now) : undefined
  const evaluation =
    relief?.evaluation ?? evaluatePressure({ view, pressure: policy.pressure, protection: policy.protection, now })
  const alerts = [...(relief?.alerts ?? []), ...unknownSignalAlerts(view, evaluation, policy, now)]
  const decisions = relief?.decisions ?? []
  return { decisions, alerts, verdicts: [reliefVerdict(subject, evaluation, decisions)] }
}

function reliefVerdict(subject: string, e: PressureEvaluation, decisions: Decision[]): Verdict {
  const driving = e.reliefMet.find((m) => m.signal === e.rankedFor?.signal) ?? e.reliefMet[0]
  if (decisions[0]) return verdict(RELIEF_RULE_ID, subject, 'act', decisions[0].reason)
  if (driving && e.holdBack) return verdict(RELIEF_RULE_ID, subject, 'hold', `${describeMet(driving)}; ${e.holdBack}`)
  if (driving) return verdict(RELIEF_RULE_ID, subject, 'none', `${describeMet(driving)}; no unprotected pod to evict`)
  const unknown = e.signals.filter((s) => s.unknown).map((s) => s.signal)
  const why =
    unknown.length === e.signals.length
      ? `every signal unknown (${e.signals[0]?.unknown ?? 'no stats'})`
      : `no relief threshold met${unknown.length > 0 ? `; unknown: ${unknown.join(', ')}` : ''}`
  return verdict(RELIEF_RULE_ID, subject, 'none', why)
}

/** unknownSignalAlerts: a pressure condition is True but none of its signals can be read. */
function unknownSignalAlerts(view: NodeView, e: PressureEvaluation, policy: PressurePolicy, now: Date): Alert[] {
  const zone = getZoneKey(view.node.labels)
  const alerts: Alert[] = []
  for (const condition of CONDITIONS) {
    const c = view.node.conditions.find((x) => x.type === condition && x.status === 'True')
    if (!c) continue
    // A known signal already explains the condition; otherwise an unknown one may be the cause.
    const explained = [...e.kubeletMet, ...e.reliefMet].some((m) => m.condition === condition)
    const unknown = e.signals.filter((s) => s.unknown && SIGNAL_CONDITION[s.signal] === condition)
    if (explained || unknown.length === 0) continue
    const reasons = [...new Set(unknown.map((s) => s.unknown))]
    alerts.push(
      makeAlert({
        kind: 'PressureRelief',
        subject: nodeSubject(view.node, zone),
        key: `unknown/${condition}`,
        status: 'firing',
        severity: 'warning',
        summary: `${view.node.name}: the kubelet reports ${condition} but ${unknown.map((s) => s.signal).join(', ')} ${unknown.length === 1 ? 'is' : 'are'} unknown (${reasons.join('; ')}): nodewarden cannot rank or relieve it, and does not treat it as healthy`,
        details: {
          condition,
          since: c.lastTransitionTime ?? null,
          unknown: Object.fromEntries(unknown.map((s) => [s.signal, s.unknown])),
        },
        startsAt: now.toISOString(),
        endsAt: endsAfter(now, policy.alerts.ttl),
        groupKey: `PressureRelief/${zone}`,
      }),
    )
  }
  return alerts
}
