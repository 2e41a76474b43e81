import { describe, expect, it } from 'vitest'
import { parseGoDuration } from '../../../shared/config/duration.ts'
import { parseQuantity } from '../../../shared/policy/quantity.ts'
import type { Observations } from '../../../shared/pressure/signals.ts'
import {
  type KubeletEvictionInput,
  nodeConditions,
  nodeConditionsLastObservedAt,
  nodeConditionsObservedSince,
  parsePercentage,
  parseThresholdConfig,
  reclaimableThreshold,
  sortByEvictionPriority,
  type Threshold,
  type ThresholdValue,
  thresholdsFirstObservedAt,
  thresholdsMet,
  thresholdsMetGracePeriod,
  thresholdsUpdatedStats,
} from '../../../shared/pressure/thresholds.ts'

/** Ported from kubernetes/kubernetes pkg/kubelet/eviction/helpers_test.go; case names kept. */

const norm = (v: ThresholdValue | undefined) => {
  if (!v) return null
  if ('percentage' in v) return `pct:${v.percentage}`
  return `q:${v.quantity.num}/${v.quantity.den}`
}
const q = (text: string) => ({ quantity: parseQuantity(text), text })
const pct = (p: number) => ({ percentage: Math.fround(p), text: `${p * 100}%` })
const th = (signal: string, value: ThresholdValue, gracePeriodMs = 0, minReclaim?: ThresholdValue) =>
  ({ signal, value, gracePeriodMs, ...(minReclaim ? { minReclaim } : {}) }) as Threshold
const canon = (ts: Threshold[]) =>
  ts.map((t) => JSON.stringify([t.signal, t.gracePeriodMs, norm(t.value), norm(t.minReclaim)])).sort()

const S30 = 30_000
const parseCases: { name: string; input: KubeletEvictionInput; expectErr?: string; expect?: Threshold[] }[] = [
  { name: 'no values', input: {}, expect: [] },
  {
    name: 'all memory eviction values',
    input: {
      enforceNodeAllocatable: ['pods'],
      evictionHard: { 'memory.available': '150Mi' },
      evictionSoft: { 'memory.available': '300Mi' },
      evictionSoftGracePeriod: { 'memory.available': '30s' },
      evictionMinimumReclaim: { 'memory.available': '0' },
    },
    expect: [
      th('allocatableMemory.available', q('150Mi'), 0, q('0')),
      th('memory.available', q('150Mi'), 0, q('0')),
      th('memory.available', q('300Mi'), S30, q('0')),
    ],
  },
  {
    name: 'all memory eviction values in percentages',
    input: {
      evictionHard: { 'memory.available': '10%' },
      evictionSoft: { 'memory.available': '30%' },
      evictionSoftGracePeriod: { 'memory.available': '30s' },
      evictionMinimumReclaim: { 'memory.available': '5%' },
    },
    expect: [th('memory.available', pct(0.1), 0, pct(0.05)), th('memory.available', pct(0.3), S30, pct(0.05))],
  },
  {
    name: 'disk eviction values',
    input: {
      evictionHard: { 'imagefs.available': '150Mi', 'nodefs.available': '100Mi' },
      evictionSoft: { 'imagefs.available': '300Mi', 'nodefs.available': '200Mi' },
      evictionSoftGracePeriod: { 'imagefs.available': '30s', 'nodefs.available': '30s' },
      evictionMinimumReclaim: { 'imagefs.available': '2Gi', 'nodefs.available': '1Gi' },
    },
    expect: [
      th('imagefs.available', q('150Mi'), 0, q('2Gi')),
      th('nodefs.available', q('100Mi'), 0, q('1Gi')),
      th('imagefs.available', q('300Mi'), S30, q('2Gi')),
      th('nodefs.available', q('200Mi'), S30, q('1Gi')),
    ],
  },
  {
    name: 'disk eviction values in percentages',
    input: {
      evictionHard: { 'imagefs.available': '15%', 'nodefs.available': '10.5%' },
      evictionSoft: { 'imagefs.available': '30%', 'nodefs.available': '20.5%' },
      evictionSoftGracePeriod: { 'imagefs.available': '30s', 'nodefs.available': '30s' },
      evictionMinimumReclaim: { 'imagefs.available': '10%', 'nodefs.available': '5%' },
    },
    expect: [
      th('imagefs.available', pct(0.15), 0, pct(0.1)),
      th('nodefs.available', pct(0.105), 0, pct(0.05)),
      th('imagefs.available', pct(0.3), S30, pct(0.1)),
      th('nodefs.available', pct(0.205), S30, pct(0.05)),
    ],
  },
  {
    name: 'inode eviction values',
    input: {
      evictionHard: { 'imagefs.inodesFree': '150Mi', 'nodefs.inodesFree': '100Mi' },
      evictionSoft: { 'imagefs.inodesFree': '300Mi', 'nodefs.inodesFree': '200Mi' },
      evictionSoftGracePeriod: { 'imagefs.inodesFree': '30s', 'nodefs.inodesFree': '30s' },
      evictionMinimumReclaim: { 'imagefs.inodesFree': '2Gi', 'nodefs.inodesFree': '1Gi' },
    },
    expect: [
      th('imagefs.inodesFree', q('150Mi'), 0, q('2Gi')),
      th('nodefs.inodesFree', q('100Mi'), 0, q('1Gi')),
      th('imagefs.inodesFree', q('300Mi'), S30, q('2Gi')),
      th('nodefs.inodesFree', q('200Mi'), S30, q('1Gi')),
    ],
  },
  {
    name: 'disable via 0%',
    input: { evictionHard: { 'memory.available': '0%' }, evictionSoft: { 'memory.available': '0%' } },
    expect: [],
  },
  {
    name: 'disable via 100%',
    input: { evictionHard: { 'memory.available': '100%' }, evictionSoft: { 'memory.available': '100%' } },
    expect: [],
  },
  {
    name: 'invalid-signal',
    input: { evictionHard: { 'mem.available': '150Mi' } },
    expectErr: 'evictionHard["mem.available"]',
  },
  {
    name: 'hard-signal-negative',
    input: { evictionHard: { 'memory.available': '-150Mi' } },
    expectErr: 'evictionHard["memory.available"]',
  },
  {
    name: 'hard-signal-negative-percentage',
    input: { evictionHard: { 'memory.available': '-15%' } },
    expectErr: 'evictionHard["memory.available"]',
  },
  {
    name: 'hard-signal-percentage-greater-than-100%',
    input: { evictionHard: { 'memory.available': '150%' } },
    expectErr: 'evictionHard["memory.available"]',
  },
  {
    name: 'soft-signal-negative',
    input: { evictionSoft: { 'memory.available': '-150Mi' } },
    expectErr: 'evictionSoft["memory.available"]',
  },
  {
    name: 'valid-and-invalid-signal',
    input: { evictionHard: { 'memory.available': '150Mi', 'invalid.foo': '150Mi' } },
    expectErr: 'evictionHard["invalid.foo"]',
  },
  {
    name: 'soft-no-grace-period',
    input: { evictionSoft: { 'memory.available': '150Mi' } },
    expectErr: 'evictionSoftGracePeriod["memory.available"]',
  },
  {
    name: 'soft-negative-grace-period',
    input: { evictionSoft: { 'memory.available': '150Mi' }, evictionSoftGracePeriod: { 'memory.available': '-30s' } },
    expectErr: 'evictionSoftGracePeriod["memory.available"]',
  },
  {
    name: 'negative-reclaim',
    input: { evictionMinimumReclaim: { 'memory.available': '-300Mi' } },
    expectErr: 'evictionMinimumReclaim["memory.available"]',
  },
  // Not upstream: the documented edge cases around them.
  {
    name: 'zero quantity threshold is an error, 0% disables',
    input: { evictionHard: { 'memory.available': '0' } },
    expectErr: 'evictionHard["memory.available"]',
  },
  {
    name: '0% minimum reclaim is an error',
    input: { evictionMinimumReclaim: { 'memory.available': '0%' } },
    expectErr: 'evictionMinimumReclaim["memory.available"]',
  },
  {
    name: '0.0% is not the literal 0% and is kept',
    input: { evictionHard: { 'nodefs.available': '0.0%' } },
    expect: [th('nodefs.available', pct(0), 0)],
  },
  {
    name: 'grace period for a signal without a soft threshold is ignored',
    input: { evictionSoftGracePeriod: { 'memory.available': '30s' } },
    expect: [],
  },
  {
    name: 'soft threshold with 0s grace reads as hard and gets an allocatable copy',
    input: {
      enforceNodeAllocatable: ['pods'],
      evictionSoft: { 'memory.available': '300Mi' },
      evictionSoftGracePeriod: { 'memory.available': '0s' },
    },
    expect: [th('memory.available', q('300Mi'), 0), th('allocatableMemory.available', q('300Mi'), 0)],
  },
]

describe('parseThresholdConfig (upstream TestParseThresholdConfig)', () => {
  it.each(parseCases)('$name', ({ input, expect: want, expectErr }) => {
    if (expectErr) {
      expect(() => parseThresholdConfig(input)).toThrow(expectErr)
      return
    }
    expect(canon(parseThresholdConfig(input))).toEqual(canon(want ?? []))
  })
})

describe('parsePercentage (upstream TestParsePercentage)', () => {
  it.each([
    { name: 'blah', error: true },
    { name: '25.5%', value: Math.fround(0.255) },
    { name: 'foo%', error: true },
    { name: '12%345', error: true },
  ])('$name', ({ name, error, value }) => {
    if (error) expect(() => parsePercentage(name)).toThrow()
    else expect(parsePercentage(name)).toBe(value)
  })

  it('computes float32(x)/100 in float32: 10% is 0.10000000149011612, not 0.1', () => {
    expect(parsePercentage('10%')).toBe(0.10000000149011612)
  })
})

const hard1Gi = th('memory.available', q('1Gi'), 0, q('500Mi'))
const obs = (available: string, capacity = '0'): { available: number; capacity: number } => ({
  available: Number(parseQuantity(available).num / parseQuantity(available).den),
  capacity: Number(parseQuantity(capacity).num),
})

describe('thresholdsMet (upstream TestThresholdsMet)', () => {
  it.each([
    { name: 'empty', enforce: false, thresholds: [], observations: {}, met: 0 },
    {
      name: 'threshold-met-memory',
      enforce: false,
      thresholds: [hard1Gi],
      observations: { 'memory.available': obs('500Mi') },
      met: 1,
    },
    {
      name: 'threshold-not-met',
      enforce: false,
      thresholds: [hard1Gi],
      observations: { 'memory.available': obs('2Gi') },
      met: 0,
    },
    {
      name: 'threshold-met-with-min-reclaim',
      enforce: true,
      thresholds: [hard1Gi],
      observations: { 'memory.available': { available: Math.trunc(1.05 * 2 ** 30), capacity: 0 } },
      met: 1,
    },
    {
      name: 'threshold-not-met-with-min-reclaim',
      enforce: true,
      thresholds: [hard1Gi],
      observations: { 'memory.available': obs('2Gi') },
      met: 0,
    },
  ] as { name: string; enforce: boolean; thresholds: Threshold[]; observations: Observations; met: number }[])(
    '$name',
    ({ enforce, thresholds, observations, met }) => {
      expect(thresholdsMet(thresholds, observations, enforce)).toHaveLength(met)
    },
  )

  it('is strict: available equal to the threshold is not met, one byte less is', () => {
    const t = th('memory.available', q('100Mi'))
    expect(thresholdsMet([t], { 'memory.available': { available: 100 * 2 ** 20, capacity: 0 } }, false)).toEqual([])
    expect(thresholdsMet([t], { 'memory.available': { available: 100 * 2 ** 20 - 1, capacity: 0 } }, false)).toEqual([
      t,
    ])
  })

  it('skips a threshold whose signal has no observation (unknown is never "not met" by accident of zero)', () => {
    expect(thresholdsMet([th('nodefs.available', pct(0.1))], {}, false)).toEqual([])
  })
})

const specific = [th('memory.available', pct(0.2), 0, pct(0.05)), th('nodefs.available', pct(0.3), 0)]
describe('percentage thresholds (upstream TestPercentageThresholdsMet)', () => {
  it.each([
    {
      name: 'BothMet',
      enforce: false,
      mem: ['100Mi', '1000Mi'],
      fs: ['100Gi', '1000Gi'],
      met: ['memory.available', 'nodefs.available'],
    },
    { name: 'NoneMet', enforce: false, mem: ['300Mi', '1000Mi'], fs: ['400Gi', '1000Gi'], met: [] },
    { name: 'DiskMet', enforce: false, mem: ['300Mi', '1000Mi'], fs: ['100Gi', '1000Gi'], met: ['nodefs.available'] },
    { name: 'MemoryMet', enforce: false, mem: ['100Mi', '1000Mi'], fs: ['400Gi', '1000Gi'], met: ['memory.available'] },
    { name: 'MemoryMetWithMinReclaim', enforce: true, mem: ['225Mi', '1000Mi'], met: ['memory.available'] },
    { name: 'MemoryNotMetWithMinReclaim', enforce: true, mem: ['300Mi', '1000Mi'], met: [] },
  ])('$name', ({ enforce, mem, fs, met }) => {
    const observations: Observations = { 'memory.available': obs(mem[0] ?? '', mem[1]) }
    if (fs) observations['nodefs.available'] = obs(fs[0] ?? '', fs[1])
    expect(thresholdsMet(specific, observations, enforce).map((t) => t.signal)).toEqual(met)
  })

  it('widens the float32 percentage to float64 before truncating: 10% of 1000 bytes is 100, of 10^10 is 1000000014', () => {
    const t = th('nodefs.available', { percentage: parsePercentage('10%'), text: '10%' })
    expect(thresholdsMet([t], { 'nodefs.available': { available: 99, capacity: 1000 } }, false)).toHaveLength(1)
    expect(thresholdsMet([t], { 'nodefs.available': { available: 100, capacity: 1000 } }, false)).toHaveLength(0)
    const big = { capacity: 1e10 }
    expect(thresholdsMet([t], { 'nodefs.available': { ...big, available: 1_000_000_013 } }, false)).toHaveLength(1)
    expect(thresholdsMet([t], { 'nodefs.available': { ...big, available: 1_000_000_014 } }, false)).toHaveLength(0)
  })
})

const soft2Gi = th('memory.available', q('2Gi'), 60_000)
const hard = th('memory.available', q('1Gi'))
const NOW = new Date('2026-11-22T10:00:00Z')
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString()

describe('grace periods and first observation (upstream TestThresholdsFirstObservedAt, TestThresholdsMetGracePeriod)', () => {
  it.each([
    { name: 'empty', thresholds: [], last: {}, result: {} },
    {
      name: 'no-previous-observation',
      thresholds: [hard],
      last: {},
      result: { 'hard:memory.available<1Gi': NOW.toISOString() },
    },
    {
      name: 'previous-observation',
      thresholds: [hard],
      last: { 'hard:memory.available<1Gi': ago(60_000) },
      result: { 'hard:memory.available<1Gi': ago(60_000) },
    },
  ] as { name: string; thresholds: Threshold[]; last: Record<string, string>; result: Record<string, string> }[])(
    'first observed: $name',
    ({ thresholds, last, result }) => {
      expect(thresholdsFirstObservedAt(thresholds, last, NOW)).toEqual(result)
    },
  )

  it.each([
    { name: 'empty', thresholds: [], observedAt: {}, met: 0 },
    {
      name: 'hard-threshold-met',
      thresholds: [hard],
      observedAt: { 'hard:memory.available<1Gi': NOW.toISOString() },
      met: 1,
    },
    {
      name: 'soft-threshold-not-met',
      thresholds: [soft2Gi],
      observedAt: { 'soft:memory.available<2Gi': NOW.toISOString() },
      met: 0,
    },
    {
      name: 'soft-threshold-met',
      thresholds: [soft2Gi],
      observedAt: { 'soft:memory.available<2Gi': ago(120_000) },
      met: 1,
    },
  ] as { name: string; thresholds: Threshold[]; observedAt: Record<string, string>; met: number }[])(
    'grace period: $name',
    ({ thresholds, observedAt, met }) => {
      expect(thresholdsMetGracePeriod(thresholds, observedAt, NOW)).toHaveLength(met)
    },
  )
})

describe('stats freshness (upstream TestThresholdsUpdatedStats)', () => {
  const t = th('memory.available', q('1Gi'))
  const at = (time?: string) => ({ available: 0, capacity: 0, ...(time ? { time } : {}) })
  it.each([
    { name: 'empty', thresholds: [], observations: {}, last: {}, kept: 0 },
    { name: 'no-time', thresholds: [t], observations: { 'memory.available': at() }, last: {}, kept: 1 },
    {
      name: 'no-last-observation',
      thresholds: [t],
      observations: { 'memory.available': at('2016-01-01T00:00:00Z') },
      last: {},
      kept: 1,
    },
    {
      name: 'time-machine',
      thresholds: [t],
      observations: { 'memory.available': at('2016-01-01T00:00:00Z') },
      last: { 'memory.available': at('2016-01-01T00:01:00Z') },
      kept: 0,
    },
    {
      name: 'same-observation',
      thresholds: [t],
      observations: { 'memory.available': at('2016-01-01T00:00:00Z') },
      last: { 'memory.available': at('2016-01-01T00:00:00Z') },
      kept: 0,
    },
    {
      name: 'new-observation',
      thresholds: [t],
      observations: { 'memory.available': at('2016-01-01T00:01:00Z') },
      last: { 'memory.available': at('2016-01-01T00:00:00Z') },
      kept: 1,
    },
  ] as { name: string; thresholds: Threshold[]; observations: Observations; last: Observations; kept: number }[])(
    '$name',
    ({ thresholds, observations, last, kept }) => {
      expect(thresholdsUpdatedStats(thresholds, observations, last)).toHaveLength(kept)
    },
  )
})

describe('node conditions and the pressure transition period (upstream TestNodeConditions*)', () => {
  it.each([
    { name: 'empty-list', signals: [], result: [] },
    { name: 'memory.available', signals: ['memory.available'], result: ['MemoryPressure'] },
    {
      name: 'every disk signal drives DiskPressure once',
      signals: ['nodefs.available', 'imagefs.inodesFree', 'nodefs.inodesFree'],
      result: ['DiskPressure'],
    },
    {
      name: 'pid.available drives PIDPressure',
      signals: ['pid.available', 'allocatableMemory.available'],
      result: ['PIDPressure', 'MemoryPressure'],
    },
  ] as { name: string; signals: Threshold['signal'][]; result: string[] }[])('$name', ({ signals, result }) => {
    expect(nodeConditions(signals.map((signal) => ({ signal })))).toEqual(result)
  })

  it.each([
    {
      name: 'no-previous-observation',
      conds: ['MemoryPressure'],
      last: {},
      result: { MemoryPressure: NOW.toISOString() },
    },
    {
      name: 'previous-observation',
      conds: ['MemoryPressure'],
      last: { MemoryPressure: ago(60_000) },
      result: { MemoryPressure: NOW.toISOString() },
    },
    {
      name: 'old-observation',
      conds: [],
      last: { MemoryPressure: ago(60_000) },
      result: { MemoryPressure: ago(60_000) },
    },
  ] as { name: string; conds: string[]; last: Record<string, string>; result: Record<string, string> }[])(
    'last observed: $name',
    ({ conds, last, result }) => {
      expect(nodeConditionsLastObservedAt(conds, last, NOW)).toEqual(result)
    },
  )

  it.each([
    { name: 'in-period', period: 120_000, result: ['MemoryPressure'] },
    { name: 'out-of-period', period: 30_000, result: [] },
    { name: 'exactly the period is out (strict <)', period: 60_000, result: [] },
  ])('observed since: $name', ({ period, result }) => {
    expect(nodeConditionsObservedSince({ MemoryPressure: ago(60_000) }, period, NOW)).toEqual(result)
  })
})

describe('eviction priority of thresholds (upstream TestSortByEvictionPriority, TestGetReclaimableThreshold)', () => {
  it.each([
    { name: 'empty threshold list', input: [], result: [] },
    {
      name: 'memory first',
      input: ['nodefs.available', 'pid.available', 'memory.available'],
      result: ['memory.available', 'nodefs.available', 'pid.available'],
    },
    {
      name: 'allocatable memory first',
      input: ['nodefs.available', 'pid.available', 'allocatableMemory.available'],
      result: ['allocatableMemory.available', 'nodefs.available', 'pid.available'],
    },
  ] as { name: string; input: Threshold['signal'][]; result: string[] }[])('$name', ({ input, result }) => {
    expect(sortByEvictionPriority(input.map((signal) => ({ signal }))).map((t) => t.signal)).toEqual(result)
  })

  it('finds a reclaimable threshold', () => {
    const sorted = sortByEvictionPriority([
      { signal: 'imagefs.available' as const },
      { signal: 'allocatableMemory.available' as const },
    ])
    expect(reclaimableThreshold(sorted)?.signal).toBe('allocatableMemory.available')
  })
})

describe('Go durations', () => {
  it.each([
    { text: '30s', ms: 30_000 },
    { text: '1m30s', ms: 90_000 },
    { text: '1.5h', ms: 5_400_000 },
    { text: '-30s', ms: -30_000 },
    { text: '0', ms: 0 },
    { text: '500ms', ms: 500 },
    { text: '30', ms: undefined },
    { text: 'soon', ms: undefined },
  ])('$text → $ms', ({ text, ms }) => {
    expect(parseGoDuration(text)).toBe(ms)
  })
})
