import { describe, expect, it } from 'vitest'
import {
  applyJsonPatch,
  applyMergePatch,
  applyStrategicMergePatch,
  type Json,
} from '../../../functions/cluster/patch.ts'
import { BUILTIN_RESOURCES } from '../../../functions/cluster/resources.ts'

const nodeKeys = BUILTIN_RESOURCES.find((d) => d.kind === 'Node')?.mergeKeys ?? {}
const podKeys = BUILTIN_RESOURCES.find((d) => d.kind === 'Pod')?.mergeKeys ?? {}
type Obj = { [k: string]: Json }

describe('strategic merge patch', () => {
  it.each([
    {
      name: 'replaces node taints as a whole list (no merge key)',
      original: { spec: { taints: [{ key: 'a', effect: 'NoSchedule' }] } },
      patch: { spec: { taints: [{ key: 'b', effect: 'NoExecute' }] } },
      keys: nodeKeys,
      want: { spec: { taints: [{ key: 'b', effect: 'NoExecute' }] } },
    },
    {
      name: 'null deletes the taints field',
      original: { spec: { taints: [{ key: 'a', effect: 'NoSchedule' }], unschedulable: true } },
      patch: { spec: { taints: null } },
      keys: nodeKeys,
      want: { spec: { unschedulable: true } },
    },
    {
      name: 'merges conditions by type',
      original: {
        status: {
          conditions: [
            { type: 'Ready', status: 'True' },
            { type: 'DiskPressure', status: 'False' },
          ],
        },
      },
      patch: { status: { conditions: [{ type: 'DiskPressure', status: 'True' }] } },
      keys: nodeKeys,
      want: {
        status: {
          conditions: [
            { type: 'Ready', status: 'True' },
            { type: 'DiskPressure', status: 'True' },
          ],
        },
      },
    },
    {
      name: 'replaces pod tolerations (no merge key)',
      original: { spec: { tolerations: [{ key: 'a', operator: 'Exists' }] } },
      patch: { spec: { tolerations: [{ key: 'b', operator: 'Exists' }] } },
      keys: podKeys,
      want: { spec: { tolerations: [{ key: 'b', operator: 'Exists' }] } },
    },
    {
      name: 'merges containers by name and ignores $setElementOrder',
      original: {
        spec: {
          containers: [
            { name: 'c', image: 'a' },
            { name: 'd', image: 'x' },
          ],
        },
      },
      patch: {
        spec: {
          $setElementOrder: 1,
          '$setElementOrder/containers': [{ name: 'c' }],
          containers: [{ name: 'c', image: 'b' }],
        },
      },
      keys: podKeys,
      want: {
        spec: {
          containers: [
            { name: 'c', image: 'b' },
            { name: 'd', image: 'x' },
          ],
        },
      },
    },
    {
      name: 'deletes a merged element with $patch: delete',
      original: {
        status: {
          conditions: [
            { type: 'A', status: 'True' },
            { type: 'B', status: 'True' },
          ],
        },
      },
      patch: { status: { conditions: [{ type: 'A', $patch: 'delete' }] } },
      keys: nodeKeys,
      want: { status: { conditions: [{ type: 'B', status: 'True' }] } },
    },
    {
      name: 'merges labels and deletes with null',
      original: { metadata: { labels: { a: '1', b: '2' } } },
      patch: { metadata: { labels: { b: null, c: '3' } } },
      keys: nodeKeys,
      want: { metadata: { labels: { a: '1', c: '3' } } },
    },
  ])('$name', ({ original, patch, keys, want }) => {
    expect(applyStrategicMergePatch(original as unknown as Obj, patch, keys)).toEqual(want)
  })
})

describe('merge patch and JSON patch', () => {
  it('merge patch replaces lists and deletes nulls', () => {
    expect(applyMergePatch({ a: [1, 2], b: { c: 1, d: 2 } }, { a: [3], b: { c: null } })).toEqual({
      a: [3],
      b: { d: 2 },
    })
  })
  it('JSON patch applies add and test', () => {
    const out = applyJsonPatch({ spec: { taints: [] } }, [
      { op: 'test', path: '/spec/taints', value: [] },
      { op: 'add', path: '/spec/taints/-', value: { key: 'k', effect: 'NoSchedule' } },
    ])
    expect(out).toEqual({ spec: { taints: [{ key: 'k', effect: 'NoSchedule' }] } })
  })
  it('a failed JSON patch test is a 422 and leaves the document unchanged', () => {
    const doc = { spec: { unschedulable: false } }
    expect(() => applyJsonPatch(doc, [{ op: 'test', path: '/spec/unschedulable', value: true }])).toThrow(
      expect.objectContaining({ code: 422 }),
    )
    expect(doc).toEqual({ spec: { unschedulable: false } })
  })
})
