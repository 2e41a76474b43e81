import type { Policy } from '../../shared/config/index.ts'
import { buildNodeViews } from '../../shared/kube-slim/index.ts'
import type { Alert, Decision } from '../../shared/messages/index.ts'
import {
  allZonesFullyDisrupted,
  auditPendingCriticalPods,
  decide,
  getPodQOS,
  isProtected,
  type Verdict,
  zoneDisplayName,
  zoneEvictionRate,
  zoneStateOf,
} from '../../shared/policy/index.ts'

/** The `simulate --output json` document (a public interface: see the README). */
export type SimulateReport = {
  at: string
  zones: {
    zone: string
    name: string
    state: string
    ready: number
    notReady: number
    total: number
    ratePerSecond: number
  }[]
  pods: {
    namespace: string
    name: string
    node: string | null
    qosClass: string
    protected: boolean
    protectedReasons: string[]
    evictAt: string | null
    reason: string
  }[]
  taints: {
    node: string
    action: 'taint' | 'untaint'
    key: string
    effect: string
    notBefore: string | null
    reason: string
  }[]
  decisions: Decision[]
  alerts: Alert[]
  /** Every answer that is not "nothing to do": acted, waiting (notBefore) or held by a brake. */
  verdicts: Verdict[]
  warnings: string[]
}

/** simulate applies the policy at `now` to a `kubectl get nodes,pods,pdb -A -o json` List. */
export function simulate(list: unknown, policy: Policy, now: Date): SimulateReport {
  const snapshot = buildNodeViews(list, now)
  const report: SimulateReport = {
    at: now.toISOString(),
    zones: zoneRows(snapshot.zones, policy),
    pods: [],
    taints: [],
    decisions: [],
    alerts: [],
    verdicts: [],
    warnings: snapshot.warnings,
  }
  const alerts = new Map<string, Alert>()
  for (const view of snapshot.views) {
    const result = decide(view, policy, now)
    report.decisions.push(...result.decisions)
    for (const a of result.alerts) if (!alerts.has(a.id)) alerts.set(a.id, a)
    for (const v of result.verdicts) if (v.outcome !== 'none') report.verdicts.push(v)
    for (const { pod, forecast } of result.forecasts) {
      const reasons = isProtected(pod, policy.protection)
      report.pods.push({
        namespace: pod.namespace,
        name: pod.name,
        node: view.node.name,
        qosClass: getPodQOS(pod),
        protected: reasons.length > 0,
        protectedReasons: reasons,
        evictAt: forecast.evictAt,
        reason: forecast.reason,
      })
    }
  }
  for (const pod of snapshot.unplacedPods) {
    const reasons = isProtected(pod, policy.protection)
    const reason = pod.nodeName ? `bound to ${pod.nodeName}, which the list does not hold` : 'not scheduled to a node'
    report.pods.push({
      namespace: pod.namespace,
      name: pod.name,
      node: pod.nodeName ?? null,
      qosClass: getPodQOS(pod),
      protected: reasons.length > 0,
      protectedReasons: reasons,
      evictAt: null,
      reason,
    })
  }
  for (const a of auditPendingCriticalPods(snapshot.unplacedPods, undefined, policy, now))
    if (!alerts.has(a.id)) alerts.set(a.id, a)
  report.alerts = [...alerts.values()]
  report.taints = report.decisions.flatMap((d) =>
    d.action === 'taint' || d.action === 'untaint'
      ? [
          {
            node: d.target.name,
            action: d.action,
            key: d.taint.key,
            effect: d.taint.effect,
            notBefore: d.notBefore ?? null,
            reason: d.reason,
          },
        ]
      : [],
  )
  return report
}

function zoneRows(zones: ReturnType<typeof buildNodeViews>['zones'], policy: Policy): SimulateReport['zones'] {
  const states = zones.map((z) => zoneStateOf(z, policy.zones.unhealthyZoneThreshold))
  const allDown = zones.length > 0 && allZonesFullyDisrupted(states)
  return zones.map((z, i) => {
    const state = states[i] ?? 'Normal'
    return {
      zone: z.zone,
      name: zoneDisplayName(z.zone),
      state,
      ready: z.ready,
      notReady: z.notReady,
      total: z.total,
      ratePerSecond: zoneEvictionRate(state, z.total, allDown, policy.zones),
    }
  })
}
