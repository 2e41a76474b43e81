import { describe, expect, it } from 'vitest'
import { DEFAULT_BUDGET_LIMITS } from '../../../functions/write/budget-ledger.ts'
import { handleDecision, type WriteDeps } from '../../../functions/write/handle-decision.ts'
import type { Alert, Decision, DecisionInput } from '../../../shared/messages/index.ts'
import { ANNOTATION_LAST_RELIEF, parseLastRelief, RELIEF_RULE_ID } from '../../../shared/pressure/index.ts'
import { aNodeObject, anEvictDecision, aPodObject } from '../../unit/write/fixtures.ts'
import { FakeCluster } from './fake-cluster.ts'

const NOW = new Date('2026-11-22T10:00:00Z')
const ZONE = 'eu-west-1:\u0000:eu-west-1a'

function setup(cluster: FakeCluster, overrides: Partial<WriteDeps> = {}) {
  const alerts: Alert[] = []
  const log = { debug() {}, info() {}, warn() {}, error() {} } as unknown as WriteDeps['log']
  const deps: WriteDeps = {
    cluster,
    now: () => NOW,
    dryRun: false,
    limits: DEFAULT_BUDGET_LIMITS,
    requeue: async () => {},
    sendAlert: async (alert) => {
      alerts.push(alert)
    },
    log,
    maxConflictRetries: 4,
    maxBlockedAttempts: 6,
    ...overrides,
  }
  return { deps, alerts }
}

const relief = (over: Partial<DecisionInput> = {}): Decision =>
  anEvictDecision({
    id: 'decision-relief-1',
    ruleId: RELIEF_RULE_ID,
    reason: 'nodefs.available 9.0Gi < relief threshold 15% (15.0Gi). evict default/web-1',
    preconditions: [
      { type: 'nodeUid', uid: 'uid-node-a' },
      { type: 'podOnNode', podUid: 'uid-default-web-1', nodeName: 'node-a' },
    ],
    evidence: { signal: 'nodefs.available', reliefIntervalSeconds: 60 },
    budget: { kind: 'relief', zone: ZONE },
    ...over,
  })
const stampOf = (c: FakeCluster) =>
  parseLastRelief(c.nodes.get('node-a')?.metadata.annotations?.[ANNOTATION_LAST_RELIEF])
const withStamp = (value: string) => {
  const node = aNodeObject()
  node.metadata.annotations = { [ANNOTATION_LAST_RELIEF]: value }
  return node
}

describe('handleDecision: relief evictions stamp the node', () => {
  it('evicts, then stamps nodewarden.io/last-relief with the time, the pod and the decision', async () => {
    const cluster = new FakeCluster([aNodeObject()], [aPodObject()])
    const { deps } = setup(cluster)
    expect(await handleDecision(relief(), deps)).toMatchObject({ status: 'applied', code: 'applied' })
    expect(stampOf(cluster)).toEqual({ at: NOW.toISOString(), pod: 'default/web-1', decision: 'decision-relief-1' })
    expect(cluster.effects).toEqual([
      'evict default/web-1',
      `annotate node-a ${ANNOTATION_LAST_RELIEF}`,
      'event NodewardenEvicted web-1',
    ])
  })

  it('stamps once when the decision is delivered twice', async () => {
    const pod = aPodObject()
    const cluster = new FakeCluster([aNodeObject()], [pod])
    const { deps } = setup(cluster)
    await handleDecision(relief(), deps)
    // The emulated API keeps a terminating pod: put it back with a deletionTimestamp.
    cluster.pods.set('default/web-1', { ...pod, metadata: { ...pod.metadata, deletionTimestamp: NOW.toISOString() } })
    expect(await handleDecision(relief(), deps)).toMatchObject({ status: 'applied', code: 'terminating' })
    expect(cluster.effects.filter((e) => e.startsWith('annotate'))).toHaveLength(1)
  })

  it('stamps a redelivery whose first delivery evicted but failed before stamping', async () => {
    const pod = aPodObject()
    pod.metadata.deletionTimestamp = NOW.toISOString()
    const cluster = new FakeCluster([aNodeObject()], [pod])
    const { deps } = setup(cluster)
    expect(await handleDecision(relief(), deps)).toMatchObject({ code: 'terminating' })
    expect(stampOf(cluster)?.decision).toBe('decision-relief-1')
  })

  it('re-reads the node and retries the stamp on 409', async () => {
    const cluster = new FakeCluster([aNodeObject()], [aPodObject()])
    const { deps } = setup(cluster)
    const evict = cluster.evictPod
    cluster.evictPod = async (p, o) => {
      const r = await evict(p, o)
      cluster.conflicts = 2
      return r
    }
    await handleDecision(relief(), deps)
    expect(stampOf(cluster)?.decision).toBe('decision-relief-1')
  })

  it.each([
    { name: 'a drain eviction', decision: () => anEvictDecision({ preconditions: [] }) },
    {
      name: 'a PDB-blocked relief eviction',
      decision: () => relief(),
      blocked: true,
    },
  ])('does not stamp for $name', async ({ decision, blocked }) => {
    const cluster = new FakeCluster([aNodeObject()], [aPodObject()])
    if (blocked)
      cluster.evictions = [
        { kind: 'blocked', failure: { code: 429, reason: 'TooManyRequests', message: 'PDB', causes: [] } },
      ]
    const { deps } = setup(cluster)
    await handleDecision(decision(), deps)
    expect(stampOf(cluster)).toBeUndefined()
  })
})

describe('handleDecision: one relief eviction per node per interval, re-checked live', () => {
  it.each([
    {
      name: 'another decision stamped the node 30 s ago',
      stamp: JSON.stringify({ at: '2026-11-22T09:59:30Z', pod: 'default/batch-1', decision: 'other' }),
      code: 'reliefInterval',
    },
  ])('skips when $name, evicting nothing and refunding nothing, with an Event on the pod', async ({ stamp, code }) => {
    const cluster = new FakeCluster([withStamp(stamp)], [aPodObject()])
    const { deps, alerts } = setup(cluster)
    const out = await handleDecision(relief(), deps)
    expect(out).toMatchObject({ status: 'skipped', code })
    expect(out.reason).toContain('relieved 30s ago (default/batch-1')
    expect(cluster.effects.filter((e) => e.startsWith('evict'))).toEqual([])
    expect(cluster.effects).toContain('event NodewardenDecisionStale web-1')
    expect(alerts[0]?.details).toMatchObject({ outcome: 'skipped', code })
  })

  it.each([
    { name: 'the stamp is older than the interval', stamp: JSON.stringify({ at: '2026-11-22T09:58:30Z' }) },
    {
      name: 'the stamp is this decision’s own',
      stamp: JSON.stringify({ at: '2026-11-22T09:59:59Z', decision: 'decision-relief-1' }),
    },
    { name: 'the stamp is unreadable', stamp: 'not a time' },
  ])('evicts when $name', async ({ stamp }) => {
    const cluster = new FakeCluster([withStamp(stamp)], [aPodObject()])
    const { deps } = setup(cluster)
    expect(await handleDecision(relief(), deps)).toMatchObject({ status: 'applied' })
    expect(cluster.effects).toContain('evict default/web-1')
  })

  it('honours the relief budget claim: a halted zone holds the eviction back and requeues it', async () => {
    const cluster = new FakeCluster([aNodeObject()], [aPodObject()])
    const { deps } = setup(cluster)
    const out = await handleDecision(relief({ budget: { kind: 'relief', zone: ZONE, ratePerSecond: 0 } }), deps)
    expect(out).toMatchObject({ status: 'blocked', code: 'budget' })
    expect(cluster.effects).toEqual(['event NodewardenBudgetExhausted web-1'])
  })
})
