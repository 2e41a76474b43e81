import { describe, expect, it } from 'vitest'
import type { ContainerResources, SlimPod } from '../../../shared/messages/index.ts'
import { getContainerOOMScoreAdjust, previewOOMScores } from '../../../shared/pressure/oom-score.ts'
import { aPod } from '../../fixtures/builders.ts'

/** Ported from kubernetes/kubernetes pkg/kubelet/qos/policy_test.go (TestGetContainerOOMScoreAdjust); case names kept. */

const STANDARD = 8_000_000_000
const c = (
  name: string,
  requests: Record<string, string> = {},
  limits: Record<string, string> = {},
  restartPolicy?: string,
): ContainerResources => ({
  name,
  requests,
  limits,
  ...(restartPolicy ? { restartPolicy } : {}),
})
const pod = (containers: ContainerResources[], init: ContainerResources[] = [], extra: Partial<SlimPod> = {}) =>
  aPod({ containers, initContainers: init, priority: 0, priorityClassName: undefined, ...extra })

const defReq = { memory: String(STANDARD / 8) }
const defLim = { memory: String(1000 + STANDARD / 8) }
const sample = c('main-1', defReq, defLim)
const init = c('init-container', defReq, defLim)
const sidecar = c('sidecar-container', defReq, defLim, 'Always')
const smallSidecar = c('sidecar-small-container', { memory: String(STANDARD / 20) }, defLim, 'Always')
const bigSidecar = c('sidecar-big-container', { memory: String(STANDARD / 2) }, defLim, 'Always')

const cases: { name: string; pod: SlimPod; capacity: number; want: Record<string, [number, number]> }[] = [
  {
    name: 'cpu-limit',
    pod: pod([c('cpu-limit', {}, { cpu: '10' })]),
    capacity: 4e9,
    want: { 'cpu-limit': [999, 999] },
  },
  {
    name: 'memory-limit-cpu-request',
    pod: pod([c('memory-limit-cpu-request', { cpu: '0' }, { memory: '10G' })]),
    capacity: 8e9,
    want: { 'memory-limit-cpu-request': [999, 999] },
  },
  {
    name: 'zero-memory-limit',
    pod: pod([c('zero-memory-limit', {}, { memory: '0' })]),
    capacity: 7230457451,
    want: { 'zero-memory-limit': [1000, 1000] },
  },
  {
    name: 'no-request-limit',
    pod: pod([c('no-request-limit')]),
    capacity: 4e9,
    want: { 'no-request-limit': [1000, 1000] },
  },
  {
    name: 'equal-request-limit-cpu-memory',
    pod: pod([c('equal-request-limit-cpu-memory', { memory: '10G', cpu: '5m' }, { cpu: '5m', memory: '10G' })]),
    capacity: 123456789,
    want: { 'equal-request-limit-cpu-memory': [-997, -997] },
  },
  {
    name: 'cpu-unlimited-memory-limited-with-requests',
    pod: pod([
      c('cpu-unlimited-memory-limited-with-requests', { memory: String(STANDARD / 2), cpu: '5m' }, { memory: '10G' }),
    ]),
    capacity: STANDARD,
    want: { 'cpu-unlimited-memory-limited-with-requests': [495, 505] },
  },
  {
    name: 'request-no-limit',
    pod: pod([c('request-no-limit', { memory: String(STANDARD - 1), cpu: '5m' })]),
    capacity: STANDARD,
    want: { 'request-no-limit': [3, 3] },
  },
  {
    name: 'cluster-critical',
    pod: pod([c('cluster-critical')], [], { priority: 2_000_000_000, priorityClassName: 'system-cluster-critical' }),
    capacity: 4e9,
    want: { 'cluster-critical': [1000, 1000] },
  },
  {
    name: 'node-critical',
    pod: pod([c('node-critical')], [], { priority: 2_000_001_000, priorityClassName: 'system-node-critical' }),
    capacity: 4e9,
    want: { 'node-critical': [-997, -997] },
  },
  {
    name: 'burstable-unique-container-pod',
    pod: pod([c('burstable-unique-container', defReq, defLim)]),
    capacity: STANDARD,
    want: { 'burstable-unique-container': [875, 880] },
  },
  {
    name: 'burstable-mixed-unique-main-container-pod',
    pod: pod([sample], [init]),
    capacity: STANDARD,
    want: { 'init-container': [875, 880], 'main-1': [875, 880] },
  },
  {
    name: 'burstable-mixed-multi-container-small-sidecar-pod',
    pod: pod([sample], [init, smallSidecar]),
    capacity: STANDARD,
    want: { 'init-container': [875, 880], 'sidecar-small-container': [875, 875], 'main-1': [875, 875] },
  },
  {
    name: 'burstable-mixed-multi-container-sample-request-pod',
    pod: pod([sample], [init, sidecar]),
    capacity: STANDARD,
    want: { 'init-container': [875, 880], 'sidecar-container': [875, 875], 'main-1': [875, 875] },
  },
  {
    name: 'burstable-mixed-multi-container-big-sidecar-container-pod',
    pod: pod([sample], [init, bigSidecar]),
    capacity: STANDARD,
    want: { 'init-container': [875, 880], 'sidecar-big-container': [500, 500], 'main-1': [875, 875] },
  },
]

describe('getContainerOOMScoreAdjust (upstream TestGetContainerOOMScoreAdjust)', () => {
  it.each(cases)('$name', ({ pod: p, capacity, want }) => {
    for (const container of [...p.initContainers, ...p.containers]) {
      const [low, high] = want[container.name] ?? [Number.NaN, Number.NaN]
      const adj = getContainerOOMScoreAdjust(p, container, BigInt(capacity))
      expect(adj, container.name).toBeGreaterThanOrEqual(low)
      expect(adj, container.name).toBeLessThanOrEqual(high)
    }
  })

  it('previews the pod: QoS class and the highest container score (who the OOM killer picks first)', () => {
    const preview = previewOOMScores(pod([sample], [init, bigSidecar]), BigInt(STANDARD))
    expect(preview.qosClass).toBe('Burstable')
    expect(preview.maxOomScoreAdj).toBe(875)
  })
})
