import { describe, expect, it } from 'vitest'
import { assembleNodeView, viewDeduplicationId } from '../../../functions/watcher/assemble-node-view.ts'
import { SlimCache } from '../../../functions/watcher/slim-cache.ts'
import { ZoneCounts, zoneMembershipOf } from '../../../functions/watcher/zone-counts.ts'
import { NodeViewSchema } from '../../../shared/messages/index.ts'
import { aNode, aPdb, aPod } from '../../fixtures/builders.ts'

const NOW = new Date('2026-11-22T10:05:00Z')
const notReady = (name: string, zone: string) =>
  aNode({
    name,
    labels: { 'topology.kubernetes.io/region': 'r', 'topology.kubernetes.io/zone': zone },
    conditions: [{ type: 'Ready', status: 'Unknown', lastTransitionTime: '2026-11-22T10:00:00Z' }],
  })
const ready = (name: string, zone: string) =>
  aNode({ name, labels: { 'topology.kubernetes.io/region': 'r', 'topology.kubernetes.io/zone': zone } })

function cluster(): SlimCache {
  const cache = new SlimCache()
  cache.upsertNode(ready('a1', 'a'), '1')
  cache.upsertNode(notReady('a2', 'a'), '2')
  cache.upsertNode(ready('b1', 'b'), '3')
  cache.upsertNode(aNode({ name: 'x1', labels: { 'node.kubernetes.io/exclude-disruption': '' } }), '4')
  cache.upsertPod('default/web-1', aPod({ name: 'web-1', nodeName: 'a1', labels: { app: 'web' } }), '5')
  cache.upsertPod('default/db-1', aPod({ name: 'db-1', nodeName: 'a1', labels: { app: 'db' } }), '6')
  cache.upsertPod('default/web-2', aPod({ name: 'web-2', nodeName: 'b1', labels: { app: 'web' } }), '7')
  cache.upsertPdb('default/web', aPdb({ name: 'web', selector: { matchLabels: { app: 'web' } } }), '8')
  cache.upsertPdb('other/web', aPdb({ namespace: 'other', name: 'web', selector: {} }), '9')
  cache.upsertPdb('default/cache', aPdb({ name: 'cache', selector: { matchLabels: { app: 'cache' } } }), '10')
  return cache
}

describe('NodeView assembly', () => {
  it('carries the node, its pods sorted, the PDBs selecting them and every zone', () => {
    const view = assembleNodeView(cluster(), 'a1', 'pod', NOW)
    expect(NodeViewSchema.parse(view)).toEqual(view)
    expect(view?.pods.map((p) => p.name)).toEqual(['db-1', 'web-1'])
    expect(view?.pdbs.map((p) => `${p.namespace}/${p.name}`)).toEqual(['default/web'])
    expect(view?.zones).toEqual([
      { zone: 'r:\u0000:a', ready: 1, notReady: 1, total: 2, affected: 0 },
      { zone: 'r:\u0000:b', ready: 1, notReady: 0, total: 1, affected: 0 },
    ])
    expect(view?.clusterSize).toBe(4)
    expect(view).toMatchObject({ cause: 'pod', observedAt: NOW.toISOString() })
  })

  it('sends a deleted node as its last state, with no pods, cause deleted', () => {
    const cache = cluster()
    cache.deleteNode('b1', '20')
    const view = assembleNodeView(cache, 'b1', 'node', NOW)
    expect(view).toMatchObject({ cause: 'deleted', pods: [], pdbs: [] })
    expect(view?.zones.map((z) => z.zone)).toEqual(['r:\u0000:a'])
  })

  it('returns nothing for a node it never saw', () => {
    expect(assembleNodeView(cluster(), 'ghost', 'pod', NOW)).toBeUndefined()
  })
})

describe('zone counts', () => {
  it.each<{ name: string; labels: Record<string, string>; zone: string }>([
    {
      name: 'legacy labels win when present',
      labels: { 'failure-domain.beta.kubernetes.io/zone': 'z', 'topology.kubernetes.io/zone': 'y' },
      zone: ':\u0000:z',
    },
    { name: 'no labels is the empty zone', labels: {}, zone: '' },
  ])('$name', ({ labels, zone }) => {
    expect(zoneMembershipOf(aNode({ labels }))?.zone).toBe(zone)
  })

  it('moves a node between ready and notReady and forgets empty zones', () => {
    const counts = new ZoneCounts()
    counts.move(undefined, { zone: 'a', ready: true, affected: false })
    counts.move({ zone: 'a', ready: true, affected: false }, { zone: 'a', ready: false, affected: false })
    expect(counts.summaries()).toEqual([{ zone: 'a', ready: 0, notReady: 1, total: 1, affected: 0 }])
    counts.move({ zone: 'a', ready: false, affected: false }, undefined)
    expect(counts.summaries()).toEqual([])
  })

  it('counts nodes carrying a nodewarden NoExecute taint as affected, for the fraction guard', () => {
    const tainted = (effect: 'NoExecute' | 'NoSchedule', key = 'nodewarden.io/kernel-deadlock') =>
      zoneMembershipOf(aNode({ labels: { 'topology.kubernetes.io/zone': 'a' }, taints: [{ key, effect }] }))
    expect(tainted('NoExecute')?.affected).toBe(true)
    expect(tainted('NoSchedule')?.affected).toBe(false)
    expect(tainted('NoExecute', 'node.kubernetes.io/unreachable')?.affected).toBe(false)
    const counts = new ZoneCounts()
    counts.move(undefined, tainted('NoSchedule'))
    counts.move(undefined, tainted('NoExecute'))
    expect(counts.summaries()[0]).toMatchObject({ total: 2, affected: 1 })
    counts.move(tainted('NoExecute'), tainted('NoSchedule'))
    expect(counts.summaries()[0]).toMatchObject({ total: 2, affected: 0 })
  })
})

describe('view deduplication id', () => {
  const cache = cluster()
  const view = assembleNodeView(cache, 'a1', 'pod', NOW)
  if (!view) throw new Error('no view')
  const later = { ...view, observedAt: '2026-11-22T11:00:00Z', cause: 'resync' as const }
  const heartbeat = {
    ...view,
    node: {
      ...view.node,
      resourceVersion: '99',
      conditions: view.node.conditions.map((c) => ({ ...c, lastHeartbeatTime: '2026-11-22T11:00:00Z' })),
    },
  }

  it.each([
    { name: 'observedAt and cause', other: later, same: true },
    { name: 'heartbeat and resourceVersion', other: heartbeat, same: true },
    {
      name: 'a pod phase',
      other: { ...view, pods: view.pods.map((p) => ({ ...p, phase: 'Failed' as const })) },
      same: false,
    },
  ])('ignores or notices $name (same=$same)', ({ other, same }) => {
    expect(viewDeduplicationId(other, '6') === viewDeduplicationId(view, '6')).toBe(same)
  })

  it('differs when the same state comes back after a change (A → B → A)', () => {
    expect(viewDeduplicationId(view, '6')).not.toBe(viewDeduplicationId(view, '12'))
  })

  it('differs per resync round, starts with the node uid and fits SQS (≤ 128 chars)', () => {
    const id = viewDeduplicationId(view, '6', 1)
    expect(id).not.toBe(viewDeduplicationId(view, '6', 2))
    expect(id.startsWith(`${view.node.uid}:`)).toBe(true)
    expect(id.length).toBeLessThanOrEqual(128)
  })
})
