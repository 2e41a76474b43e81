import type { Policy } from '../config/index.ts'
import type { Alert, SlimNode } from '../messages/index.ts'
import { endsAfter, makeAlert, nodeSubject } from './alert-builders.ts'
import type { RuleState } from './condition-state.ts'
import { secs } from './verdict.ts'

/**
 * conditionAlerts returns a rule's ConditionTainted and RemediationEscalation alerts for one node:
 * firing while the condition has held ≥ `for` (the latest escalation step reached, counted from the
 * condition's lastTransitionTime); resolved when the node still carries the rule's taint but the
 * condition has cleared — the view itself proves the transition.
 */
export function conditionAlerts(
  node: SlimNode,
  s: RuleState,
  zone: string,
  policy: Pick<Policy, 'alerts'>,
  now: Date,
): Alert[] {
  const { rule } = s
  if (s.stale) return []
  const subject = nodeSubject(node, zone)
  const groupKey = `condition:${rule.id}`
  const base = { kind: 'ConditionTainted' as const, subject, key: rule.id, severity: rule.severity, groupKey }
  if (!s.matches) {
    if (!s.taint) return []
    const endsAt = s.condition?.lastTransitionTime ?? now.toISOString()
    const startsAt = s.taint.timeAdded ?? endsAt
    const summary = `${node.name}: ${rule.condition} cleared; ${s.taint.key} will be removed`
    const resolved = { status: 'resolved' as const, startsAt, endsAt }
    return [
      makeAlert({ ...base, ...resolved, summary }),
      ...rule.escalation.map((step) =>
        makeAlert({ ...base, ...resolved, kind: 'RemediationEscalation', key: `${rule.id}:${step.action}`, summary }),
      ),
    ]
  }
  const heldMs = s.sinceMs === undefined ? 0 : now.getTime() - s.sinceMs
  if (heldMs < rule.for) return []
  const startsAt = s.condition?.lastTransitionTime ?? now.toISOString()
  const endsAt = endsAfter(now, policy.alerts.ttl)
  const taintText = rule.taint
    ? `${rule.taint.key}:${rule.taint.effect} ${s.taint ? 'applied' : 'requested'}`
    : 'no taint'
  const drainText = rule.drain ? '; draining' : ''
  const held = `${rule.condition}=${rule.status} for ${secs(heldMs)}s`
  const alerts = [
    makeAlert({
      ...base,
      status: 'firing',
      startsAt,
      endsAt,
      summary: `${node.name}: ${held}; ${taintText}${drainText}`,
      details: { rule: rule.id, condition: rule.condition, heldSeconds: secs(heldMs) },
    }),
  ]
  const step = [...rule.escalation].reverse().find((e) => heldMs >= e.after)
  if (step) {
    const summary = `${node.name}: ${held}; remediation step ${step.action} is due (after ${secs(step.after)}s)`
    const details = {
      rule: rule.id,
      action: step.action,
      afterSeconds: secs(step.after),
      steps: rule.escalation.map((e) => e.action).join(' → '),
    }
    alerts.push(
      makeAlert({
        ...base,
        kind: 'RemediationEscalation',
        key: `${rule.id}:${step.action}`,
        status: 'firing',
        startsAt,
        endsAt,
        summary,
        details,
      }),
    )
  }
  return alerts
}
