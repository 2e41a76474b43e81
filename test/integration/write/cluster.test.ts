import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Emulator } from '../../../functions/cluster/emulator.ts'
import { EMPTY_LEDGER } from '../../../functions/write/budget-ledger.ts'
import type { Cluster } from '../../../functions/write/cluster.ts'
import { clusterFor, startWriterEmulator } from './emulator-setup.ts'

let emulator: Emulator
let cluster: Cluster
beforeEach(async () => {
  emulator = await startWriterEmulator()
  cluster = clusterFor(emulator)
})
afterEach(async () => {
  await emulator.close()
})

/** blockEvictions adds a PDB that no eviction of the web pods can satisfy. */
function blockEvictions() {
  emulator.store.create({
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'web', namespace: 'default' },
    spec: { minAvailable: 2, selector: { matchLabels: { app: 'web' } } },
  })
  emulator.tick()
}

const taint = { key: 'nodewarden.io/kernel-deadlock', value: 'true', effect: 'NoExecute' as const }

describe('writer adapters against the Kubernetes API emulator', () => {
  it('replaces node taints with the resourceVersion read, as a merge patch', async () => {
    const node = (await cluster.readNode('node-a'))!
    expect(await cluster.replaceNodeTaints(node, [taint], { 'nodewarden.io/taints': '{}' }, false)).toEqual({
      kind: 'written',
    })
    const after = (await cluster.readNode('node-a'))!
    expect(after.spec.taints).toEqual([taint])
    expect(after.metadata.annotations['nodewarden.io/taints']).toBe('{}')
    const patch = emulator.requests.filter({ verb: 'patch', resource: 'nodes' })
    expect(patch.map((r) => r.contentType)).toEqual(['application/merge-patch+json'])
  })

  it('gets 409 for a taint list planned from an older read, leaving the node as the other writer left it', async () => {
    const stale = (await cluster.readNode('node-a'))!
    const fresh = (await cluster.readNode('node-a'))!
    await cluster.replaceNodeTaints(fresh, [{ key: 'nodewarden.io/other', effect: 'NoSchedule' }], {}, false)
    expect(await cluster.replaceNodeTaints(stale, [taint], {}, false)).toEqual({ kind: 'conflict' })
    expect((await cluster.readNode('node-a'))!.spec.taints).toEqual([
      { key: 'nodewarden.io/other', effect: 'NoSchedule' },
    ])
  })

  it('validates a dry-run taint write on the server without storing it', async () => {
    const node = (await cluster.readNode('node-a'))!
    expect(await cluster.replaceNodeTaints(node, [taint], {}, true)).toEqual({ kind: 'written' })
    expect((await cluster.readNode('node-a'))!.spec.taints).toEqual([])
    expect(emulator.requests.filter({ verb: 'patch' })[0]?.query).toMatchObject({ dryRun: 'All' })
  })

  it('evicts a pod through the Eviction API (the pod starts terminating)', async () => {
    const pod = (await cluster.readPod('default', 'web-0-0'))!
    expect(await cluster.evictPod(pod, { dryRun: false })).toEqual({ kind: 'evicted' })
    expect(emulator.requests.filter({ method: 'POST', resource: 'pods/eviction' })).toHaveLength(1)
    const after = emulator.store.get('pods', 'default', 'web-0-0')
    expect(after === undefined || after.metadata.deletionTimestamp !== undefined).toBe(true)
  })

  it('reports an eviction of a pod that is gone as gone', async () => {
    const pod = (await cluster.readPod('default', 'web-0-0'))!
    emulator.store.delete('pods', 'default', 'web-0-0', { gracePeriodSeconds: 0 })
    emulator.tick()
    expect(await cluster.readPod('default', 'web-0-0')).toBeNull()
    expect(await cluster.evictPod(pod, { dryRun: false })).toEqual({ kind: 'gone' })
  })

  it('reports a PDB that blocks an eviction (429) with its reason', async () => {
    blockEvictions()
    const pod = (await cluster.readPod('default', 'web-0-0'))!
    const result = await cluster.evictPod(pod, { dryRun: false })
    expect(result).toMatchObject({ kind: 'blocked', failure: { code: 429 } })
  })

  it('deletes a pod with its uid precondition and the given grace period, which no PDB holds', async () => {
    blockEvictions()
    const pod = (await cluster.readPod('default', 'web-0-0'))!
    const stale = { ...pod, metadata: { ...pod.metadata, uid: 'uid-old' } }
    expect(await cluster.deletePod(stale, false, 30)).toMatchObject({ kind: 'conflict' })
    expect(await cluster.deletePod(pod, false, 30)).toEqual({ kind: 'written' })
    const after = emulator.store.get('pods', 'default', 'web-0-0')
    expect(after?.metadata.deletionTimestamp).toBeDefined()
    expect(after?.metadata.deletionGracePeriodSeconds).toBe(30)
  })

  it('reports several matching PDBs (500) apart from other failures', async () => {
    for (const name of ['web', 'web-too'])
      emulator.store.create({
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        metadata: { name, namespace: 'default' },
        spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'web' } } },
      })
    emulator.tick()
    const pod = (await cluster.readPod('default', 'web-0-0'))!
    expect(await cluster.evictPod(pod, { dryRun: false })).toMatchObject({ kind: 'multiplePdbs' })
  })

  it('refuses to evict a newer pod of the same name (uid precondition)', async () => {
    const pod = (await cluster.readPod('default', 'web-0-0'))!
    const result = await cluster.evictPod({ ...pod, metadata: { ...pod.metadata, uid: 'uid-old' } }, { dryRun: false })
    expect(result.kind).toBe('conflict')
    expect(await cluster.readPod('default', 'web-0-0')).not.toBeNull()
  })

  it('adds tolerations, and gets the API reason for a 422', async () => {
    const pod = (await cluster.readPod('default', 'web-0-0'))!
    const toleration = {
      key: 'node.kubernetes.io/unreachable',
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: 300,
    }
    expect(await cluster.addPodTolerations(pod, [toleration], false)).toEqual({ kind: 'written' })
    const after = (await cluster.readPod('default', 'web-0-0'))!
    expect(after.spec.tolerations).toEqual([toleration])
    // Removing a toleration is not an addition: the API server rejects it.
    const removal = await cluster.addPodTolerations(after, [], false)
    expect(removal).toMatchObject({ kind: 'invalid', failure: { code: 422 } })
  })

  it('records an Event once under its deterministic name', async () => {
    const event = {
      name: 'node-a.0123456789abcdef',
      namespace: 'default',
      regarding: { kind: 'Node' as const, name: 'node-a', uid: 'uid-node-a' },
      type: 'Normal' as const,
      reason: 'NodewardenTainted',
      action: 'Taint',
      note: 'taint node node-a',
    }
    await cluster.recordEvent(event, new Date())
    await cluster.recordEvent(event, new Date())
    const events = emulator.store.list('events.events.k8s.io', { namespace: 'default' })
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({ reportingController: 'nodewarden.io/writer', reason: 'NodewardenTainted' })
  })

  it('compare-and-swaps the ledger on its resourceVersion', async () => {
    const first = await cluster.readLedger()
    expect(first.ledger).toEqual(EMPTY_LEDGER)
    const next = {
      ...EMPTY_LEDGER,
      recent: [{ decision: 'd', at: new Date().toISOString(), kind: 'drain', zone: 'z', node: 'n' }],
    }
    expect(await cluster.writeLedger(next, first.resourceVersion, false)).toBe('written')
    expect(await cluster.writeLedger(next, first.resourceVersion, false)).toBe('conflict')
    expect((await cluster.readLedger()).ledger).toEqual(next)
  })
})
