import type { Policy } from '../../shared/config/index.ts'
import { buildNodeViews } from '../../shared/kube-slim/index.ts'
import type { Alert, Decision, NodeView } from '../../shared/messages/index.ts'
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
import { evaluatePressure, type PressureReport, pressureReport } from '../../shared/pressure/index.ts'
import { toNodeStats } from '../../shared/pressure/signals.ts'
import { SummarySchema } from '../../shared/pressure/summary.ts'

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
  /**
   * With `--stats <dir>`: per node, the kubelet signals, the thresholds met (kubelet hard/soft and
   * nodewarden relief), the kubelet's eviction ranking ("ns/name", first evicted first) and
   * nodewarden's relief candidate. A node without a readable Summary has every signal unknown.
   */
  nodes?: PressureReport[]
  warnings: string[]
}

/** SimulateOptions: `stats` maps node names to raw Summary documents (`--stats <dir>`). */
export type SimulateOptions = { stats?: ReadonlyMap<string, unknown>; statsSource?: string }

/** simulate applies the policy at `now` to a `kubectl get nodes,pods,pdb -A -o json` List. */
export function simulate(list: unknown, policy: Policy, now: Date, options: SimulateOptions = {}): SimulateReport {
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
  if (options.stats) report.nodes = []
  for (const bare of snapshot.views) {
    let view: NodeView = bare
    if (options.stats) {
      const row = pressureRow(bare, options, policy, now)
      report.nodes?.push(row.report)
      if (row.warning) report.warnings.push(row.warning)
      if (row.view) view = row.view
    }
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

/** pressureRow reads one node's Summary (if any) into its view and its pressure report. */
function pressureRow(
  view: NodeView,
  options: SimulateOptions,
  policy: Policy,
  now: Date,
): { report: PressureReport; view?: NodeView; warning?: string } {
  const name = view.node.name
  const source = `${options.statsSource ?? '<stats>'}/${name}.json`
  const doc = options.stats?.get(name)
  if (doc !== undefined) {
    const parsed = SummarySchema.safeParse(doc)
    if (parsed.success) {
      const stats = toNodeStats(parsed.data, now, policy.pressure.relief.layout)
      return { report: pressureReport(view, parsed.data, policy, now), view: { ...view, stats } }
    }
    const why = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')
    return {
      report: unknownReport(view, `${source} is not a kubelet Summary (${why})`, policy, now),
      warning: `${source} is not a kubelet Summary (${why}): ${name}'s signals are unknown`,
    }
  }
  return { report: unknownReport(view, `no Summary file ${source}`, policy, now) }
}

/** unknownReport: every signal unknown, for the stated reason; nothing ranked, no candidate. */
function unknownReport(view: NodeView, reason: string, policy: Policy, now: Date): PressureReport {
  const e = evaluatePressure({ view, pressure: policy.pressure, protection: policy.protection, now })
  return {
    name: view.node.name,
    signals: e.signals.map((s) => ({ signal: s.signal, unknown: reason })),
    thresholdsMet: [],
    ranking: [],
    rankedFor: null,
    kubeletVictim: null,
    reliefCandidate: null,
    holdBack: null,
    notes: [`every signal unknown: ${reason}; not treated as healthy`],
  }
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
