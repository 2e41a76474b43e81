import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Emulator, startEmulator } from '../../../functions/cluster/emulator.ts'
import { loadScenarioFile } from '../../../functions/cluster/scenario/load.ts'
import { seedScenario } from '../../../functions/cluster/scenario/seed.ts'
import { type LocalStack, startLocalStack } from '../../../functions/local/stack.ts'
import { DEMO, eventsOf, until } from './harness.ts'

// `npm start -- --kubeconfig <file>` against the emulator standing in for a real cluster: the demo
// cluster, no kubelets and no scenario timeline, node-b2 already in KernelDeadlock for 20 minutes so
// its taint is due at once. A dry run must change nothing at all.
let emulator: Emulator
let stack: LocalStack
let before: Map<string, string>

const objectVersions = (e: Emulator) =>
  new Map(
    ['nodes', 'pods', 'namespaces', 'configmaps', 'leases'].flatMap((resource) =>
      e.store
        .list(resource)
        .map((o) => [
          `${resource}/${o.metadata.namespace ?? ''}/${o.metadata.name}`,
          String(o.metadata.resourceVersion),
        ]),
    ),
  )

beforeAll(async () => {
  emulator = await startEmulator()
  seedScenario(emulator, loadScenarioFile(DEMO))
  const now = Date.now()
  const node = emulator.store.get('nodes', '', 'node-b2')
  node?.status.conditions.push({
    type: 'KernelDeadlock',
    status: 'True',
    reason: 'DockerHung',
    message: 'kernel: task docker blocked for more than 120 seconds',
    lastTransitionTime: new Date(now - 20 * 60_000).toISOString(),
    lastHeartbeatTime: new Date(now).toISOString(),
  })
  emulator.store.update(node ?? {})
  before = objectVersions(emulator)
  stack = await startLocalStack({
    target: { kind: 'kubeconfig', kubeconfigPath: emulator.writeKubeconfig() },
    logLevel: 'SILENT',
  })
}, 30_000)

afterAll(async () => {
  await stack?.stop()
  await emulator?.close()
})

describe('npm start -- --kubeconfig (dry run against a cluster)', () => {
  // The drain follows the taint once a view shows it; in a dry run the taint never lands, so only the taint is reported.
  it('reports the taint it would apply, validated server-side, and changes nothing', async () => {
    const outcomes = await until('the dry-run outcome of the taint', () => {
      const done = eventsOf(stack.events, 'outcome').filter((o) => o.status === 'applied')
      return done.some((o) => o.action === 'taint') ? done : undefined
    })
    expect(outcomes.every((o) => o.dryRun)).toBe(true)
    expect(outcomes.find((o) => o.action === 'taint')).toMatchObject({ target: 'node-b2', code: 'applied' })
    const wouldLog = eventsOf(stack.events, 'k8s-event')
    expect(wouldLog.map((e) => [e.reason, e.recorded])).toContainEqual(['NodewardenTainted', false])

    const writes = emulator.requests.all().filter((r) => !['GET', 'LIST', 'WATCH'].includes(r.method.toUpperCase()))
    expect(writes.length).toBeGreaterThan(0)
    expect(writes.filter((r) => r.query.dryRun !== 'All').map((r) => `${r.method} ${r.path}`)).toEqual([])
    expect(writes.find((r) => r.resource === 'nodes' && r.name === 'node-b2')?.status).toBe(200)
    expect(objectVersions(emulator)).toEqual(before)
    expect(emulator.store.get('nodes', '', 'node-b2')?.spec.taints).toBeUndefined()
    expect(emulator.store.get('pods', 'kube-system', 'coredns-1')?.metadata.deletionTimestamp).toBeUndefined()
    expect(emulator.store.list('events.events.k8s.io')).toEqual([])
    expect(emulator.store.list('events')).toEqual([])
  })

  it('prints alerts from the alerts queue instead of creating subscriptions on the cluster', async () => {
    const alerts = await until('a ConditionTainted alert from the queue', () => {
      const found = eventsOf(stack.events, 'alert')
      return found.some((a) => a.alertKind === 'ConditionTainted') ? found : undefined
    })
    expect(alerts.every((a) => a.via === 'queue')).toBe(true)
    expect(stack.receiver).toBeUndefined()
    expect(stack.api).toBeUndefined()
    expect(emulator.store.get('namespaces', '', 'nodewarden')).toBeUndefined()
  })
})
