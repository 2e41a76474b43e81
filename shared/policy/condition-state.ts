import type { ConditionRule, Policy } from '../config/index.ts'
import type { NodeCondition, SlimNode, Taint } from '../messages/index.ts'
import { secs } from './verdict.ts'

/** What one condition rule sees on one node at `now`, computed once and shared by its deciders. */
export type RuleState = {
  rule: ConditionRule
  condition: NodeCondition | undefined
  /** The node's taint for this rule (key + effect), when present. */
  taint: Taint | undefined
  /** The condition currently has the rule's status. */
  matches: boolean
  /** Set when the condition's heartbeat is older than staleAfter: the rule ignores it. */
  stale: string | undefined
  /** When the condition entered its current status (ms since epoch), when known. */
  sinceMs: number | undefined
}

/** ruleStateOf reads the rule's condition and taint on the node. */
export function ruleStateOf(
  node: SlimNode,
  rule: ConditionRule,
  policy: Pick<Policy, 'conditions'>,
  now: Date,
): RuleState {
  const condition = node.conditions.find((c) => c.type === rule.condition)
  const taint = rule.taint && node.taints.find((t) => t.key === rule.taint?.key && t.effect === rule.taint.effect)
  const staleAfter = rule.staleAfter ?? policy.conditions.staleAfter
  const beat = condition?.lastHeartbeatTime ? Date.parse(condition.lastHeartbeatTime) : undefined
  const age = beat === undefined ? 0 : now.getTime() - beat
  const stale =
    age > staleAfter
      ? `${rule.condition} heartbeat is ${secs(age)}s old (> ${secs(staleAfter)}s): its reporter may be gone, condition ignored`
      : undefined
  const sinceMs = condition?.lastTransitionTime ? Date.parse(condition.lastTransitionTime) : undefined
  return { rule, condition, taint, matches: condition?.status === rule.status, stale, sinceMs }
}
