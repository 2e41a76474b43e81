import { describe, expect, it } from 'vitest'
import {
  buildNodeViews,
  readList,
  SlimError,
  toSlimNode,
  toSlimPdb,
  toSlimPod,
} from '../../../shared/kube-slim/index.ts'

describe('toSlimPod / toSlimNode / toSlimPdb', () => {
  it('keeps only the fields policy reads (selected annotations, QoS inputs, finishedAt from DisruptionTarget)', () => {
    const pod = toSlimPod({
      kind: 'Pod',
      metadata: {
        name: 'p',
        namespace: 'ns',
        uid: 'u',
        annotations: { 'kubernetes.io/config.source': 'file', 'other/annotation': 'dropped' },
        ownerReferences: [{ kind: 'DaemonSet', name: 'd', controller: true, uid: 'x' }],
      },
      spec: {
        nodeName: 'n',
        priority: 5,
        containers: [{ name: 'c', image: 'i', resources: { limits: { cpu: 1, memory: '1Gi' } } }],
        tolerations: [{ operator: 'Exists', tolerationSeconds: 30 }],
      },
      status: {
        phase: 'Failed',
        reason: 'Evicted',
        conditions: [{ type: 'DisruptionTarget', status: 'True', lastTransitionTime: '2026-11-20T08:00:00Z' }],
      },
    })
    expect(pod).toEqual({
      namespace: 'ns',
      name: 'p',
      uid: 'u',
      nodeName: 'n',
      labels: {},
      annotations: { 'kubernetes.io/config.source': 'file' },
      owners: [{ kind: 'DaemonSet', name: 'd', controller: true }],
      priority: 5,
      tolerations: [{ operator: 'Exists', tolerationSeconds: 30 }],
      containers: [{ name: 'c', limits: { cpu: '1', memory: '1Gi' } }],
      initContainers: [],
      phase: 'Failed',
      reason: 'Evicted',
      ready: false,
      finishedAt: '2026-11-20T08:00:00Z',
    })
  })
  it('missing optional fields never crash; a bare pod gets defaults and a marked uid', () => {
    expect(toSlimPod({ metadata: { name: 'bare' } })).toMatchObject({
      namespace: 'default',
      name: 'bare',
      uid: 'unknown:default/bare',
      phase: 'Pending',
      tolerations: [],
    })
    expect(toSlimNode({ metadata: { name: 'n' } })).toMatchObject({
      name: 'n',
      uid: 'unknown:n',
      resourceVersion: '0',
      taints: [],
      conditions: [],
    })
  })
  it.each([
    {
      name: 'malformed request quantity names pod and field',
      fn: () =>
        toSlimPod({
          metadata: { name: 'p', namespace: 'ns' },
          spec: { containers: [{ name: 'c', resources: { requests: { memory: '12XB' } } }] },
        }),
      message: 'pod ns/p: spec.containers[0].resources.requests.memory: not a Kubernetes quantity: "12XB"',
    },
    {
      name: 'malformed init container limit',
      fn: () =>
        toSlimPod({
          metadata: { name: 'p', namespace: 'ns' },
          spec: { initContainers: [{ name: 'i', resources: { limits: { cpu: '1 core' } } }] },
        }),
      message: 'spec.initContainers[0].resources.limits.cpu',
    },
    {
      name: 'malformed node capacity',
      fn: () => toSlimNode({ metadata: { name: 'n' }, status: { capacity: { memory: 'lots' } } }),
      message: 'node n: status.capacity.memory',
    },
    {
      name: 'unknown taint effect names the node',
      fn: () => toSlimNode({ metadata: { name: 'n' }, spec: { taints: [{ key: 'k', effect: 'NoRun' }] } }),
      message: 'node n: taints.0.effect',
    },
    { name: 'pod without a name', fn: () => toSlimPod({ metadata: {} }), message: 'metadata.name: required' },
  ])('$name', ({ fn, message }) => {
    expect(fn).toThrow(SlimError)
    expect(fn).toThrow(message)
  })
  it('a PDB keeps nil selector (matches nothing) apart from {} (matches everything)', () => {
    expect(toSlimPdb({ metadata: { name: 'a', namespace: 'x' }, spec: {} }).selector).toBeNull()
    expect(toSlimPdb({ metadata: { name: 'a', namespace: 'x' }, spec: { selector: {} } }).selector).toEqual({})
  })
})

describe('readList / buildNodeViews', () => {
  it('refuses something that is not a List with items', () => {
    expect(() => readList({ kind: 'Pod', metadata: { name: 'x' } })).toThrow('not a v1 List: kind Pod without items')
  })
  it('warns naming unknown kinds and rejected items, and keeps going', () => {
    const r = readList({
      kind: 'List',
      items: [
        { kind: 'Secret', metadata: { name: 's', namespace: 'a' } },
        { kind: 'Node', metadata: { name: 'n' } },
        { kind: 'Pod', metadata: { name: 'p', namespace: 'd' }, spec: { overhead: { cpu: 'x' } } },
      ],
    })
    expect(r.warnings).toEqual([
      'item 0 (Secret a/s): unknown kind Secret, skipped',
      'item 2 rejected: pod d/p: spec.overhead.cpu: not a Kubernetes quantity: "x"',
    ])
    expect(r.nodes.map((n) => n.name)).toEqual(['n'])
  })
  it('groups pods by node, attaches selecting PDBs, summarises zones with exclude-disruption left out', () => {
    const zoneLabels = (z: string) => ({ 'topology.kubernetes.io/region': 'r', 'topology.kubernetes.io/zone': z })
    const node = (name: string, z: string, ready: string, extra: Record<string, string> = {}) => ({
      kind: 'Node',
      metadata: { name, labels: { ...zoneLabels(z), ...extra } },
      status: { conditions: [{ type: 'Ready', status: ready }] },
    })
    const pod = (name: string, nodeName: string, app: string) => ({
      kind: 'Pod',
      metadata: { name, namespace: 'shop', labels: { app } },
      spec: { nodeName },
    })
    const snap = buildNodeViews(
      {
        kind: 'List',
        items: [
          node('a', 'z1', 'True'),
          node('b', 'z1', 'False'),
          node('c', 'z2', 'True'),
          node('d', 'z2', 'False', { 'node.kubernetes.io/exclude-disruption': '' }),
          pod('web', 'a', 'web'),
          pod('db', 'b', 'db'),
          pod('lost', 'gone', 'web'),
          {
            kind: 'PodDisruptionBudget',
            metadata: { name: 'web', namespace: 'shop' },
            spec: { selector: { matchLabels: { app: 'web' } } },
          },
        ],
      },
      new Date('2026-11-22T10:00:00Z'),
    )
    expect(snap.zones).toEqual([
      { zone: 'r:\u0000:z1', ready: 1, notReady: 1, total: 2, affected: 0 },
      { zone: 'r:\u0000:z2', ready: 1, notReady: 0, total: 1, affected: 0 },
    ])
    expect(
      snap.views.map((v) => [v.node.name, v.pods.map((p) => p.name), v.pdbs.map((d) => d.name), v.clusterSize]),
    ).toEqual([
      ['a', ['web'], ['web'], 4],
      ['b', ['db'], [], 4],
      ['c', [], [], 4],
      ['d', [], [], 4],
    ])
    expect(snap.unplacedPods.map((p) => p.name)).toEqual(['lost'])
  })
})
