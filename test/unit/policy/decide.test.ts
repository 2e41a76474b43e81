import { describe, expect, it } from 'vitest'
import { defaultPolicy } from '../../../shared/config/index.ts'
import { AlertSchema, DecisionSchema, type NodeCondition, type ZoneSummary } from '../../../shared/messages/index.ts'
import { decide } from '../../../shared/policy/decide.ts'
import { fractionLimit } from '../../../shared/policy/zone-brake.ts'
import { aNode, aNodeView, aPod } from '../../fixtures/builders.ts'

const NOW = new Date('2026-11-22T10:30:00Z')
const ready: NodeCondition = {
  type: 'Ready',
  status: 'True',
  lastTransitionTime: '2026-11-01T00:00:00Z',
  lastHeartbeatTime: '2026-11-22T10:29:50Z',
}
const kd = (status: 'True' | 'False', since: string): NodeCondition => ({
  type: 'KernelDeadlock',
  status,
  lastTransitionTime: since,
  lastHeartbeatTime: '2026-11-22T10:29:00Z',
})
const ZONE = 'eu-west-1:\u0000:eu-west-1a'
const zone = (ready: number, notReady: number, affected?: number): ZoneSummary => ({
  zone: ZONE,
  ready,
  notReady,
  total: ready + notReady,
  ...(affected === undefined ? {} : { affected }),
})
const kdTaint = {
  key: 'nodewarden.io/kernel-deadlock',
  value: '',
  effect: 'NoSchedule' as const,
  timeAdded: '2026-11-22T10:12:00Z',
}
/** A NoExecute variant of the KernelDeadlock rule, to exercise the zone brakes on taints. */
const noExecutePolicy = defaultPolicy({
  conditionRules: [
    {
      id: 'kd',
      condition: 'KernelDeadlock',
      for: '10m',
      taint: { key: 'nodewarden.io/kd', effect: 'NoExecute' },
      severity: 'critical',
    },
  ],
})

function drainingView(zones: ZoneSummary[]) {
  const pods = [
    aPod({ name: 'guaranteed', priority: 0, qosClass: 'Guaranteed' }),
    aPod({ name: 'best-effort', priority: 0, qosClass: 'BestEffort' }),
    aPod({ name: 'burstable', priority: 0, qosClass: 'Burstable' }),
    aPod({ name: 'low', priority: -10, qosClass: 'Guaranteed' }),
    aPod({ name: 'high', priority: 1000, qosClass: 'BestEffort' }),
    aPod({ name: 'ds', owners: [{ kind: 'DaemonSet', name: 'cni' }] }),
    aPod({ name: 'mirror', annotations: { 'kubernetes.io/config.mirror': 'x' } }),
    aPod({ name: 'done', phase: 'Succeeded' }),
    aPod({ name: 'critical', priority: 2_000_000_000 }),
  ]
  return aNodeView({
    node: aNode({ conditions: [ready, kd('True', '2026-11-22T10:00:00Z')], taints: [kdTaint] }),
    pods,
    zones,
  })
}

describe('decide: drains', () => {
  it('evicts evictable pods lowest priority first, BestEffort < Burstable < Guaranteed at equal priority, never protected, mirror, DaemonSet or terminal ones', () => {
    const r = decide(drainingView([zone(9, 1)]), defaultPolicy(), NOW)
    const evicts = r.decisions.filter((d) => d.action === 'evict')
    expect(evicts.map((d) => (d.target.kind === 'Pod' ? d.target.name : ''))).toEqual([
      'low',
      'best-effort',
      'burstable',
      'guaranteed',
      'high',
    ])
    for (const d of evicts) {
      expect(d.budget).toMatchObject({ kind: 'drain', zone: ZONE })
      expect(d.action === 'evict' && d.deadline).toBe('2026-11-22T10:42:00.000Z')
      expect(d.evidence.onDeadline).toBe('alert')
    }
    const skipped = r.verdicts.filter((v) => v.reason.startsWith('not evicted')).map((v) => v.subject)
    expect(skipped).toEqual(['pod/default/ds', 'pod/default/mirror', 'pod/default/done', 'pod/default/critical'])
  })

  it('carries onDeadline: delete on each drain eviction only when the policy opts in', () => {
    const byDefault = decide(drainingView([zone(9, 1)]), defaultPolicy(), NOW).decisions.filter(
      (d) => d.action === 'evict',
    )
    expect(byDefault.every((d) => d.action === 'evict' && d.onDeadline === undefined)).toBe(true)
    const policy = defaultPolicy()
    const forcing = { ...policy, drain: { ...policy.drain, onDeadline: 'delete' as const } }
    const evicts = decide(drainingView([zone(9, 1)]), forcing, NOW).decisions.filter((d) => d.action === 'evict')
    expect(evicts).toHaveLength(byDefault.length)
    for (const d of evicts) {
      expect(d.action === 'evict' && d.onDeadline).toBe('delete')
      expect(d.reason).toContain('delete the pod')
      expect(DecisionSchema.parse(d)).toEqual(d)
    }
  })

  it('waits for the taint before draining', () => {
    const view = aNodeView({ node: aNode({ conditions: [ready, kd('True', '2026-11-22T10:00:00Z')] }), pods: [aPod()] })
    const r = decide(view, defaultPolicy(), NOW)
    expect(r.decisions.map((d) => d.action)).toEqual(['taint'])
    expect(
      r.verdicts.some((v) => v.reason.includes('drain starts once nodewarden.io/kernel-deadlock is on the node')),
    ).toBe(true)
  })

  it('holds the drain and raises one zone alert when the zone is partially disrupted and small', () => {
    const r = decide(drainingView([zone(2, 4)]), defaultPolicy(), NOW)
    expect(r.decisions.filter((d) => d.action === 'evict')).toEqual([])
    expect(r.verdicts.filter((v) => v.outcome === 'hold').map((v) => v.reason)).toEqual([
      expect.stringContaining('PartialDisruption (4 of 6 nodes not Ready)'),
    ])
    expect(r.alerts.filter((a) => a.kind === 'ZoneBrake')).toHaveLength(1)
    expect(r.alerts.some((a) => a.kind === 'ConditionTainted')).toBe(false)
  })

  it("marks the node's other non-critical alerts to fold into that zone alert, only while the brake holds", () => {
    const braked = decide(drainingView([zone(2, 4)]), defaultPolicy(), NOW).alerts
    const zoneAlert = braked.find((a) => a.kind === 'ZoneBrake')
    const others = braked.filter((a) => a.kind !== 'ZoneBrake')
    for (const a of others) expect(a.foldInto).toBe(a.severity === 'critical' ? undefined : zoneAlert?.id)
    expect(zoneAlert?.foldInto).toBeUndefined()
    // A node of the same zone with nothing held (audit alerts only) folds into the zone's alert id too.
    const calm = decide(
      aNodeView({ node: aNode({ conditions: [ready] }), pods: [aPod({ tolerations: [] })], zones: [zone(2, 4)] }),
      defaultPolicy(),
      NOW,
    )
    expect(calm.alerts.length).toBeGreaterThan(0)
    expect(calm.alerts.every((a) => a.foldInto === zoneAlert?.id)).toBe(true)
    const normal = decide(drainingView([zone(9, 1)]), defaultPolicy(), NOW).alerts
    expect(normal.length).toBeGreaterThan(0)
    expect(normal.every((a) => a.foldInto === undefined)).toBe(true)
  })

  it('the fraction guard holds a drain when the zone already has its 20% affected, but not the node already counted', () => {
    const other = decide(
      aNodeView({
        node: aNode({ conditions: [ready, kd('True', '2026-11-22T10:00:00Z')], taints: [] }),
        zones: [zone(10, 0, 2)],
      }),
      noExecutePolicy,
      NOW,
    )
    expect(other.verdicts.find((v) => v.outcome === 'hold')?.reason).toContain(
      'already has 2 of 10 nodes affected by nodewarden; the 20% guard allows 2',
    )
    const self = decide(drainingView([zone(10, 0, 2)]), defaultPolicy(), NOW)
    expect(self.verdicts.filter((v) => v.outcome === 'hold')).toEqual([])
    expect(self.decisions.filter((d) => d.action === 'evict')).toHaveLength(5)
    const crowded = decide(drainingView([zone(10, 0, 3)]), defaultPolicy(), NOW)
    expect(crowded.verdicts.filter((v) => v.outcome === 'hold').map((v) => v.reason)).toEqual([
      expect.stringContaining('already has 2 of 10'),
    ])
  })
})

describe('fractionLimit: the zone nodes nodewarden may affect at once (decide and the writer ledger share it)', () => {
  it.each([
    { total: 10, fraction: 0.2, limit: 2 },
    { total: 7, fraction: 0.2, limit: 1 }, // 1.4 rounds down: two nodes would be 28 %
    { total: 14, fraction: 0.2, limit: 2 },
    { total: 3, fraction: 0.2, limit: 1 }, // a small zone can still have one node repaired
    { total: 100, fraction: 0.05, limit: 5 },
  ])('$total nodes at $fraction → $limit', ({ total, fraction, limit }) => {
    expect(fractionLimit(total, fraction)).toBe(limit)
  })
})

describe('decide: zone brakes on NoExecute taints', () => {
  const view = (zones: ZoneSummary[]) =>
    aNodeView({ node: aNode({ conditions: [ready, kd('True', '2026-11-22T10:00:00Z')] }), zones })
  it.each([
    {
      name: 'Normal zone: taint with a budget claim at the normal rate',
      zones: [zone(10, 0)],
      held: undefined,
      rate: 0.1,
    },
    { name: 'Partial in a large zone (> 50): secondary rate', zones: [zone(40, 60)], held: undefined, rate: 0.01 },
    { name: 'Partial in a small zone: held, rate 0', zones: [zone(2, 4)], held: 'partial-disruption', rate: undefined },
    {
      name: 'this zone fully down, another up: normal rate',
      zones: [zone(0, 5), { zone: 'other', ready: 3, notReady: 0, total: 3 }],
      held: undefined,
      rate: 0.1,
    },
    {
      name: 'every zone fully down: held everywhere',
      zones: [zone(0, 5), { zone: 'other', ready: 0, notReady: 3, total: 3 }],
      held: 'all-zones-down',
      rate: undefined,
    },
  ])('$name', ({ zones, held, rate }) => {
    const r = decide(view(zones), noExecutePolicy, NOW)
    const taint = r.decisions.find((d) => d.action === 'taint')
    if (held) {
      expect(taint).toBeUndefined()
      const alert = r.alerts.find((a) => a.kind === 'ZoneBrake')
      expect(alert?.details).toMatchObject({ heldHere: [expect.stringContaining('add nodewarden.io/kd:NoExecute')] })
      expect(r.alerts.some((a) => a.kind === 'ConditionTainted')).toBe(false)
    } else
      expect(taint?.budget).toEqual({
        kind: 'noExecuteTaint',
        zone: zones[0]?.zone,
        zoneNodes: zones[0]?.total,
        ratePerSecond: rate,
      })
  })
  it('the zone alert id is the same from every node of the zone', () => {
    const a = decide(view([zone(2, 4)]), noExecutePolicy, NOW).alerts.find((x) => x.kind === 'ZoneBrake')
    const otherNode = aNodeView({
      node: aNode({ name: 'node-b', conditions: [ready, kd('True', '2026-11-22T10:05:00Z')] }),
      zones: [zone(2, 4)],
    })
    const b = decide(otherNode, noExecutePolicy, NOW).alerts.find((x) => x.kind === 'ZoneBrake')
    expect(a?.id).toBeDefined()
    expect(b?.id).toBe(a?.id)
  })
})

describe('decide: alerts', () => {
  it('fires ConditionTainted and the latest escalation step reached, then resolves both ids when the condition clears', () => {
    const firing = decide(drainingView([zone(9, 1)]), defaultPolicy(), NOW).alerts
    const tainted = firing.find((a) => a.kind === 'ConditionTainted')
    const step = firing.find((a) => a.kind === 'RemediationEscalation')
    expect(tainted).toMatchObject({ status: 'firing', severity: 'critical', startsAt: '2026-11-22T10:00:00Z' })
    expect(step?.summary).toContain('remediation step restart is due')
    const healed = aNodeView({
      node: aNode({ conditions: [ready, kd('False', '2026-11-22T10:29:00Z')], taints: [kdTaint] }),
    })
    const resolved = decide(healed, defaultPolicy(), NOW).alerts
    expect(resolved.find((a) => a.id === tainted?.id)).toMatchObject({
      status: 'resolved',
      endsAt: '2026-11-22T10:29:00Z',
    })
    expect(resolved.find((a) => a.id === step?.id)?.status).toBe('resolved')
  })

  it('every decision and alert validates against its message schema', () => {
    const r = decide(
      drainingView([zone(9, 1)]),
      defaultPolicy({ tolerations: { backfill: true }, audits: { deleteEvictedPods: true } }),
      NOW,
    )
    for (const d of r.decisions) expect(() => DecisionSchema.parse(d)).not.toThrow()
    for (const a of r.alerts) expect(() => AlertSchema.parse(a)).not.toThrow()
  })

  it('is deterministic: same view, policy and clock → same decisions and alerts', () => {
    const a = decide(drainingView([zone(9, 1)]), defaultPolicy(), NOW)
    const b = decide(drainingView([zone(9, 1)]), defaultPolicy(), NOW)
    expect(b.decisions).toEqual(a.decisions)
    expect(b.alerts).toEqual(a.alerts)
  })
})

describe('decide: audits', () => {
  const node = aNode()
  it('pods missing default tolerations: one alert, backfill decisions only when the policy opts in', () => {
    const pods = [
      aPod({ name: 'bare', tolerations: [] }),
      aPod({
        name: 'half',
        tolerations: [
          { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        ],
      }),
      aPod({ name: 'ok' }),
    ]
    const off = decide(aNodeView({ node, pods }), defaultPolicy(), NOW)
    expect(off.alerts.filter((a) => a.kind === 'MissingDefaultTolerations')).toHaveLength(1)
    expect(off.decisions).toEqual([])
    const on = decide(aNodeView({ node, pods }), defaultPolicy({ tolerations: { backfill: true } }), NOW)
    const backfills = on.decisions.flatMap((d) =>
      d.action === 'backfillTolerations'
        ? [[d.target.name, d.tolerations.map((t) => `${t.key}/${t.tolerationSeconds}`)]]
        : [],
    )
    expect(backfills).toEqual([
      ['bare', ['node.kubernetes.io/not-ready/300', 'node.kubernetes.io/unreachable/300']],
      ['half', ['node.kubernetes.io/unreachable/300']],
    ])
  })

  it('kube-system and critical-annotated pods without system priority are reported; static and system-priority ones are not', () => {
    const pods = [
      aPod({ namespace: 'kube-system', name: 'coredns', priority: 0 }),
      aPod({ namespace: 'default', name: 'legacy', annotations: { 'scheduler.alpha.kubernetes.io/critical-pod': '' } }),
      aPod({ namespace: 'kube-system', name: 'proxy', priority: 2_000_001_000 }),
      aPod({ namespace: 'kube-system', name: 'apiserver', annotations: { 'kubernetes.io/config.source': 'file' } }),
    ]
    const alert = decide(aNodeView({ node, pods }), defaultPolicy(), NOW).alerts.find(
      (a) => a.kind === 'CriticalWithoutSystemPriority',
    )
    expect(alert?.details.pods).toEqual([
      'kube-system/coredns (in kube-system, priority 0)',
      'default/legacy (annotated scheduler.alpha.kubernetes.io/critical-pod, priority 0)',
    ])
  })

  it('critical pods Pending past the threshold are alerted one by one', () => {
    const pods = [
      aPod({ name: 'stuck', phase: 'Pending', priority: 2_000_000_000, creationTimestamp: '2026-11-22T10:00:00Z' }),
      aPod({ name: 'young', phase: 'Pending', priority: 2_000_000_000, creationTimestamp: '2026-11-22T10:28:00Z' }),
      aPod({ name: 'ordinary', phase: 'Pending', creationTimestamp: '2026-11-22T10:00:00Z' }),
    ]
    const alerts = decide(aNodeView({ node, pods }), defaultPolicy(), NOW).alerts.filter(
      (a) => a.kind === 'CriticalPodPending',
    )
    expect(alerts.map((a) => a.subject.name)).toEqual(['stuck'])
    expect(alerts[0]?.summary).toContain('Pending for 1800s')
  })

  it('kubelet-evicted pods older than retention: one summary alert; deleteEvictedPod only when opted in', () => {
    const pods = [
      aPod({ name: 'old', phase: 'Failed', reason: 'Evicted', finishedAt: '2026-11-20T00:00:00Z' }),
      aPod({ name: 'recent', phase: 'Failed', reason: 'Evicted', finishedAt: '2026-11-22T10:00:00Z' }),
      aPod({ name: 'crashed', phase: 'Failed', reason: 'Error', finishedAt: '2026-11-20T00:00:00Z' }),
    ]
    const off = decide(aNodeView({ node, pods }), defaultPolicy(), NOW)
    expect(off.alerts.filter((a) => a.kind === 'EvictedPodsCleanup').map((a) => a.details.pods)).toEqual([
      ['default/old'],
    ])
    expect(off.decisions).toEqual([])
    const on = decide(aNodeView({ node, pods }), defaultPolicy({ audits: { deleteEvictedPods: true } }), NOW)
    expect(on.decisions.map((d) => [d.action, d.target.name])).toEqual([['deleteEvictedPod', 'old']])
  })
})
