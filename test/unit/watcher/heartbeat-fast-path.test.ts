import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { meaningfulNodeKey } from '../../../functions/watcher/meaningful-change.ts'
import { SlimCache } from '../../../functions/watcher/slim-cache.ts'
import { refreshSlimNode } from '../../../shared/kube-slim/refresh-slim-node.ts'
import { toSlimNode } from '../../../shared/kube-slim/to-slim-node.ts'
import type { SlimNode } from '../../../shared/messages/index.ts'
import { at, rawNode, T1 } from './raw-objects.ts'

type Raw = Record<string, unknown>

/** Mostly valid values, with the odd bad one, so both the accept and the reject paths are exercised. */
const time = fc.constantFrom(
  '2026-11-22T10:00:00Z',
  '2026-11-22T10:00:10Z',
  '2026-11-22T10:00:10.123456Z',
  '2026-11-22T10:00:10+02:00',
  'yesterday',
)
const maybe = <T>(a: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 3, arbitrary: a }, fc.constant(undefined), fc.constant(null))
const conditionArb = fc.record(
  {
    type: fc.constantFrom('Ready', 'MemoryPressure', 'DiskPressure', 'KernelDeadlock'),
    status: fc.constantFrom('True', 'False', 'Unknown'),
    reason: maybe(fc.constantFrom('KubeletReady', 'KubeletNotReady', 'NodeStatusUnknown')),
    message: maybe(fc.string({ maxLength: 300 })),
    lastTransitionTime: maybe(time),
    lastHeartbeatTime: maybe(time),
  },
  { requiredKeys: ['type', 'status'] },
)
const taintArb = fc.record(
  {
    key: fc.constantFrom('nodewarden.io/not-ready', 'node.kubernetes.io/unreachable', 'dedicated'),
    value: fc.constantFrom('gpu', ''),
    effect: fc.constantFrom('NoSchedule', 'NoExecute', 'PreferNoSchedule'),
    timeAdded: time,
  },
  { requiredKeys: ['key', 'effect'] },
)
const labelsArb = fc.dictionary(
  fc.constantFrom(
    'topology.kubernetes.io/zone',
    'topology.kubernetes.io/region',
    'node.kubernetes.io/exclude-disruption',
  ),
  fc.constantFrom('eu-west-1a', 'eu-west-1b', ''),
)
const resourcesArb = fc.dictionary(fc.constantFrom('cpu', 'memory', 'pods'), fc.constantFrom('4', '3900m', '16Gi', 110))

const baseNodeArb = fc
  .record({
    uid: fc.constantFrom('uid-1', 'uid-2'),
    labels: labelsArb,
    annotations: fc.dictionary(
      fc.constantFrom('nodewarden.io/relief', 'node.alpha.kubernetes.io/ttl'),
      fc.constantFrom('0', '1'),
    ),
    taints: fc.array(taintArb, { maxLength: 3 }),
    unschedulable: fc.constantFrom(undefined, true, false),
    capacity: resourcesArb,
    conditions: fc.array(conditionArb, { maxLength: 5 }),
    heartbeat: time,
  })
  .map(({ uid, labels, annotations, taints, unschedulable, capacity, conditions, heartbeat }) =>
    rawNode('node-a', {
      heartbeat,
      patch: (n) => {
        Object.assign(at(n, 'metadata'), { uid, labels, annotations })
        Object.assign(at(n, 'spec'), { taints, ...(unschedulable === undefined ? {} : { unschedulable }) })
        Object.assign(at(n, 'status'), { capacity, allocatable: capacity, conditions })
      },
    }),
  )

/** Edits a kubelet heartbeat (or any other unread field) makes. */
const HEARTBEAT_EDITS = ['heartbeat', 'message', 'resourceVersion', 'managedFields', 'images'] as const
/** Edits to fields policy reads (some, like a reorder or an unread annotation, turn out not to matter). */
const OTHER_EDITS = [
  'conditionStatus',
  'conditionReason',
  'conditionTransition',
  'conditionType',
  'addCondition',
  'removeCondition',
  'reorderConditions',
  'addTaint',
  'removeTaint',
  'taintValue',
  'taintEffect',
  'taintTimeAdded',
  'label',
  'dropLabel',
  'annotation',
  'dropAnnotation',
  'unschedulable',
  'capacity',
  'dropCapacity',
  'allocatable',
  'uid',
  'creationTimestamp',
] as const
type EditKind = (typeof HEARTBEAT_EDITS)[number] | (typeof OTHER_EDITS)[number]
type Edit = { kind: EditKind; index: number; text: string; time: string; flag: boolean }

const editArb = (kinds: readonly EditKind[]) =>
  fc.record({
    kind: fc.constantFrom(...kinds),
    index: fc.nat(4),
    text: fc.constantFrom('a', 'b', 'KubeletNotReady', 'PLEG is not healthy', ''),
    time,
    flag: fc.boolean(),
  })

/** applyEdits returns a copy of the raw node with the edits made, as the API server would send it next. */
function applyEdits(node: Raw, edits: readonly Edit[]): Raw {
  const n = structuredClone(node)
  const meta = at(n, 'metadata')
  const spec = at(n, 'spec')
  const status = at(n, 'status')
  const conditions = (status.conditions ?? []) as Raw[]
  const taints = (spec.taints ?? []) as Raw[]
  for (const e of edits) {
    const c = conditions[e.index % Math.max(1, conditions.length)]
    const t = taints[e.index % Math.max(1, taints.length)]
    switch (e.kind) {
      case 'heartbeat':
        for (const x of conditions) x.lastHeartbeatTime = e.time
        break
      case 'message':
        if (c) c.message = e.flag ? e.text : e.text.repeat(100)
        break
      case 'resourceVersion':
        meta.resourceVersion = String(e.index + 500)
        break
      case 'managedFields':
        meta.managedFields = [{ manager: 'kubelet', time: e.time }]
        break
      case 'images':
        status.images = e.flag ? [] : [{ names: [e.text], sizeBytes: e.index }]
        break
      case 'conditionStatus':
        if (c) c.status = e.flag ? 'False' : 'Unknown'
        break
      case 'conditionReason':
        if (c) c.reason = e.text
        break
      case 'conditionTransition':
        if (c) c.lastTransitionTime = e.time
        break
      case 'conditionType':
        if (c) c.type = e.flag ? 'NetworkUnavailable' : 'Ready'
        break
      case 'addCondition':
        conditions.push({ type: 'KernelDeadlock', status: 'True', reason: e.text, lastHeartbeatTime: e.time })
        break
      case 'removeCondition':
        conditions.splice(e.index % Math.max(1, conditions.length), 1)
        break
      case 'reorderConditions':
        conditions.reverse()
        break
      case 'addTaint':
        taints.push({ key: `k-${e.text}`, effect: e.flag ? 'NoExecute' : 'NoSchedule' })
        break
      case 'removeTaint':
        taints.splice(e.index % Math.max(1, taints.length), 1)
        break
      case 'taintValue':
        if (t) t.value = e.text
        break
      case 'taintEffect':
        if (t) t.effect = e.flag ? 'NoExecute' : 'NoSchedule'
        break
      case 'taintTimeAdded':
        if (t) t.timeAdded = e.time
        break
      case 'label':
        meta.labels = { ...(meta.labels as Raw), 'topology.kubernetes.io/zone': e.text }
        break
      case 'dropLabel':
        meta.labels = dropLast(meta.labels as Raw)
        break
      case 'dropAnnotation':
        meta.annotations = dropLast(meta.annotations as Raw)
        break
      case 'dropCapacity':
        status.capacity = dropLast(status.capacity as Raw)
        break
      case 'annotation':
        meta.annotations = { ...(meta.annotations as Raw), [e.flag ? 'nodewarden.io/relief' : 'other']: e.text }
        break
      case 'unschedulable':
        spec.unschedulable = e.flag
        break
      case 'capacity':
        status.capacity = { ...(status.capacity as Raw), cpu: e.flag ? '8' : '2' }
        break
      case 'allocatable':
        status.allocatable = { ...(status.allocatable as Raw), memory: e.flag ? '1Gi' : '2Gi' }
        break
      case 'uid':
        meta.uid = `uid-${e.text}`
        break
      case 'creationTimestamp':
        meta.creationTimestamp = e.time
        break
    }
  }
  status.conditions = conditions
  spec.taints = taints
  return n
}

function slimOrError(raw: unknown): SlimNode | Error {
  try {
    return toSlimNode(raw)
  } catch (err) {
    return err as Error
  }
}

/** Runs one upsert through the cache the way the watcher's node sink does, noting a rejection. */
function upsert(cache: SlimCache, raw: Raw, rv: string): string[] | 'rejected' {
  try {
    return cache.upsertNodeObject('node-a', raw, rv, toSlimNode)
  } catch {
    return 'rejected'
  }
}

describe('heartbeat fast path (refreshSlimNode)', () => {
  test.prop([baseNodeArb, fc.array(editArb([...HEARTBEAT_EDITS, ...OTHER_EDITS]), { maxLength: 4 })], {
    numRuns: 1_000,
  })('whenever it refreshes a node, the result is exactly what toSlimNode returns', (base, edits) => {
    const before = slimOrError(base)
    fc.pre(!(before instanceof Error))
    const next = applyEdits(base, edits)
    const refreshed = refreshSlimNode(before, next)
    fc.pre(refreshed !== undefined)
    expect(refreshed).toStrictEqual(slimOrError(next))
  })

  test.prop([baseNodeArb, fc.array(editArb([...HEARTBEAT_EDITS, ...OTHER_EDITS]), { maxLength: 4 })], {
    numRuns: 1_000,
  })(
    'the cache reports a change exactly when the meaningful fields changed, and keeps what toSlimNode returns',
    (base, edits) => {
      const before = slimOrError(base)
      fc.pre(!(before instanceof Error))
      const cache = new SlimCache()
      cache.upsertNodeObject('node-a', base, '100', toSlimNode)
      const next = applyEdits(base, edits)
      const full = slimOrError(next)
      const got = upsert(cache, next, '101')
      if (full instanceof Error) {
        // The previous state stays, as the full path leaves it.
        expect(got).toBe('rejected')
        expect(cache.node('node-a')?.node).toStrictEqual(before)
        return
      }
      const changed = meaningfulNodeKey(full) !== meaningfulNodeKey(before)
      expect(got).toEqual(changed ? ['node-a'] : [])
      expect(cache.node('node-a')?.node).toStrictEqual(full)
    },
  )

  test.prop(
    [
      baseNodeArb,
      fc.array(editArb(HEARTBEAT_EDITS), { maxLength: 3 }),
      editArb(OTHER_EDITS),
      fc.array(editArb(HEARTBEAT_EDITS), { maxLength: 3 }),
    ],
    { numRuns: 1_000 },
  )('a meaningful change hidden among heartbeat edits is never absorbed', (base, pre, edit, post) => {
    const before = slimOrError(base)
    fc.pre(!(before instanceof Error))
    const next = applyEdits(base, [...pre, edit, ...post])
    const full = slimOrError(next)
    fc.pre(!(full instanceof Error) && meaningfulNodeKey(full) !== meaningfulNodeKey(before))
    expect(refreshSlimNode(before, next)).toBeUndefined()
    const cache = new SlimCache()
    cache.upsertNodeObject('node-a', base, '100', toSlimNode)
    expect(cache.upsertNodeObject('node-a', next, '101', toSlimNode)).toEqual(['node-a'])
    expect(cache.changeRvOf('node-a')).toBe('101')
  })

  test.prop([baseNodeArb, fc.array(editArb(HEARTBEAT_EDITS), { minLength: 1, maxLength: 5 })], { numRuns: 500 })(
    'heartbeat-only updates to a canonical node take the fast path and are absorbed with the latest heartbeat kept',
    (base, edits) => {
      const before = slimOrError(base)
      // A node as the API server writes it: its fields already in the form the converter keeps
      // (quantities as strings), so the fast path recognises it as unchanged.
      fc.pre(!(before instanceof Error) && refreshSlimNode(before, base) !== undefined)
      const next = applyEdits(base, edits)
      const full = slimOrError(next)
      fc.pre(!(full instanceof Error))
      expect(refreshSlimNode(before, next)).toStrictEqual(full)
      const cache = new SlimCache()
      cache.upsertNodeObject('node-a', base, '100', toSlimNode)
      expect(cache.upsertNodeObject('node-a', next, '101', toSlimNode)).toEqual([])
      expect(cache.node('node-a')?.node).toStrictEqual(full)
      expect(cache.changeRvOf('node-a')).toBe('100')
    },
  )

  it.each([
    { name: 'a condition that is an array, not an object', value: ['Ready', 'True'] },
    { name: 'a condition that is a string', value: 'Ready' },
    { name: 'a condition that is null', value: null },
  ])('leaves $name to the full path', ({ value }) => {
    const base = rawNode('node-a', { patch: (n) => (at(n, 'status').conditions = [{ type: 'Ready', status: 'True' }]) })
    const next = rawNode('node-a', { patch: (n) => (at(n, 'status').conditions = [value]) })
    expect(refreshSlimNode(toSlimNode(base), next)).toBeUndefined()
  })

  it.each([
    { name: 'a quantity given as a number', patch: (n: Raw) => (at(n, 'status.capacity').cpu = 4) },
    {
      name: 'labels in another order',
      patch: (n: Raw) => (at(n, 'metadata').labels = reversed(at(n, 'metadata.labels'))),
    },
    {
      name: 'a taint with a null value',
      patch: (n: Raw) => (at(n, 'spec').taints = [{ key: 'k', value: null, effect: 'NoSchedule' }]),
    },
  ])('leaves $name to the full path', ({ patch }) => {
    expect(refreshSlimNode(toSlimNode(rawNode('node-a')), rawNode('node-a', { patch }))).toBeUndefined()
  })

  it('rejects a heartbeat that is not a timestamp the way the full path does, keeping the previous node', () => {
    const cache = new SlimCache()
    cache.upsertNodeObject('node-a', rawNode('node-a'), '100', toSlimNode)
    const bad = rawNode('node-a', { rv: '101', heartbeat: 'yesterday' })
    expect(refreshSlimNode(toSlimNode(rawNode('node-a')), bad)).toBeUndefined()
    expect(() => cache.upsertNodeObject('node-a', bad, '101', toSlimNode)).toThrow(/lastHeartbeatTime/)
    expect(cache.node('node-a')?.node.resourceVersion).toBe('100')
  })

  it('uses the full path for a converter other than toSlimNode', () => {
    const cache = new SlimCache()
    let calls = 0
    const counting = (o: unknown) => {
      calls++
      return toSlimNode(o)
    }
    cache.upsertNodeObject('node-a', rawNode('node-a'), '100', counting)
    cache.upsertNodeObject('node-a', rawNode('node-a', { rv: '101', heartbeat: T1 }), '101', counting)
    expect(calls).toBe(2)
    expect(cache.node('node-a')?.node.conditions[0]?.lastHeartbeatTime).toBe(T1)
  })
})

function dropLast(o: Raw): Raw {
  return Object.fromEntries(Object.entries(o).slice(0, -1))
}

function reversed(o: Raw): Raw {
  return Object.fromEntries(Object.entries(o).reverse())
}
