import type { ConditionRule, Policy } from '../config/index.ts'
import type { Alert, Decision, NodeView } from '../messages/index.ts'
import { decidePressure } from '../pressure/decide-pressure.ts'
import { auditCriticalWithoutSystemPriority, auditPendingCriticalPods } from './audit-critical-pods.ts'
import { auditDefaultTolerations } from './audit-default-tolerations.ts'
import { auditEvictedPods } from './audit-evicted-pods.ts'
import { conditionAlerts } from './condition-alerts.ts'
import { ruleStateOf } from './condition-state.ts'
import { decideConditionTaint } from './decide-condition-taint.ts'
import { decideDrain, drainDue } from './decide-drain.ts'
import { forecastAlerts, type PodForecast } from './forecast-alerts.ts'
import { forecastContext, forecastWith } from './forecast-eviction.ts'
import { type Verdict, verdict } from './verdict.ts'
import { foldIntoZoneBrake, type HeldAction, zoneBrakeAlert } from './zone-alerts.ts'
import { budgetClaim, decideBrake } from './zone-brake.ts'
import { type ZoneContext, zoneContextOf } from './zone-context.ts'

/** DecideResult: what should happen (decisions), who should know (alerts), and every answer with its reason. */
export type DecideResult = {
  decisions: Decision[]
  alerts: Alert[]
  forecasts: PodForecast[]
  verdicts: Verdict[]
  zone: ZoneContext
}
type Out = { decisions: Decision[]; alerts: Alert[]; verdicts: Verdict[]; held: HeldAction[] }

/**
 * decide judges one NodeView at `now` under the policy: condition rules (taint, untaint, drain,
 * escalation), NoExecute eviction forecasts, zone brakes, audits, and pressure relief (with the
 * view's kubelet stats: at most one relief eviction per node per interval, issue 8). Pure and deterministic:
 * the same view, policy and clock give the same decisions and ids.
 */
export function decide(view: NodeView, policy: Policy, now: Date): DecideResult {
  const zone = zoneContextOf(view, policy)
  const out: Out = { decisions: [], alerts: [], verdicts: [], held: [] }
  for (const rule of policy.conditionRules) decideRule(view, rule, zone, policy, now, out)
  const forecasts = forecastPods(view, now)
  out.alerts.push(...forecastAlerts(view.node, forecasts, zone.zone, policy, now))
  const tolerations = auditDefaultTolerations(view.node, view.pods, zone.zone, policy, now)
  const evicted = auditEvictedPods(view.node, view.pods, zone.zone, policy, now)
  out.decisions.push(...tolerations.decisions, ...evicted.decisions)
  out.alerts.push(...tolerations.alerts, ...evicted.alerts)
  out.alerts.push(...auditCriticalWithoutSystemPriority(view.node, view.pods, zone.zone, policy, now))
  out.alerts.push(...auditPendingCriticalPods(view.pods, zone.zone, policy, now))
  out.alerts.push(...zoneBrakeAlert(zone, out.held, policy, now))
  const pressure = decidePressure(view, policy, now)
  out.decisions.push(...pressure.decisions)
  out.alerts.push(...pressure.alerts)
  out.verdicts.push(...pressure.verdicts)
  const alerts = foldIntoZoneBrake(zone, out.alerts)
  return { decisions: out.decisions, alerts, forecasts, verdicts: out.verdicts, zone }
}

/** forecastPods forecasts every pod on the node (a shared constant when the node has no NoExecute taint). */
export function forecastPods(view: Pick<NodeView, 'node' | 'pods'>, now: Date): PodForecast[] {
  const ctx = forecastContext(view.node.taints, now)
  return view.pods.map((pod) => ({ pod, forecast: forecastWith(pod, ctx) }))
}

function decideRule(view: NodeView, rule: ConditionRule, zone: ZoneContext, policy: Policy, now: Date, out: Out): void {
  const node = view.node
  const s = ruleStateOf(node, rule, policy, now)
  const plan = decideConditionTaint(node, s, policy, now)
  let held = false
  if (plan.decision && plan.needsBrake) {
    const brake = decideBrake(zone, 'noExecuteTaint', policy)
    if (brake.held && plan.verdict.outcome === 'act') {
      held = true
      out.held.push({ cause: brake.cause, reason: brake.reason, action: `${node.name}: ${plan.verdict.reason}` })
      out.verdicts.push(verdict(rule.id, `node/${node.name}`, 'hold', `${plan.verdict.reason} — held: ${brake.reason}`))
    } else
      out.decisions.push({ ...plan.decision, budget: brake.held ? budgetClaim(zone, 'noExecuteTaint') : brake.budget })
  } else if (plan.decision) out.decisions.push(plan.decision)
  if (!held) out.verdicts.push(plan.verdict)
  const drain = drainDue(s, now)
  if (drain.due) {
    const brake = decideBrake(zone, 'drain', policy, s.taint !== undefined)
    if (brake.held) {
      held = true
      out.held.push({ cause: brake.cause, reason: brake.reason, action: `${node.name}: drain (${drain.reason})` })
      out.verdicts.push(verdict(rule.id, `node/${node.name}`, 'hold', `drain (${drain.reason}) held: ${brake.reason}`))
    } else {
      const d = decideDrain(node, view.pods, s, brake.budget, policy, now)
      out.decisions.push(...d.decisions)
      out.verdicts.push(...d.verdicts)
    }
  } else if (rule.drain) out.verdicts.push(verdict(rule.id, `node/${node.name}`, 'none', `no drain: ${drain.reason}`))
  if (!held) out.alerts.push(...conditionAlerts(node, s, zone.zone, policy, now))
}
