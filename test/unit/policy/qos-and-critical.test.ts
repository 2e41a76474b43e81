import { describe, expect, it } from 'vitest'
import type { ContainerResources } from '../../../shared/messages/index.ts'
import { isCriticalPod, isMirrorPod, isNodeCriticalPod, isStaticPod } from '../../../shared/policy/critical-pod.ts'
import { computePodQOS, getPodQOS } from '../../../shared/policy/qos.ts'

const rl = (cpu: string, memory: string) => ({ ...(cpu ? { cpu } : {}), ...(memory ? { memory } : {}) })
const c = (name: string, requests: Record<string, string>, limits: Record<string, string>): ContainerResources => ({
  name,
  requests,
  limits,
})

// Ported from pkg/apis/core/v1/helper/qos/qos_test.go (TestComputePodQOS), container-level cases; pod names kept.
describe('computePodQOS (upstream TestComputePodQOS)', () => {
  it.each([
    {
      name: 'guaranteed',
      containers: [c('guaranteed', rl('100m', '100Mi'), rl('100m', '100Mi'))],
      expected: 'Guaranteed',
    },
    {
      name: 'guaranteed-guaranteed',
      containers: [c('a', rl('100m', '100Mi'), rl('100m', '100Mi')), c('b', rl('100m', '100Mi'), rl('100m', '100Mi'))],
      expected: 'Guaranteed',
    },
    { name: 'best-effort-best-effort', containers: [c('a', {}, {}), c('b', {}, {})], expected: 'BestEffort' },
    { name: 'best-effort', containers: [c('a', {}, {})], expected: 'BestEffort' },
    {
      name: 'best-effort-burstable',
      containers: [c('a', {}, {}), c('b', rl('1', ''), rl('2', ''))],
      expected: 'Burstable',
    },
    {
      name: 'best-effort-guaranteed',
      containers: [c('a', {}, {}), c('b', rl('10m', '100Mi'), rl('10m', '100Mi'))],
      expected: 'Burstable',
    },
    {
      name: 'burstable-cpu-guaranteed-memory',
      containers: [c('a', rl('', '100Mi'), rl('', '100Mi'))],
      expected: 'Burstable',
    },
    { name: 'burstable-no-limits', containers: [c('a', rl('100m', '100Mi'), {})], expected: 'Burstable' },
    {
      name: 'burstable-guaranteed',
      containers: [c('a', rl('1', '100Mi'), rl('2', '100Mi')), c('b', rl('100m', '100Mi'), rl('100m', '100Mi'))],
      expected: 'Burstable',
    },
    {
      name: 'burstable-unbounded-but-requests-match-limits',
      containers: [c('a', rl('100m', '100Mi'), rl('200m', '200Mi')), c('b', rl('100m', '100Mi'), {})],
      expected: 'Burstable',
    },
    { name: 'burstable-1', containers: [c('a', rl('10m', '100Mi'), rl('100m', '200Mi'))], expected: 'Burstable' },
    { name: 'burstable-2', containers: [c('a', rl('0', '0'), rl('100m', '200Mi'))], expected: 'Burstable' },
    {
      name: 'best-effort-hugepages',
      containers: [c('a', { ...rl('0', '0'), 'hugepages-2Mi': '1Gi' }, { ...rl('0', '0'), 'hugepages-2Mi': '1Gi' })],
      expected: 'BestEffort',
    },
    {
      name: 'equal by value, not by text (1Gi vs 1024Mi, 1 vs 1000m)',
      containers: [c('a', rl('1', '1Gi'), rl('1000m', '1024Mi'))],
      expected: 'Guaranteed',
    },
  ])('$name → $expected', ({ containers, expected }) => {
    expect(computePodQOS({ containers, initContainers: [] })).toBe(expected)
  })
  it('init-container: a burstable init container makes the pod Burstable', () => {
    expect(
      computePodQOS({
        containers: [c('a', {}, {})],
        initContainers: [c('init', rl('10m', '100Mi'), rl('100m', '200Mi'))],
      }),
    ).toBe('Burstable')
  })
  it('getPodQOS prefers status.qosClass when the API server reported it', () => {
    expect(getPodQOS({ containers: [c('a', {}, {})], initContainers: [], qosClass: 'Guaranteed' })).toBe('Guaranteed')
  })
})

// pkg/kubelet/types/pod_update.go predicates.
describe('critical, static and mirror pods', () => {
  const src = (v: string): Record<string, string> => ({ 'kubernetes.io/config.source': v })
  it.each([
    {
      name: 'source file is static',
      annotations: src('file'),
      priority: undefined,
      static: true,
      mirror: false,
      critical: true,
    },
    {
      name: 'source http is static',
      annotations: src('http'),
      priority: undefined,
      static: true,
      mirror: false,
      critical: true,
    },
    {
      name: 'source api is not static',
      annotations: src('api'),
      priority: undefined,
      static: false,
      mirror: false,
      critical: false,
    },
    {
      name: 'empty source counts as static',
      annotations: src(''),
      priority: undefined,
      static: true,
      mirror: false,
      critical: true,
    },
    {
      name: 'mirror annotation with any value is a mirror pod',
      annotations: { 'kubernetes.io/config.mirror': '' },
      priority: undefined,
      static: false,
      mirror: true,
      critical: true,
    },
    {
      name: 'priority 2000000000 is critical',
      annotations: {},
      priority: 2_000_000_000,
      static: false,
      mirror: false,
      critical: true,
    },
    {
      name: 'priority 1999999999 is not critical',
      annotations: {},
      priority: 1_999_999_999,
      static: false,
      mirror: false,
      critical: false,
    },
    {
      name: 'no priority and no marks is not critical',
      annotations: {},
      priority: undefined,
      static: false,
      mirror: false,
      critical: false,
    },
  ])('$name', ({ annotations, priority, static: isStatic, mirror, critical }) => {
    const pod = { annotations: annotations as Record<string, string>, priority }
    expect(isStaticPod(pod)).toBe(isStatic)
    expect(isMirrorPod(pod)).toBe(mirror)
    expect(isCriticalPod(pod)).toBe(critical)
  })
  it('node-critical needs both criticality and the system-node-critical class', () => {
    expect(
      isNodeCriticalPod({ annotations: {}, priority: 2_000_001_000, priorityClassName: 'system-node-critical' }),
    ).toBe(true)
    expect(
      isNodeCriticalPod({ annotations: {}, priority: 2_000_000_000, priorityClassName: 'system-cluster-critical' }),
    ).toBe(false)
    expect(isNodeCriticalPod({ annotations: {}, priority: 0, priorityClassName: 'system-node-critical' })).toBe(false)
  })
})
