import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { defaultPolicy, PolicyError, parsePolicy } from '../../../shared/config/index.ts'
import type { NodeCondition, NodeView, SlimPod } from '../../../shared/messages/index.ts'
import { decide } from '../../../shared/policy/decide.ts'
import {
  ANNOTATION_LAST_RELIEF,
  DEFAULT_RELIEF_CONFIG,
  parseLastRelief,
  RELIEF_RULE_ID,
  renderLastRelief,
} from '../../../shared/pressure/index.ts'
import { toNodeStats } from '../../../shared/pressure/signals.ts'
import { SummarySchema } from '../../../shared/pressure/summary.ts'
import { aNode, aNodeView, aPod } from '../../fixtures/builders.ts'

const NOW = new Date('2026-11-22T10:00:05Z')
const raw = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../fixtures/summary/${name}.json`, import.meta.url), 'utf8'))
const stats = (name: string) => toNodeStats(SummarySchema.parse(raw(name)), NOW)
const diskPressure: NodeCondition = {
  type: 'DiskPressure',
  status: 'True',
  lastTransitionTime: '2026-11-22T09:58:00Z',
  lastHeartbeatTime: '2026-11-22T10:00:00Z',
}
const ready: NodeCondition = {
  type: 'Ready',
  status: 'True',
  lastTransitionTime: '2026-11-01T00:00:00Z',
  lastHeartbeatTime: '2026-11-22T10:00:00Z',
}
const pods = (): SlimPod[] => [
  aPod({ name: 'batch-1', priority: 1000 }),
  aPod({ name: 'web-1' }),
  aPod({
    namespace: 'kube-system',
    name: 'fluentd-x1',
    owners: [{ kind: 'DaemonSet', name: 'fluentd', controller: true }],
    containers: [{ name: 'fluentd' }],
  }),
]
const view = (over: Partial<NodeView> = {}): NodeView => aNodeView({ pods: pods(), ...over })
const policy = defaultPolicy()

describe('the policy document carries the pressure section', () => {
  it('defaults to the documented relief thresholds, interval and collection pace', () => {
    const p = defaultPolicy().pressure
    expect(p.relief.thresholds).toEqual(DEFAULT_RELIEF_CONFIG.relief.thresholds)
    expect({
      nodefs: p.relief.thresholds['nodefs.available'],
      memory: p.relief.thresholds['memory.available'],
      interval: p.relief.interval,
      short: p.collect.shortInterval,
      slow: p.collect.slowInterval,
      concurrency: p.collect.concurrency,
      kubeletHard: p.kubeletThresholds.map((t) => `${t.signal}<${t.value.text}`),
    }).toEqual({
      nodefs: '15%',
      memory: '500Mi',
      interval: 60_000,
      short: 15_000,
      slow: 300_000,
      concurrency: 8,
      kubeletHard: [
        'memory.available<100Mi',
        'nodefs.available<10%',
        'nodefs.inodesFree<5%',
        'imagefs.available<15%',
        'imagefs.inodesFree<5%',
        'allocatableMemory.available<100Mi',
      ],
    })
  })

  it.each([
    {
      name: 'a malformed kubelet hard threshold',
      doc: { pressure: { kubelet: { evictionHard: { 'memory.available': 'lots' } } } },
      field: 'pressure.kubelet.evictionHard["memory.available"]',
    },
    {
      name: 'a relief threshold below the kubelet hard one',
      doc: { pressure: { relief: { thresholds: { 'nodefs.available': '5%' } } } },
      field: 'pressure.relief.thresholds["nodefs.available"]',
    },
    {
      name: 'a percentage over 100',
      doc: { pressure: { relief: { thresholds: { 'imagefs.available': '120%' } } } },
      field: 'pressure.relief.thresholds["imagefs.available"]',
    },
    {
      name: 'an unknown signal',
      doc: { pressure: { kubelet: { evictionSoft: { 'disk.free': '1Gi' } } } },
      field: 'pressure.kubelet.evictionSoft["disk.free"]',
    },
    {
      name: 'a soft threshold without its grace period',
      doc: { pressure: { kubelet: { evictionSoft: { 'memory.available': '1Gi' } } } },
      field: 'pressure.kubelet.evictionSoftGracePeriod["memory.available"]',
    },
    { name: 'a bad interval', doc: { pressure: { relief: { interval: 'soon' } } }, field: 'pressure.relief.interval' },
    {
      name: 'a zero concurrency',
      doc: { pressure: { collect: { concurrency: 0 } } },
      field: 'pressure.collect.concurrency',
    },
  ])('fails at load naming the field for $name', ({ doc, field }) => {
    try {
      parsePolicy(doc)
      expect.unreachable('should have thrown')
    } catch (err) {
      expect(err).toBeInstanceOf(PolicyError)
      expect((err as PolicyError).issues.some((i) => i.startsWith(`${field}:`))).toBe(true)
    }
  })
})

describe('decide runs pressure relief when the view carries kubelet stats', () => {
  const withStats = view({ stats: stats('node-disk-pressure') })
  const out = decide(withStats, policy, NOW)

  it('proposes one relief eviction of the top-ranked unprotected pod, beside the other rules', () => {
    const relief = out.decisions.filter((d) => d.ruleId === RELIEF_RULE_ID)
    expect(relief).toHaveLength(1)
    expect(relief[0]).toMatchObject({ action: 'evict', target: { name: 'web-1' }, budget: { kind: 'relief' } })
    expect(relief[0]?.evidence).toMatchObject({ signal: 'nodefs.available', reliefIntervalSeconds: 60 })
    expect(out.verdicts.find((v) => v.ruleId === RELIEF_RULE_ID)?.outcome).toBe('act')
  })

  it('sends the PressureRelief and ProtectedPodAtRisk alerts with the rest', () => {
    const kinds = out.alerts.map((a) => a.kind)
    expect(kinds).toContain('PressureRelief')
    expect(kinds).toContain('ProtectedPodAtRisk')
  })

  it('is deterministic: the same view, policy and clock give the same decisions and alerts', () => {
    expect(decide(withStats, policy, NOW)).toEqual(out)
  })

  it('holds back and says so when the node was relieved within the interval', () => {
    const stamped = view({
      stats: stats('node-disk-pressure'),
      node: aNode({
        annotations: { [ANNOTATION_LAST_RELIEF]: renderLastRelief({ at: '2026-11-22T09:59:50Z', pod: 'default/x' }) },
      }),
    })
    const held = decide(stamped, policy, NOW)
    expect(held.decisions.filter((d) => d.ruleId === RELIEF_RULE_ID)).toEqual([])
    expect(held.verdicts.find((v) => v.ruleId === RELIEF_RULE_ID)).toMatchObject({ outcome: 'hold' })
    expect(held.verdicts.find((v) => v.ruleId === RELIEF_RULE_ID)?.reason).toContain('(default/x)')
  })

  it('does not run relief on a deleted node', () => {
    const gone = decide({ ...withStats, cause: 'deleted', pods: [] }, policy, NOW)
    expect(gone.decisions.filter((d) => d.ruleId === RELIEF_RULE_ID)).toEqual([])
  })
})

describe('a pressure condition with unknown signals is alerted, never silent', () => {
  it.each([
    {
      name: 'no stats collected',
      view: () => view({ node: aNode({ conditions: [ready, diskPressure] }) }),
      says: 'no kubelet stats collected for this node',
    },
    {
      name: 'stats too old',
      view: () =>
        view({
          node: aNode({ conditions: [ready, diskPressure] }),
          stats: { ...stats('node-disk-pressure'), observedAt: '2026-11-22T09:50:00Z' },
        }),
      says: 'kubelet stats are 605s old',
    },
    {
      name: 'the filesystems not reported',
      view: () => view({ node: aNode({ conditions: [ready, diskPressure] }), stats: stats('node-partial') }),
      says: 'not reported',
    },
  ])('DiskPressure with $name fires a PressureRelief alert saying the signal is unknown', ({ view, says }) => {
    const out = decide(view(), policy, NOW)
    const alert = out.alerts.find((a) => a.kind === 'PressureRelief' && a.details.condition === 'DiskPressure')
    expect(alert?.summary).toContain('DiskPressure')
    expect(alert?.summary).toContain('unknown')
    expect(alert?.summary).toContain(says)
    expect(out.decisions.filter((d) => d.ruleId === RELIEF_RULE_ID)).toEqual([])
  })

  it('stays quiet about unknown signals when no pressure condition is reported', () => {
    const out = decide(view(), policy, NOW)
    expect(out.alerts.filter((a) => a.kind === 'PressureRelief')).toEqual([])
    expect(out.verdicts.find((v) => v.ruleId === RELIEF_RULE_ID)?.reason).toContain('every signal unknown')
  })

  it('does not add the unknown-signal alert when a known signal explains the condition', () => {
    const out = decide(
      view({ node: aNode({ conditions: [ready, diskPressure] }), stats: stats('node-disk-pressure') }),
      policy,
      NOW,
    )
    expect(out.alerts.filter((a) => a.kind === 'PressureRelief' && a.details.condition !== undefined)).toEqual([])
  })
})

describe('the last-relief stamp', () => {
  it.each([
    {
      name: 'JSON with pod and decision',
      text: '{"at":"2026-11-22T10:00:00Z","pod":"a/b","decision":"d1"}',
      at: '2026-11-22T10:00:00Z',
    },
    { name: 'a bare timestamp', text: '2026-11-22T10:00:00Z', at: '2026-11-22T10:00:00Z' },
    { name: 'garbage', text: 'yesterday', at: undefined },
    { name: 'JSON without a time', text: '{"pod":"a/b"}', at: undefined },
  ])('reads $name', ({ text, at }) => {
    expect(parseLastRelief(text)?.at).toBe(at)
  })
})
