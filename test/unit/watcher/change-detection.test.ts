import { describe, expect, it } from 'vitest'
import { SlimCache } from '../../../functions/watcher/slim-cache.ts'
import { toSlimNode } from '../../../shared/kube-slim/to-slim-node.ts'
import { toSlimPdb } from '../../../shared/kube-slim/to-slim-pdb.ts'
import { toSlimPod } from '../../../shared/kube-slim/to-slim-pod.ts'
import { at, rawNode, rawPdb, rawPod, T1 } from './raw-objects.ts'

type Raw = Record<string, unknown>
const conditions = (n: Raw) => at(n, 'status.conditions') as unknown as Raw[]
const ready = (n: Raw) => conditions(n).find((c) => c.type === 'Ready') as Raw

/** A cache holding node-a and node-b (same zone), pod web-1 on node-a, and PDB web selecting it. */
function seeded(): SlimCache {
  const cache = new SlimCache()
  cache.upsertNode(toSlimNode(rawNode('node-a')), '100')
  cache.upsertNode(toSlimNode(rawNode('node-b')), '101')
  cache.upsertPod('default/web-1', toSlimPod(rawPod('web-1')), '200')
  cache.upsertPdb('default/web', toSlimPdb(rawPdb('web')), '300')
  return cache
}

const nodeUpdates: { name: string; patch: (n: Raw) => void; meaningful: boolean }[] = [
  {
    name: 'heartbeat times only',
    patch: (n) => {
      for (const c of conditions(n)) c.lastHeartbeatTime = T1
    },
    meaningful: false,
  },
  { name: 'resourceVersion only', patch: (n) => (at(n, 'metadata').resourceVersion = '999'), meaningful: false },
  {
    name: 'managedFields',
    patch: (n) => (at(n, 'metadata').managedFields = [{ manager: 'x', time: T1 }]),
    meaningful: false,
  },
  { name: 'image list', patch: (n) => (at(n, 'status').images = []), meaningful: false },
  {
    name: 'addresses and nodeInfo',
    patch: (n) => Object.assign(at(n, 'status'), { addresses: [], nodeInfo: {} }),
    meaningful: false,
  },
  {
    name: 'condition message only',
    patch: (n) => (ready(n).message = 'PLEG is not healthy: 3m ago'),
    meaningful: false,
  },
  { name: 'condition order', patch: (n) => conditions(n).reverse(), meaningful: false },
  { name: 'an unrelated annotation', patch: (n) => (at(n, 'metadata.annotations').foo = 'bar'), meaningful: false },
  {
    name: 'Ready status',
    patch: (n) => Object.assign(ready(n), { status: 'False', lastTransitionTime: T1 }),
    meaningful: true,
  },
  { name: 'condition reason', patch: (n) => (ready(n).reason = 'KubeletNotReady'), meaningful: true },
  { name: 'condition transition time', patch: (n) => (ready(n).lastTransitionTime = T1), meaningful: true },
  {
    name: 'a new (unknown) condition type',
    patch: (n) =>
      conditions(n).push({ type: 'KernelDeadlock', status: 'True', reason: 'DockerHung', lastTransitionTime: T1 }),
    meaningful: true,
  },
  {
    name: 'taint added',
    patch: (n) => (at(n, 'spec').taints = [{ key: 'k', effect: 'NoExecute', timeAdded: T1 }]),
    meaningful: true,
  },
  { name: 'unschedulable', patch: (n) => (at(n, 'spec').unschedulable = true), meaningful: true },
  {
    name: 'zone label',
    patch: (n) => (at(n, 'metadata.labels')['topology.kubernetes.io/zone'] = 'eu-west-1b'),
    meaningful: true,
  },
  { name: 'allocatable', patch: (n) => (at(n, 'status.allocatable').memory = '14Gi'), meaningful: true },
  {
    name: 'a nodewarden annotation',
    patch: (n) => (at(n, 'metadata.annotations')['nodewarden.io/x'] = '1'),
    meaningful: true,
  },
]

describe('node change detection', () => {
  it.each(nodeUpdates)('$name: meaningful=$meaningful', ({ patch, meaningful }) => {
    const cache = seeded()
    const dirty = cache.upsertNode(toSlimNode(rawNode('node-a', { rv: '500', heartbeat: T1, patch })), '500')
    expect(dirty).toEqual(meaningful ? ['node-a'] : [])
  })

  it.each(nodeUpdates)(
    '$name, as a full object through the heartbeat fast path: meaningful=$meaningful',
    ({ patch, meaningful }) => {
      const cache = new SlimCache()
      cache.upsertNodeObject('node-a', rawNode('node-a'), '100', toSlimNode)
      const next = rawNode('node-a', { rv: '500', heartbeat: T1, patch })
      expect(cache.upsertNodeObject('node-a', next, '500', toSlimNode)).toEqual(meaningful ? ['node-a'] : [])
      expect(cache.node('node-a')?.node).toStrictEqual(toSlimNode(next))
    },
  )

  it('keeps the latest heartbeat in the cached node even when the update is absorbed', () => {
    const cache = seeded()
    cache.upsertNode(toSlimNode(rawNode('node-a', { rv: '500', heartbeat: T1 })), '500')
    const node = cache.node('node-a')?.node
    expect(node?.resourceVersion).toBe('500')
    expect(node?.conditions.find((c) => c.type === 'Ready')?.lastHeartbeatTime).toBe(T1)
  })

  it('marks a deleted node and keeps its tombstone until it is forgotten', () => {
    const cache = seeded()
    expect(cache.deleteNode('node-a', '600')).toEqual(['node-a'])
    expect(cache.node('node-a')?.deleted).toBe(true)
    cache.forgetTombstone('node-a')
    expect(cache.node('node-a')).toBeUndefined()
  })
})

const podUpdates: { name: string; patch: (p: Raw) => void; dirty: string[] }[] = [
  {
    name: 'container status and IP only',
    patch: (p) => Object.assign(at(p, 'status'), { podIP: '1.2.3.4', containerStatuses: [] }),
    dirty: [],
  },
  {
    name: 'resourceVersion and managedFields',
    patch: (p) => Object.assign(at(p, 'metadata'), { resourceVersion: '9', managedFields: [] }),
    dirty: [],
  },
  { name: 'phase', patch: (p) => (at(p, 'status').phase = 'Failed'), dirty: ['node-a'] },
  { name: 'readiness', patch: (p) => (at(p, 'status').conditions = []), dirty: ['node-a'] },
  { name: 'tolerations', patch: (p) => (at(p, 'spec').tolerations = []), dirty: ['node-a'] },
  { name: 'priority', patch: (p) => (at(p, 'spec').priority = 1000), dirty: ['node-a'] },
  { name: 'deletionTimestamp', patch: (p) => (at(p, 'metadata').deletionTimestamp = T1), dirty: ['node-a'] },
  { name: 'moved to another node', patch: (p) => (at(p, 'spec').nodeName = 'node-b'), dirty: ['node-a', 'node-b'] },
]

describe('pod change detection', () => {
  it.each(podUpdates)('$name: dirties $dirty', ({ patch, dirty }) => {
    const cache = seeded()
    expect(cache.upsertPod('default/web-1', toSlimPod(rawPod('web-1', { rv: '700', patch })), '700')).toEqual(dirty)
  })

  it('dirties the node when a pod is added or removed', () => {
    const cache = seeded()
    expect(cache.upsertPod('default/web-2', toSlimPod(rawPod('web-2', { node: 'node-b' })), '701')).toEqual(['node-b'])
    expect(cache.deletePod('default/web-2', '702')).toEqual(['node-b'])
    expect(cache.podsOn('node-b')).toEqual([])
  })

  it('does not keep pods that are not bound to a node', () => {
    const cache = new SlimCache()
    const unbound = rawPod('pending', { patch: (p) => delete at(p, 'spec').nodeName })
    expect(cache.upsertPod('default/pending', toSlimPod(unbound), '1')).toEqual([])
    expect(cache.counts().pods).toBe(0)
  })
})

const pdbUpdates: { name: string; patch: (p: Raw) => void; dirty: string[] }[] = [
  {
    name: 'status counters only',
    patch: (p) => Object.assign(at(p, 'status'), { disruptionsAllowed: 0, currentHealthy: 1 }),
    dirty: [],
  },
  { name: 'minAvailable', patch: (p) => (at(p, 'spec').minAvailable = 2), dirty: ['node-a'] },
  {
    name: 'selector no longer matching',
    patch: (p) => (at(p, 'spec').selector = { matchLabels: { app: 'db' } }),
    dirty: ['node-a'],
  },
  {
    name: 'unhealthyPodEvictionPolicy',
    patch: (p) => (at(p, 'spec').unhealthyPodEvictionPolicy = 'AlwaysAllow'),
    dirty: ['node-a'],
  },
]

describe('PDB change detection', () => {
  it.each(pdbUpdates)('$name: dirties $dirty', ({ patch, dirty }) => {
    const cache = seeded()
    expect(cache.upsertPdb('default/web', toSlimPdb(rawPdb('web', { rv: '800', patch })), '800')).toEqual(dirty)
  })

  it('dirties the nodes of selected pods when a PDB is deleted, and none for a PDB selecting nothing', () => {
    const cache = seeded()
    expect(cache.deletePdb('default/web', '801')).toEqual(['node-a'])
    const none = rawPdb('none', { patch: (p) => delete at(p, 'spec').selector })
    expect(cache.upsertPdb('default/none', toSlimPdb(none), '802')).toEqual([])
  })

  it('stamps each dirtied node with the resourceVersion of the change', () => {
    const cache = seeded()
    cache.upsertPod(
      'default/web-1',
      toSlimPod(rawPod('web-1', { patch: (p) => (at(p, 'status').phase = 'Failed') })),
      '900',
    )
    expect(cache.changeRvOf('node-a')).toBe('900')
    expect(cache.changeRvOf('node-b')).toBe('101')
  })
})
