import type { Policy } from '../config/index.ts'
import type { BudgetClaim, Decision, SlimNode, SlimPod } from '../messages/index.ts'
import type { RuleState } from './condition-state.ts'
import { makeDecision, podTarget } from './decision-builders.ts'
import { planDrain } from './drain-plan.ts'
import { type Verdict, verdict } from './verdict.ts'

/** When a drain is due: the condition held `for` and (if the rule taints) the taint is on the node. */
export function drainDue(s: RuleState, now: Date): { due: boolean; reason: string; startMs: number } {
  const held = s.sinceMs === undefined ? 0 : now.getTime() - s.sinceMs
  const dueMs = (s.sinceMs ?? now.getTime()) + s.rule.for
  if (!s.rule.drain) return { due: false, reason: 'rule does not drain', startMs: dueMs }
  if (s.stale || !s.matches || held < s.rule.for)
    return { due: false, reason: `${s.rule.condition} not held for ${s.rule.for / 1000}s`, startMs: dueMs }
  if (s.rule.taint && !s.taint)
    return { due: false, reason: `drain starts once ${s.rule.taint.key} is on the node`, startMs: dueMs }
  const taintMs = s.taint?.timeAdded ? Date.parse(s.taint.timeAdded) : dueMs
  return { due: true, reason: `${s.rule.condition}=${s.rule.status} held ≥ ${s.rule.for / 1000}s`, startMs: taintMs }
}

/**
 * decideDrain turns a due drain into one `evict` decision per evictable pod (never a protected,
 * mirror, DaemonSet or terminal pod), each with the drain deadline and what happens at it.
 */
export function decideDrain(
  node: SlimNode,
  pods: readonly SlimPod[],
  s: RuleState,
  budget: BudgetClaim,
  policy: Pick<Policy, 'drain' | 'protection'>,
  now: Date,
): { decisions: Decision[]; verdicts: Verdict[] } {
  const { startMs, reason: why } = drainDue(s, now)
  const plan = planDrain(pods, policy.protection)
  const deadline = new Date(startMs + policy.drain.deadline).toISOString()
  const verdicts = plan.skipped.map(({ pod, reason }) =>
    verdict(s.rule.id, `pod/${pod.namespace}/${pod.name}`, 'none', `not evicted: ${reason}`),
  )
  const decisions = plan.evict.map((c, rank) => {
    const tgps = c.pod.terminationGracePeriodSeconds
    const cap = policy.drain.maxGracePeriodSeconds
    const grace = cap === undefined ? tgps : Math.min(tgps ?? cap, cap)
    const reason = `drain ${node.name} (${why}): evict ${c.pod.namespace}/${c.pod.name}, ${rank + 1} of ${plan.evict.length} (priority ${c.priority}, ${c.qosClass}); if a PDB still blocks at ${deadline}: ${policy.drain.onDeadline === 'alert' ? 'alert, never force' : 'delete the pod'}`
    const preconditions = [
      { type: 'podOnNode' as const, podUid: c.pod.uid, nodeName: node.name },
      { type: 'podPhase' as const, phases: ['Pending', 'Running', 'Unknown'] },
      ...(s.rule.taint ? [{ type: 'taintPresent' as const, key: s.rule.taint.key, effect: s.rule.taint.effect }] : []),
      {
        type: 'conditionHolds' as const,
        condition: s.rule.condition,
        status: s.rule.status,
        ...(s.condition?.lastTransitionTime ? { since: s.condition.lastTransitionTime } : {}),
      },
    ]
    const evidence = {
      drainRank: rank + 1,
      drainSize: plan.evict.length,
      priority: c.priority,
      qosClass: c.qosClass,
      onDeadline: policy.drain.onDeadline,
    }
    verdicts.push(verdict(s.rule.id, `pod/${c.pod.namespace}/${c.pod.name}`, 'act', reason))
    const body = {
      action: 'evict' as const,
      target: podTarget(c.pod, node.name),
      deadline,
      ...(grace === undefined ? {} : { gracePeriodSeconds: grace }),
      // Only the opt-in is carried, so default decisions (and their ids) stay as they were.
      ...(policy.drain.onDeadline === 'delete' ? { onDeadline: 'delete' as const } : {}),
    }
    return makeDecision(
      body,
      { ruleId: s.rule.id, reason, evidence, preconditions, notBefore: undefined, budget },
      s.condition?.lastTransitionTime ?? 'unknown',
      now,
    )
  })
  return { decisions, verdicts }
}
