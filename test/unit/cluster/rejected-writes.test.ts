import { describe, expect, it } from 'vitest'
import { evictPod } from '../../../functions/cluster/eviction.ts'
import { Operations } from '../../../functions/cluster/operations.ts'
import { applyJsonPatch } from '../../../functions/cluster/patch.ts'
import { PdbController } from '../../../functions/cluster/pdb-controller.ts'
import { ApiError } from '../../../functions/cluster/status.ts'
import { ObjectStore } from '../../../functions/cluster/store.ts'

// Regressions found by test/integration/cluster/http-properties.test.ts: each request here used to
// answer 500 InternalError, or to fail after writing.

const NOW = () => new Date('2026-11-22T10:00:00Z')

function setUp() {
  const store = new ObjectStore({ historyLimit: 1000, now: NOW })
  const ops = new Operations(store, NOW)
  const pdbs = new PdbController(store, NOW)
  ops.create(store.resolve('namespaces'), '', { metadata: { name: 'default' } })
  const pods = store.resolve('pods')
  ops.create(pods, 'default', {
    metadata: { name: 'p0', labels: { app: 'web' } },
    spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'x' }] },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  })
  return { store, ops, pdbs, pods }
}

function apiError(fn: () => unknown): ApiError {
  try {
    fn()
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError)
    return err as ApiError
  }
  throw new Error('expected an ApiError')
}

describe('wrong field types', () => {
  it.each([
    ['pods', { spec: { containers: [], tolerations: 0 } }, 'Pod.spec.tolerations of type []struct'],
    ['pods', { spec: { containers: {} } }, 'Pod.spec.containers of type []struct'],
    ['pods', { status: 'Running' }, 'Pod.status of type struct'],
    ['nodes', { spec: { taints: 'NoSchedule' } }, 'Node.spec.taints of type []struct'],
    ['configmaps', { metadata: { labels: { app: 1 } } }, 'ConfigMap.metadata.labels of type map[string]string'],
    ['poddisruptionbudgets.policy', { status: { conditions: 'x' } }, 'PodDisruptionBudget.status.conditions'],
    ['poddisruptionbudgets.policy', { spec: { selector: { matchExpressions: 5 } } }, 'spec.selector.matchExpressions'],
  ])('rejects a %s with a 400 naming the field, and stores nothing', (resource, body, field) => {
    const { store, ops } = setUp()
    const def = store.resolve(resource)
    const rv = store.currentRv
    const b = body as { metadata?: object }
    const err = apiError(() => ops.create(def, 'default', { ...b, metadata: { name: 'x', ...b.metadata } }))
    expect(err.code).toBe(400)
    expect(err.message).toContain(field)
    expect(store.currentRv).toBe(rv)
  })
})

describe('JSON patch', () => {
  it('answers 422 for a move into its own child (fast-json-patch throws a TypeError)', () => {
    const err = apiError(() =>
      applyJsonPatch({ metadata: { labels: { a: 'b' } } }, [
        { op: 'move', from: '/metadata/labels', path: '/metadata/labels/app' },
      ]),
    )
    expect(err.code).toBe(422)
  })
})

describe('eviction', () => {
  const eviction = (deleteOptions: object) => ({ metadata: { name: 'p0' }, deleteOptions })

  it('honours a resourceVersion precondition naming the pod as found (upstream bumps it past the DisruptionTarget update)', () => {
    const { store, ops, pdbs, pods } = setUp()
    const rv = store.mustGet(pods, 'default', 'p0').obj.metadata.resourceVersion
    expect(evictPod(ops, pdbs, 'default', 'p0', eviction({ preconditions: { resourceVersion: rv } }), false).code).toBe(
      201,
    )
    expect(store.mustGet(pods, 'default', 'p0').obj.metadata.deletionTimestamp).toBeDefined()
  })

  it.each([
    ['a stale resourceVersion precondition', { preconditions: { resourceVersion: '1' } }, 409],
    ['a uid precondition of another pod', { preconditions: { uid: 'other' } }, 409],
    ['a non-integer grace period', { gracePeriodSeconds: 'x' }, 400],
    ['dryRun that is not a list', { dryRun: 5 }, 400],
  ])('fails on %s without writing the DisruptionTarget condition', (_, deleteOptions, code) => {
    const { store, ops, pdbs } = setUp()
    const rv = store.currentRv
    const err = apiError(() => evictPod(ops, pdbs, 'default', 'p0', eviction(deleteOptions), false))
    expect(err.code).toBe(code)
    expect(store.currentRv).toBe(rv)
  })
})
