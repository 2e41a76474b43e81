import type { Policy } from '../config/index.ts'
import type { Decision, SlimNode } from '../messages/index.ts'
import type { RuleState } from './condition-state.ts'
import { makeDecision, nodeTarget } from './decision-builders.ts'
import { secs, type Verdict, verdict } from './verdict.ts'

export type TaintPlan = { decision?: Decision; verdict: Verdict; needsBrake: boolean }
type Ctx = { node: SlimNode; s: RuleState; now: Date; status: string }

/**
 * decideConditionTaint returns what should happen to a rule's taint on this node at `now`:
 * taint once the condition has held `for`, untaint once it has been healthy `healthyFor`;
 * a step not yet due is a decision with `notBefore` and preconditions, never a wait.
 */
export function decideConditionTaint(
  node: SlimNode,
  s: RuleState,
  policy: Pick<Policy, 'conditions'>,
  now: Date,
): TaintPlan {
  const none = (reason: string): TaintPlan => ({
    verdict: verdict(s.rule.id, `node/${node.name}`, 'none', reason),
    needsBrake: false,
  })
  if (!s.rule.taint) return none('rule has no taint')
  if (s.stale) return none(s.stale)
  const status = s.condition ? `${s.rule.condition}=${s.condition.status}` : `${s.rule.condition} absent`
  const ctx = { node, s, now, status }
  if (s.matches) return s.taint ? none(`${status}: ${s.taint.key}:${s.taint.effect} already present`) : planTaint(ctx)
  if (!s.taint) return none(`${status}, rule wants ${s.rule.status}`)
  return planUntaint(ctx, s.rule.healthyFor ?? policy.conditions.healthyFor)
}

function ruleTaint(s: RuleState) {
  const t = s.rule.taint ?? { key: '', value: '', effect: 'NoSchedule' as const }
  return { key: t.key, value: t.value, effect: t.effect }
}

function planTaint({ node, s, now, status }: Ctx): TaintPlan {
  const taint = ruleTaint(s)
  const since = s.condition?.lastTransitionTime
  const heldMs = s.sinceMs === undefined ? 0 : now.getTime() - s.sinceMs
  const dueMs = (s.sinceMs ?? now.getTime()) + s.rule.for
  const due = dueMs <= now.getTime()
  const what = `add ${taint.key}:${taint.effect}`
  const reason = due
    ? `${status} for ${secs(heldMs)}s (≥ ${secs(s.rule.for)}s): ${what}`
    : `${status} for ${secs(heldMs)}s of ${secs(s.rule.for)}s: ${what} at ${new Date(dueMs).toISOString()}`
  const preconditions = [
    {
      type: 'conditionHolds' as const,
      condition: s.rule.condition,
      status: s.rule.status,
      ...(since ? { since } : {}),
    },
    { type: 'taintAbsent' as const, key: taint.key, effect: taint.effect },
    { type: 'nodeUid' as const, uid: node.uid },
  ]
  const evidence = {
    condition: s.rule.condition,
    status: s.rule.status,
    since: since ?? null,
    heldSeconds: secs(heldMs),
  }
  const notBefore = due ? undefined : new Date(dueMs).toISOString()
  const common = { ruleId: s.rule.id, reason, evidence, preconditions, notBefore, budget: undefined }
  const decision = makeDecision({ action: 'taint', target: nodeTarget(node), taint }, common, since ?? 'unknown', now)
  return {
    decision,
    verdict: verdict(s.rule.id, `node/${node.name}`, due ? 'act' : 'wait', reason),
    needsBrake: taint.effect === 'NoExecute',
  }
}

function planUntaint({ node, s, now, status }: Ctx, healthyFor: number): TaintPlan {
  const taint = ruleTaint(s)
  const since = s.condition?.lastTransitionTime
  // A condition that vanished has no transition time: it counts as healthy long enough.
  const dueMs = s.sinceMs === undefined ? now.getTime() : s.sinceMs + healthyFor
  const due = dueMs <= now.getTime()
  const what = `remove ${taint.key}:${taint.effect}`
  const reason = due
    ? `${status}${since ? ` since ${since}` : ''}, healthy ≥ ${secs(healthyFor)}s: ${what}`
    : `${status} since ${since}: ${what} once healthy for ${secs(healthyFor)}s, at ${new Date(dueMs).toISOString()}`
  const preconditions = [
    { type: 'taintPresent' as const, key: taint.key, effect: taint.effect },
    { type: 'conditionNot' as const, condition: s.rule.condition, status: s.rule.status },
    { type: 'nodeUid' as const, uid: node.uid },
  ]
  const evidence = { condition: s.rule.condition, status: s.condition?.status ?? null, since: since ?? null }
  const notBefore = due ? undefined : new Date(dueMs).toISOString()
  const common = { ruleId: s.rule.id, reason, evidence, preconditions, notBefore, budget: undefined }
  const decision = makeDecision({ action: 'untaint', target: nodeTarget(node), taint }, common, since ?? 'absent', now)
  return { decision, verdict: verdict(s.rule.id, `node/${node.name}`, due ? 'act' : 'wait', reason), needsBrake: false }
}
