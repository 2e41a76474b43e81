import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { grantedPermissions, readManifest } from '../../fixtures/rbac.ts'
import { anAlert, createHarness } from './harness.ts'
import { type Receiver, startReceiver } from './receivers.ts'
import {
  type AlertCluster,
  createSigningSecret,
  createSubscription,
  NAMESPACE,
  startAlertCluster,
} from './setup-cluster.ts'

const docs = readManifest('infra/k8s/alert-rbac.yaml')
const granted = () => grantedPermissions(docs)

const KEY = 'whsec-rbac-alert-3c9d1e7f'
const T0 = new Date('2026-11-22T10:00:00Z')
let cluster: AlertCluster
const receivers: Receiver[] = []

beforeAll(async () => {
  cluster = await startAlertCluster()
  await createSigningSecret(cluster.kube, 'signing', KEY)
})
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()))
  await cluster.close()
})

async function subscribe(name: string, answer: number, spec: Record<string, unknown> = {}) {
  const receiver = await startReceiver(() => answer)
  receivers.push(receiver)
  await createSubscription(cluster.kube, name, { url: receiver.url, secretRef: { name: 'signing' }, ...spec })
  return receiver
}

describe('alert RBAC (infra/k8s/alert-rbac.yaml)', () => {
  it('grants exactly the verbs the alert function uses across fan-out, delivery, dead-letter and resolve', async () => {
    const ok = await subscribe('ops', 200)
    const quiet = await subscribe('quiet', 200, { sendResolved: false })
    await subscribe('gone', 410)
    await subscribe('unsigned', 200, { secretRef: { name: 'missing' } })
    const h = createHarness(cluster.kube, { start: T0, retry: { maxAttempts: 2 } })
    cluster.emulator.requests.clear()

    h.publish(anAlert())
    await h.drain()
    h.advance(30 * 60_000)
    h.publish(anAlert({ status: 'resolved', endsAt: h.now().toISOString() }))
    await h.drain()

    // The flow really ran: firing to all three signed targets, resolved only where wanted and received.
    expect(ok.hits).toHaveLength(2)
    expect(quiet.hits).toHaveLength(1)
    expect(h.deadLetters).toHaveLength(2) // gone (410) and unsigned (no signing Secret)
    const requests = cluster.emulator.requests.all()
    expect(requests.filter((r) => r.resource.endsWith('/status')).map((r) => r.name)).toEqual(
      expect.arrayContaining(['ops', 'quiet', 'gone']),
    )
    const used = [...new Set(requests.map((r) => `${r.resource} ${r.verb}`))].sort()
    expect(used).toEqual(granted())
    expect(granted()).toEqual([
      'alertsubscriptions.nodewarden.io list',
      'alertsubscriptions.nodewarden.io/status patch',
      'secrets get',
    ])
    expect(new Set(requests.map((r) => r.namespace))).toEqual(new Set([NAMESPACE]))
  })

  it('binds the group nodewarden:alert to a Role in the subscriptions namespace only', () => {
    expect(docs.map((d) => `${d.kind} ${d.metadata.namespace}/${d.metadata.name}`)).toEqual([
      `Role ${NAMESPACE}/nodewarden-alert`,
      `RoleBinding ${NAMESPACE}/nodewarden-alert`,
    ])
    const binding = docs.find((d) => d.kind === 'RoleBinding')
    expect(binding?.roleRef).toMatchObject({ kind: 'Role', name: 'nodewarden-alert' })
    expect(binding?.subjects).toEqual([
      { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'nodewarden:alert' },
    ])
  })

  it('grants no spec write, watch, deletecollection or wildcard', () => {
    expect(granted().filter((g) => /\b(create|update|delete|deletecollection|watch|\*)$/.test(g))).toEqual([])
    expect(granted().filter((g) => g.startsWith('alertsubscriptions.nodewarden.io ') && g.endsWith(' patch'))).toEqual(
      [],
    )
  })

  it('relies on a CRD that serves the status subresource, so a status patch cannot touch the spec', () => {
    const crd = parse(readFileSync('infra/k8s/alertsubscription-crd.yaml', 'utf8')) as {
      spec: { group: string; versions: { served: boolean; subresources?: { status?: object } }[] }
    }
    expect(crd.spec.group).toBe('nodewarden.io')
    for (const version of crd.spec.versions.filter((v) => v.served)) expect(version.subresources?.status).toEqual({})
  })
})
