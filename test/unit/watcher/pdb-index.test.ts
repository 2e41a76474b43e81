import { fc, test } from '@fast-check/vitest'
import { describe, expect } from 'vitest'
import { SlimCache } from '../../../functions/watcher/slim-cache.ts'
import type { SlimPdb } from '../../../shared/messages/index.ts'
import { matchesLabelSelector } from '../../../shared/policy/label-selector.ts'
import { aPdb, aPod } from '../../fixtures/builders.ts'

const namespace = fc.constantFrom('a', 'b', 'c')
const app = fc.constantFrom('web', 'db')
const selector: fc.Arbitrary<SlimPdb['selector']> = fc.oneof(
  fc.constant(null),
  fc.constant({}),
  app.map((v) => ({ matchLabels: { app: v } })),
  app.map((v) => ({ matchLabels: { tier: 'front', app: v } })),
  app.map((v) => ({ matchExpressions: [{ key: 'app', operator: 'NotIn' as const, values: [v] }] })),
)
type Op = { upsert: boolean; namespace: string; name: string; selector: SlimPdb['selector'] }
const opArb: fc.Arbitrary<Op> = fc.record({
  upsert: fc.boolean(),
  namespace,
  name: fc.constantFrom('p1', 'p2', 'p3'),
  selector,
})
const podsArb = fc.array(fc.record({ namespace, app, front: fc.boolean() }), { maxLength: 6 })

describe('PDBs indexed by namespace', () => {
  test.prop([fc.array(opArb, { maxLength: 30 }), podsArb], { numRuns: 300 })(
    'pdbsSelecting finds exactly the PDBs a scan of every PDB finds, sorted',
    (ops, podSpecs) => {
      const cache = new SlimCache()
      const model = new Map<string, SlimPdb>()
      for (const [i, op] of ops.entries()) {
        const key = `${op.namespace}/${op.name}`
        if (op.upsert) {
          const pdb = aPdb({ namespace: op.namespace, name: op.name, selector: op.selector })
          model.set(key, pdb)
          cache.upsertPdb(key, pdb, String(i))
        } else {
          model.delete(key)
          cache.deletePdb(key, String(i))
        }
      }
      const pods = podSpecs.map((p, i) =>
        aPod({
          namespace: p.namespace,
          name: `pod-${i}`,
          labels: { app: p.app, ...(p.front ? { tier: 'front' } : {}) },
        }),
      )
      const want = [...model.values()]
        .filter((d) =>
          pods.some(
            (p) => p.namespace === d.namespace && d.selector != null && matchesLabelSelector(d.selector, p.labels),
          ),
        )
        .sort((x, y) => (`${x.namespace}/${x.name}` < `${y.namespace}/${y.name}` ? -1 : 1))
      expect(cache.pdbsSelecting(pods)).toStrictEqual(want)
    },
  )
})
