import { describe, expect, it } from 'vitest'
import { defaultPolicy } from '../../../shared/config/index.ts'
import type { NodeCondition, Taint } from '../../../shared/messages/index.ts'
import { DecisionSchema } from '../../../shared/messages/index.ts'
import { ruleStateOf } from '../../../shared/policy/condition-state.ts'
import { decideConditionTaint } from '../../../shared/policy/decide-condition-taint.ts'
import { aNode } from '../../fixtures/builders.ts'

const policy = defaultPolicy()
const rule = policy.conditionRules.find((r) => r.id === 'kernel-deadlock')
if (!rule) throw new Error('default rule kernel-deadlock missing')
const NOW = new Date('2026-11-22T10:30:00Z')
const ready: NodeCondition = {
  type: 'Ready',
  status: 'True',
  lastTransitionTime: '2026-11-01T00:00:00Z',
  lastHeartbeatTime: '2026-11-22T10:29:50Z',
}
const kd = (status: 'True' | 'False', since: string, beat = '2026-11-22T10:29:00Z'): NodeCondition => ({
  type: 'KernelDeadlock',
  status,
  lastTransitionTime: since,
  lastHeartbeatTime: beat,
})
const taint: Taint = {
  key: 'nodewarden.io/kernel-deadlock',
  value: '',
  effect: 'NoSchedule',
  timeAdded: '2026-11-22T10:12:00Z',
}

describe('decideConditionTaint (KernelDeadlock: for 10m, healthy 5m, stale after 15m)', () => {
  it.each([
    {
      name: 'condition absent, no taint: nothing',
      conditions: [ready],
      taints: [],
      outcome: 'none',
      action: undefined,
      notBefore: undefined,
      reason: 'KernelDeadlock absent',
    },
    {
      name: 'held 4m of 10m: taint decision not before the due time',
      conditions: [ready, kd('True', '2026-11-22T10:26:00Z')],
      taints: [],
      outcome: 'wait',
      action: 'taint',
      notBefore: '2026-11-22T10:36:00.000Z',
      reason: 'for 240s of 600s',
    },
    {
      name: 'held 30m: taint now',
      conditions: [ready, kd('True', '2026-11-22T10:00:00Z')],
      taints: [],
      outcome: 'act',
      action: 'taint',
      notBefore: undefined,
      reason: 'for 1800s (≥ 600s)',
    },
    {
      name: 'held and already tainted: nothing',
      conditions: [ready, kd('True', '2026-11-22T10:00:00Z')],
      taints: [taint],
      outcome: 'none',
      action: undefined,
      notBefore: undefined,
      reason: 'already present',
    },
    {
      name: 'cleared 2m ago with taint: untaint not before healthy 5m',
      conditions: [ready, kd('False', '2026-11-22T10:28:00Z')],
      taints: [taint],
      outcome: 'wait',
      action: 'untaint',
      notBefore: '2026-11-22T10:33:00.000Z',
      reason: 'once healthy for 300s',
    },
    {
      name: 'cleared 10m ago with taint: untaint now',
      conditions: [ready, kd('False', '2026-11-22T10:20:00Z')],
      taints: [taint],
      outcome: 'act',
      action: 'untaint',
      notBefore: undefined,
      reason: 'healthy ≥ 300s',
    },
    {
      name: 'condition gone with taint: untaint now',
      conditions: [ready],
      taints: [taint],
      outcome: 'act',
      action: 'untaint',
      notBefore: undefined,
      reason: 'KernelDeadlock absent',
    },
    {
      name: 'stale heartbeat (20m): ignored, no taint',
      conditions: [ready, kd('True', '2026-11-22T09:00:00Z', '2026-11-22T10:10:00Z')],
      taints: [],
      outcome: 'none',
      action: undefined,
      notBefore: undefined,
      reason: 'heartbeat is 1200s old',
    },
    {
      name: 'stale heartbeat: ignored, no untaint either',
      conditions: [ready, kd('False', '2026-11-22T09:00:00Z', '2026-11-22T10:10:00Z')],
      taints: [taint],
      outcome: 'none',
      action: undefined,
      notBefore: undefined,
      reason: 'condition ignored',
    },
  ])('$name', ({ conditions, taints, outcome, action, notBefore, reason }) => {
    const node = aNode({ conditions, taints })
    const plan = decideConditionTaint(node, ruleStateOf(node, rule, policy, NOW), policy, NOW)
    expect(plan.verdict.outcome).toBe(outcome)
    expect(plan.verdict.reason).toContain(reason)
    expect(plan.decision?.action).toBe(action)
    expect(plan.decision?.notBefore).toBe(notBefore)
    if (plan.decision) {
      expect(DecisionSchema.parse(plan.decision)).toEqual(plan.decision)
      expect(plan.decision.reason).toBe(plan.verdict.reason)
    }
  })

  it('a pending taint carries the preconditions the writer re-checks', () => {
    const node = aNode({ conditions: [ready, kd('True', '2026-11-22T10:26:00Z')] })
    const plan = decideConditionTaint(node, ruleStateOf(node, rule, policy, NOW), policy, NOW)
    expect(plan.decision?.preconditions).toEqual([
      { type: 'conditionHolds', condition: 'KernelDeadlock', status: 'True', since: '2026-11-22T10:26:00Z' },
      { type: 'taintAbsent', key: 'nodewarden.io/kernel-deadlock', effect: 'NoSchedule' },
      { type: 'nodeUid', uid: node.uid },
    ])
  })

  it('the same situation later gives the same decision id (anchored on lastTransitionTime, not now)', () => {
    const node = aNode({ conditions: [ready, kd('True', '2026-11-22T10:26:00Z')] })
    const a = decideConditionTaint(node, ruleStateOf(node, rule, policy, NOW), policy, NOW)
    const later = new Date(NOW.getTime() + 60_000)
    const b = decideConditionTaint(node, ruleStateOf(node, rule, policy, later), policy, later)
    expect(b.decision?.id).toBe(a.decision?.id)
  })
})
