import { describe, expect, it } from 'vitest'
import { DEFAULT_BUDGET_LIMITS } from '../../../functions/write/budget-ledger.ts'
import { handleDecision, type WriteDeps } from '../../../functions/write/handle-decision.ts'
import { NODE_TAINTS_ANNOTATION } from '../../../functions/write/plan-taints.ts'
import { type Alert, type Decision, MessageError } from '../../../shared/messages/index.ts'
import { aNodeObject, anEvictDecision, aPodObject, aTaintDecision } from '../../unit/write/fixtures.ts'
import { FakeCluster } from './fake-cluster.ts'

const NOW = new Date('2026-11-22T10:00:00Z')

function setup(cluster: FakeCluster, overrides: Partial<WriteDeps> = {}) {
  const alerts: Alert[] = []
  const requeued: { decision: Decision; delaySeconds: number }[] = []
  const logged: { msg: string; fields: unknown }[] = []
  const record = (msg: string, fields?: unknown) => {
    logged.push({ msg, fields })
  }
  const log = { debug: record, info: record, warn: record, error: record } as unknown as WriteDeps['log']
  const deps: WriteDeps = {
    cluster,
    now: () => NOW,
    dryRun: false,
    limits: DEFAULT_BUDGET_LIMITS,
    requeue: async (decision, delaySeconds) => {
      requeued.push({ decision, delaySeconds })
    },
    sendAlert: async (alert) => {
      alerts.push(alert)
    },
    log,
    maxConflictRetries: 4,
    maxBlockedAttempts: 6,
    ...overrides,
  }
  return { deps, alerts, requeued, logged }
}

describe('handleDecision: taint', () => {
  it('taints the node, annotates when/which rule/why, records an Event, claims the budget and alerts', async () => {
    const cluster = new FakeCluster([aNodeObject()])
    const { deps, alerts } = setup(cluster)
    const outcome = await handleDecision(aTaintDecision(), deps)
    expect(outcome).toMatchObject({ status: 'applied', code: 'applied' })
    const node = cluster.nodes.get('node-a')!
    expect(node.spec.taints).toEqual([
      { key: 'nodewarden.io/kernel-deadlock', value: 'true', effect: 'NoExecute', timeAdded: '2026-11-22T10:00:00Z' },
    ])
    expect(JSON.parse(node.metadata.annotations?.[NODE_TAINTS_ANNOTATION] ?? '{}')).toEqual({
      'nodewarden.io/kernel-deadlock:NoExecute': {
        at: NOW.toISOString(),
        rule: 'kernel-deadlock',
        reason: 'KernelDeadlock=True for 300s',
        decision: 'decision-taint-1',
      },
    })
    expect(cluster.effects).toEqual([
      'taints node-a nodewarden.io/kernel-deadlock:NoExecute',
      'event NodewardenTainted node-a',
    ])
    expect([...cluster.events.values()][0]).toMatchObject({ namespace: 'default', type: 'Normal', action: 'Taint' })
    expect(Object.keys(cluster.ledger.ledger.affected)).toEqual(['node-a'])
    expect(alerts).toMatchObject([
      { kind: 'ActionOutcome', severity: 'info', details: { outcome: 'applied', decisionId: 'decision-taint-1' } },
    ])
  })

  it('applies each effect once when the same decision is delivered twice', async () => {
    const cluster = new FakeCluster([aNodeObject()])
    const { deps, alerts } = setup(cluster)
    await handleDecision(aTaintDecision(), deps)
    const again = await handleDecision(aTaintDecision(), deps)
    expect(again).toMatchObject({ status: 'applied', reason: 'already applied by this decision' })
    expect(cluster.effects).toHaveLength(2)
    expect(alerts.map((a) => a.id)).toEqual([alerts[0]!.id, alerts[0]!.id])
    expect(cluster.ledger.ledger.recent).toHaveLength(1)
  })

  it('re-reads and re-plans on 409, never writing a list planned from an old read', async () => {
    const cluster = new FakeCluster([aNodeObject()])
    cluster.conflicts = 3
    const { deps } = setup(cluster)
    expect(await handleDecision(aTaintDecision(), deps)).toMatchObject({ status: 'applied' })
    expect(cluster.effects.filter((e) => e.startsWith('taints'))).toHaveLength(1)
  })

  it('gives up after the bounded retries with a transient error for SQS to redeliver', async () => {
    const cluster = new FakeCluster([aNodeObject()])
    cluster.conflicts = 5
    const { deps } = setup(cluster)
    await expect(handleDecision(aTaintDecision(), deps)).rejects.toThrow('5 conflicting writes in a row')
    expect(cluster.effects).toEqual([])
  })

  it.each([
    {
      name: 'skips a stale decision (condition cleared) with an Event and an alert, writing nothing',
      node: aNodeObject({ conditions: [{ type: 'KernelDeadlock', status: 'False' }] }),
      want: { status: 'skipped', code: 'stale', reason: 'KernelDeadlock is False, decided on True' },
      effects: ['event NodewardenDecisionStale node-a'],
    },
    {
      name: 'skips a node replaced under the same name',
      node: { ...aNodeObject(), metadata: { ...aNodeObject().metadata, uid: 'uid-new' } },
      want: { status: 'skipped', code: 'gone' },
      effects: [],
    },
  ])('$name', async ({ node, want, effects }) => {
    const cluster = new FakeCluster([node])
    const { deps, alerts } = setup(cluster)
    expect(await handleDecision(aTaintDecision(), deps)).toMatchObject(want)
    expect(cluster.effects.filter((e) => !e.startsWith('event'))).toEqual([])
    expect(cluster.effects).toEqual(effects)
    expect(alerts).toMatchObject([{ details: { outcome: 'skipped' } }])
    expect(cluster.ledger.ledger.recent).toEqual([])
  })

  it('reports a decision for a node that does not exist as impossible, without a write', async () => {
    const cluster = new FakeCluster([])
    const { deps, alerts } = setup(cluster)
    expect(await handleDecision(aTaintDecision(), deps)).toMatchObject({
      status: 'skipped',
      code: 'gone',
      reason: 'node node-a does not exist',
    })
    expect(alerts).toHaveLength(1)
  })

  it.each([
    { name: 'an invalid key', taint: { key: 'nodewarden.io/bad key', effect: 'NoExecute' as const } },
    {
      name: 'a key outside nodewarden.io/',
      taint: { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' as const },
    },
  ])('rejects a taint with $name as malformed (dead-letter), touching nothing', async ({ taint }) => {
    const cluster = new FakeCluster([aNodeObject()])
    const { deps } = setup(cluster)
    await expect(handleDecision(aTaintDecision({ taint }), deps)).rejects.toBeInstanceOf(MessageError)
    expect(cluster.effects).toEqual([])
  })

  it.each([
    { name: 'within 900 s', notBefore: '2026-11-22T10:05:00Z', delay: 300 },
    { name: 'beyond 900 s, in steps', notBefore: '2026-11-22T11:00:00Z', delay: 900 },
  ])('re-enqueues a decision whose notBefore is ahead ($name)', async ({ notBefore, delay }) => {
    const cluster = new FakeCluster([aNodeObject()])
    const { deps, requeued } = setup(cluster)
    expect(await handleDecision(aTaintDecision({ notBefore }), deps)).toMatchObject({
      status: 'deferred',
      delaySeconds: delay,
    })
    expect(requeued).toMatchObject([{ delaySeconds: delay, decision: { attempt: 0 } }])
    expect(cluster.effects).toEqual([])
  })

  it('requeues when the zone budget is spent, alerting only on the first refusal', async () => {
    const cluster = new FakeCluster([aNodeObject(), aNodeObject({ name: 'node-b' })])
    const { deps, requeued, alerts } = setup(cluster)
    await handleDecision(aTaintDecision(), deps)
    const second = aTaintDecision({
      id: 'decision-taint-2',
      target: { kind: 'Node', name: 'node-b', uid: 'uid-node-b' },
    })
    expect(await handleDecision(second, deps)).toMatchObject({ status: 'blocked', code: 'budget', requeueSeconds: 10 })
    expect(requeued).toMatchObject([{ delaySeconds: 10, decision: { id: 'decision-taint-2', attempt: 1 } }])
    await handleDecision({ ...second, attempt: 1 }, deps)
    expect(alerts.filter((a) => a.details.outcome === 'blocked')).toHaveLength(1)
    expect(cluster.nodes.get('node-b')!.spec.taints).toEqual([])
  })

  it('untaints, clears the record and frees the node from the fraction guard', async () => {
    const cluster = new FakeCluster([aNodeObject()])
    const { deps } = setup(cluster)
    await handleDecision(aTaintDecision(), deps)
    cluster.nodes.get('node-a')!.status.conditions = [{ type: 'KernelDeadlock', status: 'False' }]
    const untaint = aTaintDecision({
      id: 'decision-untaint-1',
      action: 'untaint',
      preconditions: [{ type: 'conditionNot', condition: 'KernelDeadlock', status: 'True' }],
      budget: undefined,
    })
    expect(await handleDecision(untaint, deps)).toMatchObject({ status: 'applied' })
    const node = cluster.nodes.get('node-a')!
    expect(node.spec.taints).toEqual([])
    expect(node.metadata.annotations?.[NODE_TAINTS_ANNOTATION]).toBeUndefined()
    expect(cluster.ledger.ledger.affected).toEqual({})
  })

  it('treats a redelivered untaint as done, not stale: one write, one Event, one alert id', async () => {
    const cluster = new FakeCluster([aNodeObject()])
    const { deps, alerts } = setup(cluster)
    await handleDecision(aTaintDecision(), deps)
    cluster.nodes.get('node-a')!.status.conditions = [{ type: 'KernelDeadlock', status: 'False' }]
    const untaint = aTaintDecision({
      id: 'decision-untaint-2',
      action: 'untaint',
      preconditions: [
        { type: 'conditionNot', condition: 'KernelDeadlock', status: 'True' },
        { type: 'taintPresent', key: 'nodewarden.io/kernel-deadlock', effect: 'NoExecute' },
      ],
      budget: undefined,
    })
    const writesBefore = cluster.effects.length
    expect(await handleDecision(untaint, deps)).toMatchObject({ status: 'applied' })
    const again = await handleDecision(untaint, deps)
    expect(again).toMatchObject({ status: 'applied', reason: 'nodewarden.io/kernel-deadlock:NoExecute already absent' })
    expect(cluster.effects.length - writesBefore).toBe(2) // one taint write + one Event, none for the redelivery
    const untaintAlerts = alerts.filter((a) => a.details.decisionId === 'decision-untaint-2')
    expect(new Set(untaintAlerts.map((a) => a.id)).size).toBe(1)
  })

  it('in dry-run validates server-side, logs the Event it would record and alerts "would"', async () => {
    const cluster = new FakeCluster([aNodeObject()])
    const { deps, alerts, logged } = setup(cluster, { dryRun: true })
    expect(await handleDecision(aTaintDecision(), deps)).toMatchObject({ status: 'applied', dryRun: true })
    expect(cluster.effects).toEqual([])
    expect(cluster.ledger.ledger.recent).toEqual([])
    expect(logged.map((l) => l.msg)).toContain('event would be recorded')
    expect(alerts[0]?.summary).toMatch(/^\[dry-run\] would taint node node-a/)
  })
})

describe('handleDecision: pod actions', () => {
  const pdbBlock = {
    kind: 'blocked' as const,
    failure: {
      code: 429,
      reason: 'TooManyRequests',
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      causes: ['The disruption budget web needs 2 healthy pods and has 2 currently'],
      retryAfterSeconds: 0,
    },
  }

  it('evicts through the Eviction API, with the pod in the alert', async () => {
    const cluster = new FakeCluster([aNodeObject()], [aPodObject()])
    const { deps, alerts } = setup(cluster)
    expect(await handleDecision(anEvictDecision(), deps)).toMatchObject({ status: 'applied' })
    expect(cluster.effects).toEqual(['evict default/web-1', 'event NodewardenEvicted web-1'])
    expect(alerts[0]?.details).toMatchObject({ drain: { node: 'node-a', pods: ['default/web-1'] } })
  })

  it.each([
    { attempt: 0, delay: 10, alerts: 1 },
    { attempt: 3, delay: 80, alerts: 0 },
    { attempt: 5, delay: undefined, alerts: 1 },
  ])('backs off a PDB-blocked eviction (attempt $attempt → $delay s)', async ({ attempt, delay, alerts: n }) => {
    const cluster = new FakeCluster([aNodeObject()], [aPodObject()])
    cluster.evictions = [pdbBlock]
    const { deps, alerts, requeued } = setup(cluster)
    const outcome = await handleDecision({ ...anEvictDecision(), attempt }, deps)
    expect(outcome).toMatchObject({ status: 'blocked', code: delay ? 'pdb' : 'deadline' })
    expect(outcome.reason).toContain('needs 2 healthy pods')
    expect(requeued.map((r) => r.delaySeconds)).toEqual(delay ? [delay] : [])
    expect(alerts).toHaveLength(n)
    expect(cluster.effects).toEqual(['event NodewardenEvictionBlocked web-1'])
  })

  it('stops retrying a PDB block once the drain deadline passed, alerting without forcing', async () => {
    const cluster = new FakeCluster([aNodeObject()], [aPodObject()])
    cluster.evictions = [pdbBlock]
    const { deps, requeued, alerts } = setup(cluster)
    const outcome = await handleDecision(anEvictDecision({ deadline: '2026-11-22T09:59:00Z' }), deps)
    expect(outcome).toMatchObject({ status: 'blocked', code: 'deadline' })
    expect(requeued).toEqual([])
    expect(alerts).toHaveLength(1)
    expect(cluster.pods.has('default/web-1')).toBe(true)
  })

  it('deletes the pod a PDB still blocks past the deadline when the drain says onDeadline: delete', async () => {
    const cluster = new FakeCluster([aNodeObject()], [aPodObject()])
    cluster.evictions = [pdbBlock]
    const { deps, requeued, alerts } = setup(cluster)
    const decision = anEvictDecision({ deadline: '2026-11-22T09:59:00Z', onDeadline: 'delete', gracePeriodSeconds: 30 })
    const outcome = await handleDecision(decision, deps)
    expect(outcome).toMatchObject({ status: 'applied', code: 'applied', severity: 'warning' })
    expect(outcome.reason).toContain('onDeadline is delete, bypassing')
    expect(outcome.reason).toContain('needs 2 healthy pods')
    expect(cluster.pods.has('default/web-1')).toBe(false)
    expect(cluster.effects).toEqual(['delete default/web-1 grace 30', 'event NodewardenEvicted web-1'])
    expect(requeued).toEqual([])
    expect(alerts).toMatchObject([{ kind: 'ActionOutcome', severity: 'warning' }])
  })

  it('keeps retrying a PDB block before the deadline even when onDeadline is delete', async () => {
    const cluster = new FakeCluster([aNodeObject()], [aPodObject()])
    cluster.evictions = [pdbBlock]
    const { deps, requeued } = setup(cluster)
    const outcome = await handleDecision(
      anEvictDecision({ deadline: '2026-11-22T10:30:00Z', onDeadline: 'delete' }),
      deps,
    )
    expect(outcome).toMatchObject({ status: 'blocked', code: 'pdb' })
    expect(requeued.map((r) => r.delaySeconds)).toEqual([10])
    expect(cluster.pods.has('default/web-1')).toBe(true)
  })

  it('alerts critically and does not retry when several PDBs match (500)', async () => {
    const cluster = new FakeCluster([aNodeObject()], [aPodObject()])
    cluster.evictions = [
      {
        kind: 'multiplePdbs',
        failure: {
          code: 500,
          reason: 'InternalError',
          message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
          causes: [],
        },
      },
    ]
    const { deps, requeued, alerts } = setup(cluster)
    expect(await handleDecision(anEvictDecision(), deps)).toMatchObject({ status: 'blocked', code: 'multiplePdbs' })
    expect(requeued).toEqual([])
    expect(alerts).toMatchObject([{ severity: 'critical' }])
  })

  it.each([
    { name: 'a pod that is gone', pods: [], reason: 'pod default/web-1 does not exist' },
    {
      name: 'another pod under the same name',
      pods: [{ ...aPodObject(), metadata: { ...aPodObject().metadata, uid: 'uid-new' } }],
      reason: expect.stringContaining('is another pod now'),
    },
  ])('treats $name as done, evicting nothing', async ({ pods, reason }) => {
    const cluster = new FakeCluster([aNodeObject()], pods)
    const { deps } = setup(cluster)
    expect(await handleDecision(anEvictDecision(), deps)).toMatchObject({ status: 'skipped', code: 'gone', reason })
    expect(cluster.effects).toEqual([])
  })

  it('lets a transient API failure throw so SQS redelivers', async () => {
    const cluster = new FakeCluster([aNodeObject()], [aPodObject()])
    cluster.evictions = ['throw']
    const { deps, alerts } = setup(cluster)
    await expect(handleDecision(anEvictDecision(), deps)).rejects.toThrow('HTTP 500')
    expect(alerts).toEqual([])
  })

  const backfill = (o = {}) =>
    anEvictDecision({
      id: 'decision-backfill-1',
      action: 'backfillTolerations',
      budget: undefined,
      tolerations: [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ],
      ...o,
    })

  it('backfills only the missing tolerations', async () => {
    const existing = {
      key: 'node.kubernetes.io/not-ready',
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: 300,
    }
    const cluster = new FakeCluster([aNodeObject()], [aPodObject({ tolerations: [existing] })])
    const { deps } = setup(cluster)
    expect(await handleDecision(backfill(), deps)).toMatchObject({
      status: 'applied',
      reason: 'added node.kubernetes.io/unreachable:NoExecute',
    })
    expect(cluster.pods.get('default/web-1')!.spec.tolerations).toHaveLength(2)
  })

  it('reports a 422 on backfill as permanent with the API reason, no retry', async () => {
    const cluster = new FakeCluster([aNodeObject()], [aPodObject()])
    cluster.tolerationFailure = {
      code: 422,
      reason: 'Invalid',
      message: 'Pod "web-1" is invalid: spec: Forbidden: pod updates may not change fields other than …',
      causes: [],
    }
    const { deps, requeued } = setup(cluster)
    const outcome = await handleDecision(backfill(), deps)
    expect(outcome).toMatchObject({
      status: 'blocked',
      code: 'invalid',
      reason: expect.stringContaining('pod updates may not change'),
    })
    expect(requeued).toEqual([])
    expect(cluster.effects).toEqual(['event NodewardenRejected web-1'])
  })

  it('deletes an evicted pod only while it is still Failed', async () => {
    const cluster = new FakeCluster([aNodeObject()], [aPodObject({ phase: 'Failed', reason: 'Evicted' })])
    const { deps } = setup(cluster)
    const decision = anEvictDecision({
      id: 'decision-delete-1',
      action: 'deleteEvictedPod',
      budget: undefined,
      preconditions: [{ type: 'podPhase', phases: ['Failed'] }],
    })
    expect(await handleDecision(decision, deps)).toMatchObject({ status: 'applied' })
    expect(cluster.effects).toEqual(['delete default/web-1', 'event NodewardenEvictedPodDeleted web-1'])
  })
})
