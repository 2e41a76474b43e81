import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Emulator } from '../../../functions/cluster/emulator.ts'
import { DEFAULT_BUDGET_LIMITS } from '../../../functions/write/budget-ledger.ts'
import { handleDecision, type WriteDeps } from '../../../functions/write/handle-decision.ts'
import { silentLog } from '../../../shared/log.ts'
import type { Decision } from '../../../shared/messages/index.ts'
import { grantedPermissions, readManifest } from '../../fixtures/rbac.ts'
import { anEvictDecision, aTaintDecision } from '../../unit/write/fixtures.ts'
import { clusterFor, LEDGER, NAMESPACE, startWriterEmulator } from './emulator-setup.ts'

const docs = readManifest('infra/k8s/writer-rbac.yaml')
const granted = () => grantedPermissions(docs, { withResourceNames: true })

let emulator: Emulator
beforeAll(async () => {
  emulator = await startWriterEmulator({ nodes: 1, podsPerNode: 4 })
})
afterAll(async () => {
  await emulator.close()
})

describe('writer RBAC (infra/k8s/writer-rbac.yaml)', () => {
  it('grants exactly the verbs the writer uses across every action, nothing more', async () => {
    emulator.requests.clear()
    const deps: WriteDeps = {
      cluster: clusterFor(emulator),
      now: () => new Date('2026-11-22T10:00:00Z'),
      dryRun: false,
      limits: DEFAULT_BUDGET_LIMITS,
      requeue: async () => {},
      sendAlert: async () => {},
      log: silentLog,
      maxConflictRetries: 3,
      maxBlockedAttempts: 3,
    }
    const pod = (n: string) => ({
      kind: 'Pod' as const,
      namespace: 'default',
      name: n,
      uid: `uid-default-${n}`,
      nodeName: 'node-a',
    })
    const decisions: Decision[] = [
      aTaintDecision(),
      anEvictDecision({ target: pod('web-0-0'), preconditions: [] }),
      anEvictDecision({
        id: 'decision-backfill',
        action: 'backfillTolerations',
        target: pod('web-0-1'),
        preconditions: [],
        budget: undefined,
        tolerations: [
          { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        ],
      }),
    ]
    for (const d of decisions) expect((await handleDecision(d, deps)).status).toBe('applied')
    emulator.store.patch('pods', 'default', 'web-0-2', { status: { phase: 'Failed', reason: 'Evicted' } })
    const cleanup = anEvictDecision({
      id: 'decision-delete',
      action: 'deleteEvictedPod',
      target: pod('web-0-2'),
      budget: undefined,
      preconditions: [{ type: 'podPhase', phases: ['Failed'] }],
    })
    expect((await handleDecision(cleanup, deps)).status).toBe('applied')
    emulator.store.patch('nodes', '', 'node-a', {
      status: { conditions: [{ type: 'KernelDeadlock', status: 'False' }] },
    })
    const untaint = aTaintDecision({ id: 'decision-untaint', action: 'untaint', preconditions: [], budget: undefined })
    expect((await handleDecision(untaint, deps)).status).toBe('applied')

    const used = new Set(
      emulator.requests.all().map((r) => `${r.resource} ${r.verb}${r.resource === 'configmaps' ? ` ${r.name}` : ''}`),
    )
    // Reading pods and nodes is part of every re-check; the ledger is the only ConfigMap touched.
    // Core `events create` is the fallback where events.k8s.io/v1 is not served (next test).
    expect([...used].sort()).toEqual(granted().filter((g) => g !== 'events create'))
    expect(granted()).toEqual(
      [
        'configmaps get nodewarden-writer-ledger',
        'configmaps update nodewarden-writer-ledger',
        'events create',
        'events.events.k8s.io create',
        'nodes get',
        'nodes patch',
        'pods delete',
        'pods get',
        'pods patch',
        'pods/eviction create',
      ].sort(),
    )
    expect(docs.find((d) => d.kind === 'ConfigMap')?.metadata).toEqual({ name: LEDGER, namespace: NAMESPACE })
  })

  it('falls back to core/v1 Events where events.k8s.io answers 404, the one remaining grant', async () => {
    emulator.requests.clear()
    const stop = emulator.faults.fail(404, { resource: 'events.events.k8s.io', verb: 'create' })
    try {
      await clusterFor(emulator).recordEvent(
        {
          name: 'node-a.fallback0000000',
          namespace: 'default',
          regarding: { kind: 'Node', name: 'node-a', uid: 'uid-node-a' },
          type: 'Normal',
          reason: 'NodewardenTainted',
          action: 'Taint',
          note: 'fallback',
        },
        new Date(),
      )
    } finally {
      stop()
    }
    expect(emulator.requests.filter({ resource: 'events', verb: 'create', status: 201 })).toHaveLength(1)
    expect(emulator.store.get('events', 'default', 'node-a.fallback0000000')).toMatchObject({
      reason: 'NodewardenTainted',
    })
  })

  it('grants no list, watch, deletecollection, or access to secrets', () => {
    expect(granted().filter((g) => /\b(list|watch|deletecollection|\*)\b|secrets/.test(g))).toEqual([])
  })
})
