import { describe, expect, it } from 'vitest'
import type { Taint, Toleration } from '../../../shared/messages/index.ts'
import {
  findMatchingUntoleratedTaint,
  getMatchingTolerations,
  getMinTolerationTime,
  matchToleration,
  toleratesTaint,
} from '../../../shared/policy/tolerations.ts'

// Ported from kubernetes/kubernetes staging/src/k8s.io/api/core/v1/toleration_test.go
// (TestTolerationToleratesTaint); case names kept. The Lt/Gt cases run with the v1.35 alpha gate on
// (as upstream's test does) and again with it off, where they must all be "not tolerated".
const NS = 'NoSchedule'
const sla = 'node.kubernetes.io/sla'
const upstream: { description: string; toleration: Toleration; taint: Taint; expectTolerated: boolean }[] = [
  {
    description:
      'toleration and taint have the same key and effect, and operator is Exists, and taint has no value, expect tolerated',
    toleration: { key: 'foo', operator: 'Exists', effect: NS },
    taint: { key: 'foo', effect: NS },
    expectTolerated: true,
  },
  {
    description:
      'toleration and taint have the same key and effect, and operator is Exists, and taint has some value, expect tolerated',
    toleration: { key: 'foo', operator: 'Exists', effect: NS },
    taint: { key: 'foo', value: 'bar', effect: NS },
    expectTolerated: true,
  },
  {
    description:
      'toleration and taint have the same effect, toleration has empty key and operator is Exists, means match all taints, expect tolerated',
    toleration: { key: '', operator: 'Exists', effect: NS },
    taint: { key: 'foo', value: 'bar', effect: NS },
    expectTolerated: true,
  },
  {
    description: 'toleration and taint have the same key, effect and value, and operator is Equal, expect tolerated',
    toleration: { key: 'foo', operator: 'Equal', value: 'bar', effect: NS },
    taint: { key: 'foo', value: 'bar', effect: NS },
    expectTolerated: true,
  },
  {
    description:
      'toleration and taint have the same key and effect, but different values, and operator is Equal, expect not tolerated',
    toleration: { key: 'foo', operator: 'Equal', value: 'value1', effect: NS },
    taint: { key: 'foo', value: 'value2', effect: NS },
    expectTolerated: false,
  },
  {
    description:
      'toleration and taint have the same key and value, but different effects, and operator is Equal, expect not tolerated',
    toleration: { key: 'foo', operator: 'Equal', value: 'bar', effect: NS },
    taint: { key: 'foo', value: 'bar', effect: 'NoExecute' },
    expectTolerated: false,
  },
  {
    description: 'toleration with Gt operator - taint value less than toleration value, expect not tolerated',
    toleration: { key: sla, operator: 'Gt', value: '950', effect: NS },
    taint: { key: sla, value: '800', effect: NS },
    expectTolerated: false,
  },
  {
    description: 'toleration with Gt operator - taint value greater than toleration value, expect tolerated',
    toleration: { key: sla, operator: 'Gt', value: '750', effect: NS },
    taint: { key: sla, value: '950', effect: NS },
    expectTolerated: true,
  },
  {
    description: 'toleration with Lt operator - taint value greater than toleration value, expect not tolerated',
    toleration: { key: sla, operator: 'Lt', value: '800', effect: NS },
    taint: { key: sla, value: '950', effect: NS },
    expectTolerated: false,
  },
  {
    description: 'toleration with Lt operator - taint value less than toleration value, expect tolerated',
    toleration: { key: sla, operator: 'Lt', value: '950', effect: NS },
    taint: { key: sla, value: '800', effect: NS },
    expectTolerated: true,
  },
  {
    description: 'toleration with Gt operator and taint with equal numeric value, expect not tolerated',
    toleration: { key: sla, operator: 'Gt', value: '950', effect: NS },
    taint: { key: sla, value: '950', effect: NS },
    expectTolerated: false,
  },
  {
    description: 'toleration with Gt operator and taint with non-numeric value, expect not tolerated',
    toleration: { key: sla, operator: 'Gt', value: '950', effect: NS },
    taint: { key: sla, value: 'high', effect: NS },
    expectTolerated: false,
  },
  {
    description:
      'toleration with Gt operator and negative numeric values - taint value less than threshold, expect not tolerated',
    toleration: { key: 'test-key', operator: 'Gt', value: '-100', effect: NS },
    taint: { key: 'test-key', value: '-200', effect: NS },
    expectTolerated: false,
  },
  {
    description:
      'toleration with Gt operator and large int64 values - taint value less than threshold, expect not tolerated',
    toleration: { key: 'test-key', operator: 'Gt', value: '9223372036854775806', effect: NS },
    taint: { key: 'test-key', value: '100', effect: NS },
    expectTolerated: false,
  },
]

describe('toleratesTaint (upstream TestTolerationToleratesTaint)', () => {
  it.each(upstream)('$description', ({ toleration, taint, expectTolerated }) => {
    expect(toleratesTaint(toleration, taint, { comparisonOperators: true })).toBe(expectTolerated)
  })
  it.each(upstream.filter((c) => c.toleration.operator === 'Gt' || c.toleration.operator === 'Lt'))(
    'gate off (v1.30–v1.34): $description → not tolerated',
    ({ toleration, taint }) => {
      expect(toleratesTaint(toleration, taint)).toBe(false)
    },
  )
})

describe('toleratesTaint edge cases (UPSTREAM.md §1.1)', () => {
  it.each([
    {
      name: 'empty effect matches every effect',
      toleration: { key: 'k', operator: 'Exists' },
      taint: { key: 'k', effect: 'NoExecute' as const },
      want: true,
    },
    {
      name: 'empty key and empty effect with Exists tolerates everything',
      toleration: { operator: 'Exists' },
      taint: { key: 'any', value: 'v', effect: 'NoExecute' as const },
      want: true,
    },
    {
      name: 'empty operator means Equal',
      toleration: { key: 'k', value: 'v', effect: 'NoExecute' },
      taint: { key: 'k', value: 'v', effect: 'NoExecute' as const },
      want: true,
    },
    {
      name: 'Equal with empty value matches a taint without value',
      toleration: { key: 'k', operator: 'Equal' },
      taint: { key: 'k', effect: 'NoSchedule' as const },
      want: true,
    },
    {
      name: 'empty key with Equal compares values only',
      toleration: { operator: 'Equal', value: 'v' },
      taint: { key: 'x', value: 'v', effect: 'NoSchedule' as const },
      want: true,
    },
    {
      name: 'operator is case-sensitive',
      toleration: { key: 'k', operator: 'exists' },
      taint: { key: 'k', effect: 'NoSchedule' as const },
      want: false,
    },
    {
      name: 'unknown operator never tolerates',
      toleration: { key: 'k', operator: 'Bigger' },
      taint: { key: 'k', effect: 'NoSchedule' as const },
      want: false,
    },
    {
      name: 'different key does not tolerate',
      toleration: { key: 'a', operator: 'Exists' },
      taint: { key: 'b', effect: 'NoSchedule' as const },
      want: false,
    },
    {
      name: 'tolerationSeconds is ignored by matching',
      toleration: { key: 'k', operator: 'Exists', tolerationSeconds: -5 },
      taint: { key: 'k', effect: 'NoExecute' as const },
      want: true,
    },
  ])('$name', ({ toleration, taint, want }) => {
    expect(toleratesTaint(toleration, taint)).toBe(want)
  })
})

// Ported from pkg/controller/tainteviction/taint_eviction_test.go (TestGetMinTolerationTime).
describe('getMinTolerationTime (upstream TestGetMinTolerationTime)', () => {
  it.each([
    { name: 'empty list evicts now', tolerations: [], want: 0 },
    { name: 'nil tolerationSeconds is forever', tolerations: [{ tolerationSeconds: null }], want: -1 },
    { name: 'minimum of one and two', tolerations: [{ tolerationSeconds: 1 }, { tolerationSeconds: 2 }], want: 1 },
    { name: 'one then nil', tolerations: [{ tolerationSeconds: 1 }, { tolerationSeconds: null }], want: 1 },
    { name: 'nil then one', tolerations: [{ tolerationSeconds: null }, { tolerationSeconds: 1 }], want: 1 },
    { name: 'zero evicts now', tolerations: [{ tolerationSeconds: 300 }, { tolerationSeconds: 0 }], want: 0 },
    { name: 'negative evicts now', tolerations: [{ tolerationSeconds: -10 }, { tolerationSeconds: 300 }], want: 0 },
    { name: 'absent field is forever', tolerations: [{ key: 'k' }], want: -1 },
  ])('$name', ({ tolerations, want }) => {
    expect(getMinTolerationTime(tolerations)).toBe(want)
  })
})

describe('getMatchingTolerations (pkg/apis/core/v1/helper GetMatchingTolerations)', () => {
  const t1 = { key: 'k1', effect: 'NoExecute' as const }
  const t2 = { key: 'k2', value: 'v', effect: 'NoExecute' as const }
  const wildcard = { operator: 'Exists', tolerationSeconds: 10 }
  const k1 = { key: 'k1', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 }
  it.each([
    { name: 'no taints: tolerated with no tolerations used', taints: [], tolerations: [k1], tolerated: true, used: [] },
    { name: 'taints but no tolerations: not tolerated', taints: [t1], tolerations: [], tolerated: false, used: [] },
    {
      name: 'first tolerating toleration per taint, in list order',
      taints: [t1, t2],
      tolerations: [k1, wildcard],
      tolerated: true,
      used: [k1, wildcard],
    },
    {
      name: 'one toleration may serve several taints',
      taints: [t1, t2],
      tolerations: [wildcard, k1],
      tolerated: true,
      used: [wildcard, wildcard],
    },
    {
      name: 'any untolerated taint: not tolerated and nothing used',
      taints: [t1, t2],
      tolerations: [k1],
      tolerated: false,
      used: [],
    },
  ])('$name', ({ taints, tolerations, tolerated, used }) => {
    const got = getMatchingTolerations(taints, tolerations)
    expect(got.tolerated).toBe(tolerated)
    expect(got.used).toEqual(used)
  })
})

describe('findMatchingUntoleratedTaint and matchToleration', () => {
  const a = { key: 'a', effect: 'NoSchedule' as const }
  const b = { key: 'b', effect: 'NoExecute' as const }
  it('returns the first untolerated taint kept by the filter', () => {
    expect(findMatchingUntoleratedTaint([a, b], [])).toEqual(a)
    expect(findMatchingUntoleratedTaint([a, b], [], (t) => t.effect === 'NoExecute')).toEqual(b)
    expect(findMatchingUntoleratedTaint([a, b], [{ operator: 'Exists' }])).toBeUndefined()
  })
  it('matchToleration compares key, operator, value and effect but not tolerationSeconds', () => {
    expect(
      matchToleration(
        { key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { key: 'k', operator: 'Exists', effect: 'NoExecute' },
      ),
    ).toBe(true)
    expect(matchToleration({ key: 'k', operator: 'Exists' }, { key: 'k', operator: 'different-operator' })).toBe(false)
  })
})
