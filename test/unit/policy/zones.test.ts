import { describe, expect, it } from 'vitest'
import { desiredNoScheduleTaints, planControlPlaneTaints } from '../../../shared/policy/condition-taints.ts'
import {
  allZonesFullyDisrupted,
  computeZoneState,
  countReady,
  getZoneKey,
  UPSTREAM_ZONE_RATES,
  zoneEvictionRate,
} from '../../../shared/policy/zones.ts'

const BETA_ZONE = 'failure-domain.beta.kubernetes.io/zone'
const BETA_REGION = 'failure-domain.beta.kubernetes.io/region'
const ZONE = 'topology.kubernetes.io/zone'
const REGION = 'topology.kubernetes.io/region'

// Ported from staging/src/k8s.io/component-helpers/node/topology/helpers_test.go (Test_GetZoneKey); names kept.
describe('getZoneKey (upstream Test_GetZoneKey)', () => {
  it.each([
    { name: 'has no zone or region keys', labels: {}, zone: '' },
    {
      name: 'has beta zone and region keys',
      labels: { [BETA_ZONE]: 'zone1', [BETA_REGION]: 'region1' },
      zone: 'region1:\x00:zone1',
    },
    {
      name: 'has GA zone and region keys',
      labels: { [ZONE]: 'zone1', [REGION]: 'region1' },
      zone: 'region1:\x00:zone1',
    },
    {
      name: 'has both beta and GA zone and region keys',
      labels: { [ZONE]: 'zone1', [REGION]: 'region1', [BETA_ZONE]: 'zone1', [BETA_REGION]: 'region1' },
      zone: 'region1:\x00:zone1',
    },
    {
      name: 'has both beta and GA zone and region keys, beta labels take precedent',
      labels: { [ZONE]: 'zone1', [REGION]: 'region1', [BETA_ZONE]: 'zone2', [BETA_REGION]: 'region2' },
      zone: 'region2:\x00:zone2',
    },
    {
      name: 'an empty beta zone label still wins over the GA one',
      labels: { [BETA_ZONE]: '', [ZONE]: 'zone1', [REGION]: 'r' },
      zone: 'r:\x00:',
    },
    { name: 'zone without region', labels: { [ZONE]: 'z' }, zone: ':\x00:z' },
  ])('$name', ({ labels, zone }) => {
    expect(getZoneKey(labels as Record<string, string>)).toBe(zone)
  })
})

// ComputeZoneState cases (pkg/controller/nodelifecycle node_lifecycle_controller.go; UPSTREAM.md §3.4).
describe('computeZoneState', () => {
  const T = { status: 'True' as const }
  const F = { status: 'False' as const }
  const U = { status: 'Unknown' as const }
  it.each([
    { name: 'empty zone is Normal', conds: [], want: 'Normal' },
    { name: 'all ready is Normal', conds: [T, T, T], want: 'Normal' },
    { name: 'no ready node is FullDisruption', conds: [F, U, undefined], want: 'FullDisruption' },
    { name: 'a single not-ready node alone is FullDisruption', conds: [U], want: 'FullDisruption' },
    { name: 'two not ready of three is Normal (≤ 2 unhealthy never Partial)', conds: [T, F, F], want: 'Normal' },
    { name: 'three not ready of four is PartialDisruption', conds: [T, F, U, undefined], want: 'PartialDisruption' },
    { name: 'three not ready of six (50% < 55%) is Normal', conds: [T, T, T, F, F, F], want: 'Normal' },
    {
      name: 'eleven not ready of twenty (55%) is PartialDisruption (≥ threshold)',
      conds: [...Array(9).fill(T), ...Array(11).fill(F)],
      want: 'PartialDisruption',
    },
    {
      name: 'a missing Ready condition counts as not ready',
      conds: [T, undefined, undefined, undefined],
      want: 'PartialDisruption',
    },
  ])('$name → $want', ({ conds, want }) => {
    expect(computeZoneState(countReady(conds))).toBe(want)
  })
})

describe('zoneEvictionRate (setLimiterInZone)', () => {
  it.each([
    { name: 'Normal zone: --node-eviction-rate', state: 'Normal' as const, size: 10, allDown: false, want: 0.1 },
    {
      name: 'Partial in a large zone (> 50 nodes): secondary rate',
      state: 'PartialDisruption' as const,
      size: 51,
      allDown: false,
      want: 0.01,
    },
    {
      name: 'Partial in a zone of exactly 50 nodes: zero (small cluster)',
      state: 'PartialDisruption' as const,
      size: 50,
      allDown: false,
      want: 0,
    },
    {
      name: 'one fully disrupted zone is evicted at the normal rate',
      state: 'FullDisruption' as const,
      size: 10,
      allDown: false,
      want: 0.1,
    },
    { name: 'every zone fully disrupted: halt', state: 'FullDisruption' as const, size: 10, allDown: true, want: 0 },
  ])('$name', ({ state, size, allDown, want }) => {
    expect(zoneEvictionRate(state, size, allDown, UPSTREAM_ZONE_RATES)).toBe(want)
  })
  it('all zones fully disrupted is vacuously true with no zones, false when any zone is not Full', () => {
    expect(allZonesFullyDisrupted([])).toBe(true)
    expect(allZonesFullyDisrupted(['FullDisruption', 'PartialDisruption'])).toBe(false)
  })
})

// nodeConditionToTaintKeyStatusMap and doNoScheduleTaintingPass.
describe('condition → taint map', () => {
  const cond = (type: string, status: 'True' | 'False' | 'Unknown') => ({ type, status })
  it.each([
    {
      name: 'Ready=False → not-ready',
      conditions: [cond('Ready', 'False')],
      unschedulable: false,
      keys: ['node.kubernetes.io/not-ready'],
    },
    {
      name: 'Ready=Unknown → unreachable',
      conditions: [cond('Ready', 'Unknown')],
      unschedulable: false,
      keys: ['node.kubernetes.io/unreachable'],
    },
    { name: 'Ready=True → none', conditions: [cond('Ready', 'True')], unschedulable: false, keys: [] },
    {
      name: 'pressure conditions in order, then unschedulable',
      conditions: [
        cond('DiskPressure', 'True'),
        cond('MemoryPressure', 'True'),
        cond('PIDPressure', 'True'),
        cond('NetworkUnavailable', 'True'),
      ],
      unschedulable: true,
      keys: [
        'node.kubernetes.io/disk-pressure',
        'node.kubernetes.io/memory-pressure',
        'node.kubernetes.io/pid-pressure',
        'node.kubernetes.io/network-unavailable',
        'node.kubernetes.io/unschedulable',
      ],
    },
    {
      name: 'MemoryPressure=False → none',
      conditions: [cond('MemoryPressure', 'False')],
      unschedulable: false,
      keys: [],
    },
  ])('$name', ({ conditions, unschedulable, keys }) => {
    expect(desiredNoScheduleTaints({ conditions, unschedulable }).map((t) => t.key)).toEqual(keys)
  })
  it('plans adds and removes by key+effect, never touching other taints', () => {
    const plan = planControlPlaneTaints({
      conditions: [cond('DiskPressure', 'True')],
      unschedulable: false,
      taints: [
        { key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule' },
        { key: 'custom', effect: 'NoSchedule' },
        { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' },
      ],
    })
    expect(plan.add.map((t) => t.key)).toEqual(['node.kubernetes.io/disk-pressure'])
    expect(plan.remove.map((t) => t.key)).toEqual(['node.kubernetes.io/memory-pressure'])
  })
})
