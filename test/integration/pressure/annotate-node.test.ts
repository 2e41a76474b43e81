import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Emulator } from '../../../functions/cluster/emulator.ts'
import type { Cluster } from '../../../functions/write/cluster.ts'
import { ANNOTATION_LAST_RELIEF } from '../../../shared/pressure/index.ts'
import { clusterFor, startWriterEmulator } from '../write/emulator-setup.ts'

let emulator: Emulator
let cluster: Cluster
beforeEach(async () => {
  emulator = await startWriterEmulator()
  cluster = clusterFor(emulator)
})
afterEach(async () => {
  await emulator.close()
})

const stamp = '{"at":"2026-11-22T10:00:00.000Z","pod":"default/web-0-0","decision":"d1"}'

describe('annotateNode (the relief stamp) against the Kubernetes API emulator', () => {
  it('merges the annotation with the resourceVersion read, keeping taints and other annotations', async () => {
    const node = (await cluster.readNode('node-a'))!
    await cluster.replaceNodeTaints(node, [{ key: 'nodewarden.io/x', effect: 'NoSchedule' }], { keep: 'me' }, false)
    const fresh = (await cluster.readNode('node-a'))!
    expect(await cluster.annotateNode(fresh, { [ANNOTATION_LAST_RELIEF]: stamp }, false)).toEqual({ kind: 'written' })
    const after = (await cluster.readNode('node-a'))!
    expect(after.metadata.annotations).toMatchObject({ keep: 'me', [ANNOTATION_LAST_RELIEF]: stamp })
    expect(after.spec.taints).toEqual([{ key: 'nodewarden.io/x', effect: 'NoSchedule' }])
  })

  it('gets 409 when the node changed since it was read', async () => {
    const stale = (await cluster.readNode('node-a'))!
    const fresh = (await cluster.readNode('node-a'))!
    await cluster.annotateNode(fresh, { other: 'writer' }, false)
    expect(await cluster.annotateNode(stale, { [ANNOTATION_LAST_RELIEF]: stamp }, false)).toEqual({ kind: 'conflict' })
  })

  it('answers gone for a deleted node and stores nothing on a dry run', async () => {
    const node = (await cluster.readNode('node-a'))!
    expect(await cluster.annotateNode(node, { [ANNOTATION_LAST_RELIEF]: stamp }, true)).toEqual({ kind: 'written' })
    expect((await cluster.readNode('node-a'))!.metadata.annotations[ANNOTATION_LAST_RELIEF]).toBeUndefined()
    emulator.store.delete('nodes', '', 'node-b')
    const ghost = { ...node, metadata: { ...node.metadata, name: 'node-b' } }
    expect(await cluster.annotateNode(ghost, { [ANNOTATION_LAST_RELIEF]: stamp }, false)).toEqual({ kind: 'gone' })
  })
})
