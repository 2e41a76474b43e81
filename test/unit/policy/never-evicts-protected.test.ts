import { fc, test } from '@fast-check/vitest'
import { expect } from 'vitest'
import { defaultPolicy } from '../../../shared/config/index.ts'
import type { NodeCondition, SlimPod } from '../../../shared/messages/index.ts'
import { decide } from '../../../shared/policy/decide.ts'
import { isProtected } from '../../../shared/policy/protection.ts'
import { aNode, aNodeView, aPod } from '../../fixtures/builders.ts'

// Safety invariant (DESIGN §6.1): no decision ever evicts a protected pod, whatever the cluster looks like.
const NOW = new Date('2026-11-22T10:30:00Z')
const minutesAgo = (m: number) => new Date(NOW.getTime() - m * 60_000).toISOString()
const policy = defaultPolicy({
  conditionRules: [
    {
      id: 'kd',
      condition: 'KernelDeadlock',
      for: '1m',
      taint: { key: 'nodewarden.io/kd', effect: 'NoSchedule' },
      drain: true,
    },
    { id: 'ro', condition: 'ReadonlyFilesystem', for: '0s', drain: true },
    {
      id: 'ne',
      condition: 'KubeletUnhealthy',
      for: '1m',
      taint: { key: 'nodewarden.io/ne', effect: 'NoExecute' },
      drain: true,
    },
  ],
  protection: { namespaces: ['vault'], selectors: [{ matchLabels: { keep: 'yes' } }] },
  tolerations: { backfill: true },
  audits: { deleteEvictedPods: true },
})

const podArb = fc.record({
  namespace: fc.constantFrom('default', 'kube-system', 'vault', 'shop'),
  priority: fc.option(fc.constantFrom(-5, 0, 1000, 1_999_999_999, 2_000_000_000, 2_000_001_000), { nil: undefined }),
  owner: fc.constantFrom('ReplicaSet', 'DaemonSet', 'StatefulSet', 'Job'),
  annotations: fc.dictionary(
    fc.constantFrom(
      'kubernetes.io/config.source',
      'kubernetes.io/config.mirror',
      'scheduler.alpha.kubernetes.io/critical-pod',
      'scheduler.alpha.kubernetes.io/not-evicted-pod',
      'nodewarden.io/protect',
    ),
    fc.constantFrom('', 'true', 'file', 'api', 'x'),
  ),
  keep: fc.boolean(),
  phase: fc.constantFrom('Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'),
  qosClass: fc.constantFrom('Guaranteed', 'Burstable', 'BestEffort'),
  noTolerations: fc.boolean(),
})

const conditionArb = fc.record({
  type: fc.constantFrom('KernelDeadlock', 'ReadonlyFilesystem', 'KubeletUnhealthy'),
  status: fc.constantFrom('True', 'False', 'Unknown'),
  since: fc.integer({ min: 0, max: 120 }),
})

const clusterArb = fc.record({
  pods: fc.array(podArb, { maxLength: 12 }),
  conditions: fc.uniqueArray(conditionArb, { selector: (c) => c.type, maxLength: 3 }),
  tainted: fc.subarray(['nodewarden.io/kd', 'nodewarden.io/ne']),
  ready: fc.nat({ max: 20 }),
  notReady: fc.nat({ max: 20 }),
  affected: fc.option(fc.nat({ max: 10 }), { nil: undefined }),
})

test.prop([clusterArb], { numRuns: 3000 })('no decision ever evicts a protected pod', (c) => {
  const pods: SlimPod[] = c.pods.map((p, i) =>
    aPod({
      name: `p${i}`,
      namespace: p.namespace,
      priority: p.priority,
      owners: [{ kind: p.owner, name: 'o' }],
      annotations: p.annotations,
      labels: p.keep ? { keep: 'yes' } : {},
      phase: p.phase as SlimPod['phase'],
      qosClass: p.qosClass as SlimPod['qosClass'],
      ...(p.noTolerations ? { tolerations: [] } : {}),
    }),
  )
  const conditions: NodeCondition[] = [
    { type: 'Ready', status: 'True', lastTransitionTime: minutesAgo(500), lastHeartbeatTime: minutesAgo(0) },
    ...c.conditions.map((x) => ({
      type: x.type,
      status: x.status as NodeCondition['status'],
      lastTransitionTime: minutesAgo(x.since),
      lastHeartbeatTime: minutesAgo(0),
    })),
  ]
  const taints = c.tainted.map((key) => ({
    key,
    effect: key.endsWith('ne') ? ('NoExecute' as const) : ('NoSchedule' as const),
    timeAdded: minutesAgo(5),
  }))
  const total = c.ready + c.notReady
  const zones = [
    {
      zone: 'eu-west-1:\u0000:eu-west-1a',
      ready: c.ready,
      notReady: c.notReady,
      total,
      ...(c.affected === undefined ? {} : { affected: c.affected }),
    },
  ]
  const result = decide(aNodeView({ node: aNode({ conditions, taints }), pods, zones }), policy, NOW)
  const byUid = new Map(pods.map((p) => [p.uid, p]))
  for (const d of result.decisions) {
    if (d.action !== 'evict') continue
    const pod = byUid.get(d.target.uid)
    expect(pod).toBeDefined()
    if (pod) expect(isProtected(pod, policy.protection)).toEqual([])
  }
})
