import { afterEach, describe, expect, it } from 'vitest'
import type { Emulator } from '../../../functions/cluster/emulator.ts'
import { type Pipeline, startPipeline } from '../../../functions/local/pipeline.ts'
import { loadConfig } from '../../../functions/write/config.ts'
import { createWriteDeps, createWriteHandler } from '../../../functions/write/handler.ts'
import { silentLog } from '../../../shared/log.ts'
import {
  type Alert,
  type Decision,
  type Envelope,
  serializeEnvelope,
  toEnvelope,
} from '../../../shared/messages/index.ts'
import { LEDGER, NAMESPACE, startWriterEmulator } from '../../integration/write/emulator-setup.ts'
import { anEvictDecision, aTaintDecision } from '../../unit/write/fixtures.ts'

let emulator: Emulator | undefined
let pipeline: Pipeline | undefined
afterEach(async () => {
  await pipeline?.stop()
  await emulator?.close()
  pipeline = undefined
  emulator = undefined
})

/** start runs the real write handler on the local Lambda runtime over embedded SQS, against the emulator. */
async function start(env: Record<string, string> = {}) {
  emulator = await startWriterEmulator({ nodes: 2, podsPerNode: 2 })
  const kubeconfig = emulator.writeKubeconfig()
  const alerts: Alert[] = []
  const deadLetters: string[] = []
  pipeline = await startPipeline({
    log: silentLog,
    visibilityTimeoutSeconds: 1,
    functions: async (queueEnv) => {
      const config = loadConfig({
        ...queueEnv,
        KUBECONFIG: kubeconfig,
        APPLY: 'true',
        NODEWARDEN_NAMESPACE: NAMESPACE,
        LEDGER_NAME: LEDGER,
        LOG_LEVEL: 'SILENT',
        ...env,
      })
      return [{ name: 'write', queue: 'decisions', handler: createWriteHandler(createWriteDeps(config)) }]
    },
    onSinkMessage: (queue, envelope: Envelope) => {
      if (queue === 'alerts') alerts.push(envelope.data as Alert)
    },
    onEvent: (e) => {
      if (e.kind === 'dead-lettered') deadLetters.push(e.messageId)
    },
  })
  return { emulator, pipeline, alerts, deadLetters }
}

function send(p: Pipeline, decision: Decision) {
  const envelope = toEnvelope('io.nodewarden.decision.v1', decision, { source: 'test', time: new Date() })
  return p.send('decisions', [{ body: serializeEnvelope(envelope) }])
}

async function until<T>(what: string, probe: () => T | undefined | false, timeoutMs = 20_000): Promise<T> {
  const started = Date.now()
  for (;;) {
    const value = probe()
    if (value) return value
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

const liveDecision = (e: Emulator) =>
  aTaintDecision({
    preconditions: [{ type: 'taintAbsent', key: 'nodewarden.io/kernel-deadlock', effect: 'NoExecute' }],
    target: { kind: 'Node', name: 'node-a', uid: e.store.get('nodes', '', 'node-a')?.metadata.uid },
  })

describe('write end to end: decisions queue → cluster', () => {
  it('taints the node and records the Event and the outcome alert', async () => {
    const { emulator: e, pipeline: p, alerts } = await start()
    await send(p, liveDecision(e))
    const events = await until('the Event', () => {
      const list = e.store.list('events.events.k8s.io', { namespace: 'default' })
      return list.length > 0 ? list : undefined
    })
    expect(e.store.get('nodes', '', 'node-a')?.spec.taints).toMatchObject([
      { key: 'nodewarden.io/kernel-deadlock', effect: 'NoExecute' },
    ])
    expect(events).toMatchObject([
      { reason: 'NodewardenTainted', reportingController: 'nodewarden.io/writer', regarding: { name: 'node-a' } },
    ])
    await until('the outcome alert', () => alerts.length > 0)
    expect(alerts[0]).toMatchObject({ kind: 'ActionOutcome', details: { outcome: 'applied' } })
  })

  it('ends right, each effect once, under 409s, 500s, timeouts and redelivery', async () => {
    const { emulator: e, pipeline: p, alerts } = await start({ KUBE_TIMEOUT_MS: '400' })
    const f = e.faults
    f.fail(409, { resource: 'nodes', verb: 'patch', times: 2 })
    f.fail(500, { resource: 'events.events.k8s.io', verb: 'create', times: 1 })
    f.fail(500, { resource: 'pods/eviction', verb: 'create', times: 1 })
    // The ledger answers too late for the 400 ms client deadline until the slowdown is lifted.
    const slow = f.latency(1_000, { resource: 'configmaps', verb: 'get' })
    setTimeout(slow, 1_500)
    const taint = liveDecision(e)
    const pod = e.store.get('pods', 'default', 'web-1-0')
    const evict = anEvictDecision({
      target: { kind: 'Pod', namespace: 'default', name: 'web-1-0', uid: pod?.metadata.uid, nodeName: 'node-b' },
      preconditions: [],
      budget: { kind: 'drain', zone: 'eu-west-1:\u0000:eu-west-1b', zoneNodes: 10, ratePerSecond: 0.1 },
    })
    // Forced redelivery: each decision arrives twice.
    for (const d of [taint, taint, evict, evict]) await send(p, d)
    await until(
      'both Events',
      () => e.store.list('events.events.k8s.io', { namespace: 'default' }).length >= 2 || undefined,
      30_000,
    )
    await until(
      'settled',
      () => e.requests.all().at(-1) && Date.now() - Date.parse(e.requests.all().at(-1)!.at) > 2_500,
      30_000,
    )

    expect(e.store.get('nodes', '', 'node-a')?.spec.taints).toHaveLength(1)
    const pods = e.store.get('pods', 'default', 'web-1-0')
    expect(pods === undefined || pods.metadata.deletionTimestamp !== undefined).toBe(true)
    const ok = (r: { status: number }) => r.status < 300
    expect(e.requests.filter({ resource: 'nodes', verb: 'patch' }).filter(ok)).toHaveLength(1)
    expect(e.requests.filter({ resource: 'pods/eviction', verb: 'create' }).filter(ok)).toHaveLength(1)
    const reasons = e.store
      .list('events.events.k8s.io', { namespace: 'default' })
      .map((ev) => ev.reason)
      .sort()
    expect(reasons).toEqual(['NodewardenEvicted', 'NodewardenTainted'])
    expect(new Set(alerts.filter((a) => a.details.outcome === 'applied').map((a) => a.id)).size).toBe(2)
    expect(e.store.get('configmaps', NAMESPACE, LEDGER)?.data['ledger.json']).toContain('"node-a"')
    // The faults really fired.
    expect(e.requests.filter({ resource: 'nodes', verb: 'patch', status: 409 })).toHaveLength(2)
    expect(e.requests.filter({ resource: 'events.events.k8s.io', verb: 'create', status: 500 })).toHaveLength(1)
    expect(e.requests.filter({ resource: 'pods/eviction', verb: 'create', status: 500 })).toHaveLength(1)
  }, 60_000)

  it('dead-letters a malformed decision and alerts on an impossible one, writing nothing', async () => {
    const { emulator: e, pipeline: p, alerts, deadLetters } = await start()
    await p.send('decisions', [
      {
        body: '{"specversion":"1.0","type":"io.nodewarden.decision.v1","id":"x","source":"t","data":{"action":"taint"}}',
      },
    ])
    await send(p, aTaintDecision({ target: { kind: 'Node', name: 'node-zz', uid: 'uid-node-zz' } }))
    await until('the impossible outcome', () => alerts.find((a) => a.details.outcome === 'skipped'))
    expect(alerts.find((a) => a.details.outcome === 'skipped')?.details.reason).toBe('node node-zz does not exist')
    expect(e.requests.filter({ verb: 'patch' })).toEqual([])
    await until('the malformed decision in the DLQ', () => deadLetters.length > 0, 30_000)
    expect(deadLetters).toHaveLength(1)
  }, 60_000)
})
