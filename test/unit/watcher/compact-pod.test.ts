import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { decodePod, encodePod, ShapeTable } from '../../../functions/watcher/compact-pod.ts'
import { SlimCache } from '../../../functions/watcher/slim-cache.ts'
import { type SlimPod, SlimPodSchema } from '../../../shared/messages/index.ts'
import { aPod } from '../../fixtures/builders.ts'

const time = fc.constantFrom('2026-11-20T00:00:00Z', '2026-11-21T08:30:00Z', '2026-11-22T10:00:10.5Z')
const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined })
const resources = fc.dictionary(fc.constantFrom('cpu', 'memory', 'ephemeral-storage'), fc.constantFrom('100m', '1Gi'))
const containerArb = fc.record(
  {
    name: fc.constantFrom('app', 'sidecar'),
    requests: resources,
    limits: resources,
    restartPolicy: fc.constant('Always'),
  },
  { requiredKeys: ['name'] },
)

/** Any slim pod the converter can produce, through the schema (defaults filled, keys in schema order). */
const slimPodArb: fc.Arbitrary<SlimPod> = fc
  .record({
    namespace: fc.constantFrom('default', 'team-a'),
    name: fc.constantFrom('web-1', 'web-2', 'db-0', 'a"quote', 'ünï'),
    uid: fc.uuid(),
    nodeName: fc.constantFrom('node-a', 'node-b'),
    labels: fc.dictionary(fc.constantFrom('app', 'pod-template-hash', 'tier'), fc.constantFrom('web', 'db', '5d8f')),
    annotations: fc.dictionary(fc.constantFrom('kubernetes.io/config.source', 'nodewarden.io/protect'), fc.string()),
    owners: fc.array(
      fc.record({ kind: fc.constantFrom('ReplicaSet', 'Job'), name: fc.string(), controller: opt(fc.boolean()) }),
      { maxLength: 2 },
    ),
    priority: opt(fc.integer({ min: -10, max: 2_000_000_000 })),
    priorityClassName: opt(fc.constantFrom('system-node-critical', 'low')),
    tolerations: fc.array(
      fc.record(
        {
          key: fc.constantFrom('node.kubernetes.io/not-ready', 'dedicated'),
          operator: fc.constantFrom('Exists', 'Equal'),
          value: fc.string(),
          effect: fc.constantFrom('NoExecute', 'NoSchedule'),
          tolerationSeconds: fc.integer({ min: 0, max: 600 }),
        },
        { requiredKeys: [] },
      ),
      { maxLength: 3 },
    ),
    containers: fc.array(containerArb, { maxLength: 3 }),
    initContainers: fc.array(containerArb, { maxLength: 2 }),
    overhead: opt(resources),
    qosClass: opt(fc.constantFrom('Guaranteed', 'Burstable', 'BestEffort')),
    phase: fc.constantFrom('Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'),
    reason: opt(fc.constantFrom('Evicted', 'NodeLost')),
    ready: fc.boolean(),
    hostNetwork: opt(fc.boolean()),
    terminationGracePeriodSeconds: opt(fc.integer({ min: 0, max: 3600 })),
    creationTimestamp: opt(time),
    startTime: opt(time),
    deletionTimestamp: opt(time),
    finishedAt: opt(time),
    localVolumes: opt(fc.array(fc.constantFrom('tmp', 'config', 'cache'), { minLength: 1, maxLength: 3 })),
  })
  .map((p) => SlimPodSchema.parse(JSON.parse(JSON.stringify(p))))

describe('compact pods', () => {
  test.prop([slimPodArb], { numRuns: 500 })(
    'decoding an encoded pod gives the same pod, keys in schema order',
    (pod) => {
      const { shape, own } = encodePod(pod)
      const decoded = decodePod({ json: shape, namespace: pod.namespace, refs: 1 }, own, pod.nodeName ?? '')
      expect(decoded).toStrictEqual(pod)
      expect(JSON.stringify(decoded)).toBe(JSON.stringify(pod))
    },
  )

  test.prop([slimPodArb, slimPodArb], { numRuns: 500 })(
    'two pods encode the same exactly when they are the same pod (bar the node)',
    (a, b) => {
      const same = JSON.stringify({ ...a, nodeName: undefined }) === JSON.stringify({ ...b, nodeName: undefined })
      const ea = encodePod(a)
      const eb = encodePod(b)
      expect(ea.shape === eb.shape && ea.own === eb.own).toBe(same)
    },
  )

  it('shares one shape between the replicas of a ReplicaSet and forgets it with the last one', () => {
    const table = new ShapeTable()
    const replicas = [1, 2, 3].map((i) =>
      aPod({ name: `web-${i}`, uid: `uid-${i}`, nodeName: `node-${i}`, labels: { app: 'web' } }),
    )
    const shapes = replicas.map((p) => table.acquire(encodePod(p).shape, p.namespace))
    expect(new Set(shapes).size).toBe(1)
    expect(table.size).toBe(1)
    for (const s of shapes) table.release(s)
    expect(table.size).toBe(0)
  })

  type Op = { kind: 'upsert'; key: number; pod: SlimPod } | { kind: 'delete'; key: number }
  const opArb: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ kind: fc.constant('upsert' as const), key: fc.nat(5), pod: slimPodArb }),
    fc.record({ kind: fc.constant('delete' as const), key: fc.nat(5) }),
  )

  test.prop([fc.array(opArb, { maxLength: 40 })], { numRuns: 300 })(
    'the cache reports, lists and counts pods exactly as a plain map of slim pods would',
    (ops) => {
      const cache = new SlimCache()
      const model = new Map<string, SlimPod>()
      for (const [i, op] of ops.entries()) {
        const key = `k/${op.key}`
        const before = model.get(key)
        if (op.kind === 'delete') {
          model.delete(key)
          expect(cache.deletePod(key, String(i))).toEqual(before?.nodeName ? [before.nodeName] : [])
          continue
        }
        model.set(key, op.pod)
        const same = before !== undefined && JSON.stringify(before) === JSON.stringify(op.pod)
        const want = same
          ? []
          : before && before.nodeName !== op.pod.nodeName
            ? [before.nodeName, op.pod.nodeName]
            : [op.pod.nodeName]
        expect(cache.upsertPod(key, op.pod, String(i))).toEqual(want)
      }
      for (const node of ['node-a', 'node-b']) {
        const want = [...model.entries()]
          .filter(([, p]) => p.nodeName === node)
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([, p]) => p)
        expect(cache.podsOn(node)).toStrictEqual(want)
      }
      expect(cache.counts().pods).toBe(model.size)
      expect(cache.podShapes()).toBe(new Set([...model.values()].map((p) => encodePod(p).shape)).size)
    },
  )
})
