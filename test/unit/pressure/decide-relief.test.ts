import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { PolicySchema } from '../../../shared/config/index.ts'
import type { NodeView, SlimPod } from '../../../shared/messages/index.ts'
import { ReliefConfigSchema } from '../../../shared/pressure/config.ts'
import { decideRelief, type PressurePolicy } from '../../../shared/pressure/decide-relief.ts'
import { pressureReport } from '../../../shared/pressure/report.ts'
import { toNodeStats } from '../../../shared/pressure/signals.ts'
import { SummarySchema } from '../../../shared/pressure/summary.ts'
import { aNode, aNodeView, aPod } from '../../fixtures/builders.ts'

const NOW = new Date('2026-11-22T10:00:05Z')
const raw = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../fixtures/summary/${name}.json`, import.meta.url), 'utf8'))
const base = PolicySchema.parse({})
const policy = (pressure: unknown = {}): PressurePolicy => ({
  pressure: ReliefConfigSchema.parse(pressure),
  protection: base.protection,
  alerts: base.alerts,
})
const batch = (over: Partial<SlimPod> = {}) => aPod({ name: 'batch-1', priority: 1000, ...over })
const web = () => aPod({ name: 'web-1' })
const fluentd = () =>
  aPod({
    namespace: 'kube-system',
    name: 'fluentd-x1',
    owners: [{ kind: 'DaemonSet', name: 'fluentd', controller: true }],
    containers: [{ name: 'fluentd' }],
  })
const diskView = (pods: SlimPod[] = [batch(), web(), fluentd()], extra: Partial<NodeView> = {}): NodeView =>
  aNodeView({
    pods,
    stats: toNodeStats(SummarySchema.parse(raw('node-disk-pressure')), NOW),
    ...extra,
  })

describe('decideRelief: disk pressure above the kubelet hard threshold', () => {
  const out = decideRelief(diskView(), policy(), NOW)

  it('evicts the top-ranked unprotected pod through an evict decision, never the protected add-on', () => {
    expect(out.decisions).toHaveLength(1)
    const d = out.decisions[0]
    expect(d?.action).toBe('evict')
    expect(d?.target).toMatchObject({ kind: 'Pod', namespace: 'default', name: 'web-1', nodeName: 'node-a' })
    expect(d?.budget).toEqual({ kind: 'relief', zone: 'eu-west-1:\u0000:eu-west-1a' })
  })

  it('states the signal, the observed value, the thresholds and the ranking in the reason', () => {
    const reason = out.decisions[0]?.reason ?? ''
    expect(reason).toContain('nodefs.available 12288.0Mi < relief threshold 15% (15360.0Mi)')
    expect(reason).toContain("ranked 2nd of 3 by the kubelet's disk ranking")
    expect(reason).toContain('skipped kube-system/fluentd-x1 (owned by a DaemonSet)')
    expect(out.decisions[0]?.evidence).toMatchObject({ signal: 'nodefs.available', available: 12 * 2 ** 30, rank: 2 })
  })

  it('warns that the kubelet would next evict the protected add-on', () => {
    const risk = out.alerts.find((a) => a.kind === 'ProtectedPodAtRisk')
    expect(risk?.subject).toMatchObject({ kind: 'Pod', namespace: 'kube-system', name: 'fluentd-x1' })
    expect(risk?.severity).toBe('warning')
  })

  it('fires a PressureRelief alert naming the candidate', () => {
    expect(out.alerts.find((a) => a.kind === 'PressureRelief')?.summary).toContain('evicting default/web-1')
  })

  it('gives the same decision id for the same view within one interval', () => {
    const again = decideRelief(diskView(), policy(), new Date(NOW.getTime() + 20_000))
    expect(again.decisions[0]?.id).toBe(out.decisions[0]?.id)
  })
})

describe('decideRelief holds back and says why', () => {
  it.each([
    {
      name: 'a pod on the node is still terminating',
      view: diskView([batch(), web(), fluentd(), aPod({ name: 'old', deletionTimestamp: '2026-11-22T10:00:30Z' })]),
      why: 'default/old is terminating',
    },
    {
      name: 'the last relief eviction is younger than the interval',
      view: diskView(undefined, {
        node: aNode({ annotations: { 'nodewarden.io/last-relief': '2026-11-22T09:59:45Z' } }),
      }),
      why: 'last relief eviction at 2026-11-22T09:59:45Z',
    },
  ])('no eviction when $name', ({ view, why }) => {
    const out = decideRelief(view, policy(), NOW)
    expect(out.decisions).toEqual([])
    expect(out.evaluation.holdBack).toContain(why)
  })

  it('no eviction when every pod is protected, and the alert says so', () => {
    const out = decideRelief(diskView([fluentd()]), policy(), NOW)
    expect(out.decisions).toEqual([])
    expect(out.alerts.find((a) => a.kind === 'PressureRelief')?.summary).toContain('no unprotected pod left to evict')
  })

  it('no eviction below the relief threshold (12% free with relief at 10%)', () => {
    const out = decideRelief(diskView(), policy({ relief: { thresholds: { 'nodefs.available': '11%' } } }), NOW)
    expect(out.evaluation.reliefMet).toEqual([])
    expect(out.decisions).toEqual([])
  })

  it('stale stats make every signal unknown: no decision, and the notes say so', () => {
    const out = decideRelief(diskView(), policy(), new Date(NOW.getTime() + 10 * 60_000))
    expect(out.decisions).toEqual([])
    expect(out.evaluation.signals.every((s) => s.unknown?.includes('old'))).toBe(true)
    expect(out.evaluation.notes.join(' ')).toContain('not treated as healthy')
  })

  it('missing stats: unknown signals are reported with the missing field, never as healthy', () => {
    const view = aNodeView({ stats: toNodeStats(SummarySchema.parse(raw('node-partial')), NOW) })
    const out = decideRelief(view, policy(), NOW)
    expect(out.decisions).toEqual([])
    expect(out.evaluation.signals.find((s) => s.signal === 'nodefs.available')?.unknown).toBe('node.fs not reported')
    expect(out.evaluation.notes).toContain(
      'nodefs.available unknown (node.fs not reported): not treated as healthy; relief cannot judge it',
    )
  })
})

describe('pressureReport for simulate --stats', () => {
  it('reports signals, thresholds met, the kubelet ranking and the relief candidate', () => {
    const view = diskView()
    const report = pressureReport({ ...view, stats: undefined }, raw('node-disk-pressure'), policy(), NOW)
    expect(report).toMatchObject({
      name: 'node-a',
      ranking: ['kube-system/fluentd-x1', 'default/web-1', 'default/batch-1'],
      rankedFor: 'nodefs.available',
      kubeletVictim: 'kube-system/fluentd-x1',
      reliefCandidate: 'default/web-1',
    })
    // one shared disk: 12% free is below nodefs relief (15%), imagefs relief (20%) and the kubelet's
    // own imagefs.available hard default (15%) — the kubelet is already evicting for imagefs.
    expect(report.thresholdsMet.map((m) => `${m.kind}:${m.signal}<${m.threshold}`)).toEqual([
      'hard:imagefs.available<15%',
      'relief:nodefs.available<15%',
      'relief:imagefs.available<20%',
    ])
  })
})

describe('ReliefConfigSchema fails at load naming the field', () => {
  it.each([
    {
      name: 'bad kubelet hard threshold',
      input: { kubelet: { evictionHard: { 'memory.available': '-1Mi' } } },
      path: ['kubelet', 'evictionHard', 'memory.available'],
    },
    {
      name: 'unknown relief signal',
      input: { relief: { thresholds: { 'disk.free': '10%' } } },
      path: ['relief', 'thresholds', 'disk.free'],
    },
    {
      name: 'relief below the kubelet',
      input: { relief: { thresholds: { 'nodefs.available': '5%' } } },
      path: ['relief', 'thresholds', 'nodefs.available'],
    },
    {
      name: 'soft without grace',
      input: { kubelet: { evictionSoft: { 'memory.available': '1Gi' } } },
      path: ['kubelet', 'evictionSoftGracePeriod', 'memory.available'],
    },
    { name: 'bad interval', input: { relief: { interval: 'soon' } }, path: ['relief', 'interval'] },
  ])('$name', ({ input, path }) => {
    const r = ReliefConfigSchema.safeParse(input)
    expect(r.success).toBe(false)
    expect(r.error?.issues[0]?.path).toEqual(path)
  })

  it('defaults to the Linux kubelet thresholds plus the allocatable copy', () => {
    const c = ReliefConfigSchema.parse({})
    expect(c.kubeletThresholds.map((t) => `${t.signal}<${t.value.text}`)).toEqual([
      'memory.available<100Mi',
      'nodefs.available<10%',
      'nodefs.inodesFree<5%',
      'imagefs.available<15%',
      'imagefs.inodesFree<5%',
      'allocatableMemory.available<100Mi',
    ])
  })

  it('an explicit evictionHard replaces the defaults unless mergeDefaultEvictionSettings', () => {
    const only = ReliefConfigSchema.parse({ kubelet: { evictionHard: { 'memory.available': '200Mi' } } })
    expect(only.kubeletThresholds.map((t) => t.signal)).toEqual(['memory.available', 'allocatableMemory.available'])
    const merged = ReliefConfigSchema.parse({
      kubelet: { evictionHard: { 'memory.available': '200Mi' }, mergeDefaultEvictionSettings: true },
    })
    expect(merged.kubeletThresholds).toHaveLength(6)
  })
})

describe('allocatable audit', () => {
  it.each([
    { name: 'consistent reservation', allocatable: '15Gi', reserved: {}, problems: [] },
    { name: 'no reservation at all', allocatable: '16284Mi', reserved: {}, problems: ['noReservation'] },
    {
      name: 'allocatable above capacity − eviction',
      allocatable: '16300Mi',
      reserved: {},
      problems: ['exceedsEvictionHeadroom'],
    },
    {
      name: 'mismatch with configured reserved',
      allocatable: '15Gi',
      reserved: { kubeReserved: { memory: '512Mi' } },
      problems: ['mismatch'],
    },
    {
      name: 'match with configured reserved',
      allocatable: '15260Mi',
      reserved: { kubeReserved: { memory: '1Gi' } },
      problems: [],
    },
  ])('$name → $problems', ({ allocatable, reserved, problems }) => {
    const node = aNode({ allocatable: { memory: allocatable }, capacity: { memory: '16Gi' } })
    const out = decideRelief(aNodeView({ node }), policy({ kubelet: reserved }), NOW)
    expect(out.alerts.filter((a) => a.kind === 'AllocatableMisconfigured').map((a) => a.details.problem)).toEqual(
      problems,
    )
  })
})
