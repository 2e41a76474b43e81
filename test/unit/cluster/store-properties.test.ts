import { fc, test } from '@fast-check/vitest'
import { describe, expect } from 'vitest'
import { Operations } from '../../../functions/cluster/operations.ts'
import { type KubeObject, ObjectStore } from '../../../functions/cluster/store.ts'

const NOW = () => new Date('2026-11-22T10:00:00Z')
const names = fc.constantFrom('a', 'b', 'c')
const op = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), name: names, label: fc.string({ maxLength: 3 }) }),
  fc.record({ kind: fc.constant('patch' as const), name: names, body: fc.jsonValue() }),
  fc.record({ kind: fc.constant('jsonpatch' as const), name: names, body: fc.jsonValue() }),
  fc.record({ kind: fc.constant('smp' as const), name: names, body: fc.jsonValue() }),
  fc.record({ kind: fc.constant('update' as const), name: names, rv: fc.option(fc.nat(40)), body: fc.jsonValue() }),
  fc.record({ kind: fc.constant('delete' as const), name: names }),
)

describe('emulator store under random requests', () => {
  test.prop([fc.array(op, { maxLength: 40 })], { numRuns: 150 })(
    'never corrupts objects, versions increase, and a watch replays to the list',
    (ops) => {
      const store = new ObjectStore({ historyLimit: 1000, now: NOW })
      const operations = new Operations(store, NOW)
      const def = store.resolve('configmaps')
      operations.create(store.resolve('namespaces'), '', { metadata: { name: 'default' } })
      const startRv = String(store.currentRv)
      const seen = new Map<string, KubeObject>()
      const rvs: number[] = []
      store.subscribe(def, {}, startRv, (event, type) => {
        rvs.push(event.rv)
        if (type === 'DELETED') seen.delete(event.entry.key)
        else seen.set(event.entry.key, event.entry.obj)
      })
      for (const o of ops) {
        const before = store.getEntry(def, 'default', o.name)?.json
        try {
          if (o.kind === 'create')
            operations.create(def, 'default', { metadata: { name: o.name, labels: { l: 'x' } }, data: { v: o.label } })
          else if (o.kind === 'patch') operations.patch(def, 'default', o.name, o.body, 'merge')
          else if (o.kind === 'jsonpatch') operations.patch(def, 'default', o.name, o.body, 'json')
          else if (o.kind === 'smp') operations.patch(def, 'default', o.name, o.body, 'strategic')
          else if (o.kind === 'update')
            operations.update(def, 'default', o.name, {
              metadata: { name: o.name, ...(o.rv !== null ? { resourceVersion: String(o.rv) } : {}) },
              data: o.body,
            })
          else operations.delete(def, 'default', o.name)
        } catch (err) {
          // a rejected request must be an API error and must leave the object untouched
          expect((err as { code?: number }).code).toBeGreaterThanOrEqual(400)
          expect(store.getEntry(def, 'default', o.name)?.json).toBe(before)
        }
      }
      for (let i = 1; i < rvs.length; i++) expect(rvs[i]).toBeGreaterThan(rvs[i - 1] as number)
      const listed = store.listEntries(def, { namespace: 'default' }).items
      expect(new Map(listed.map((e) => [e.key, e.obj]))).toEqual(seen)
      for (const e of listed) {
        expect(e.obj.metadata.name).toBe(e.key.split('/')[1])
        expect(e.obj.kind).toBe('ConfigMap')
        expect(JSON.parse(e.json)).toEqual(e.obj)
      }
    },
  )
})
