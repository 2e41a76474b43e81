import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningApi, startApi } from '../../../functions/api/main.ts'
import { createApiDeps, loadApiConfig } from '../../../functions/api/wiring.ts'
import { grantedPermissions, readManifest } from '../../fixtures/rbac.ts'
import { recordingLog } from '../alerts/harness.ts'
import { type Receiver, startReceiver } from '../alerts/receivers.ts'
import { type AlertCluster, createSigningSecret, NAMESPACE, startAlertCluster } from '../alerts/setup-cluster.ts'

const docs = readManifest('infra/k8s/api-rbac.yaml')
const granted = () => grantedPermissions(docs)

const TOKEN = 'rbac-api-token-0a1b2c3d4e5f'
let cluster: AlertCluster
let api: RunningApi
let receiver: Receiver

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(`${api.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  await res.text()
  return res.status
}

beforeAll(async () => {
  cluster = await startAlertCluster()
  await createSigningSecret(cluster.kube, 'shared', 'whsec-rbac-shared-5d6e7f80')
  receiver = await startReceiver(() => 204)
  const config = loadApiConfig({
    KUBE_SERVER: cluster.emulator.url,
    API_TOKEN: TOKEN,
    SUBSCRIPTIONS_NAMESPACE: NAMESPACE,
    EGRESS_ALLOW_HTTP: 'true',
    EGRESS_ALLOW_CIDRS: '127.0.0.1/32',
    LOG_LEVEL: 'SILENT',
  })
  api = await startApi(createApiDeps(config, { log: recordingLog().log }))
})
afterAll(async () => {
  await api.close()
  await receiver.close()
  await cluster.close()
})

describe('api RBAC (infra/k8s/api-rbac.yaml)', () => {
  it('grants exactly the verbs the api uses across every route, nothing more', async () => {
    cluster.emulator.requests.clear()
    const inline = { url: receiver.url, signingKey: 'whsec-rbac-inline-1a2b3c4d' }
    const steps: [string, string, unknown, number][] = [
      ['GET', '/subscriptions', undefined, 200],
      ['POST', '/subscriptions', { name: 'ops', ...inline }, 201],
      ['POST', '/subscriptions', { name: 'ops', ...inline }, 409], // drops the Secret it just generated
      ['POST', '/subscriptions', { name: 'named', url: receiver.url, secretRef: { name: 'shared' } }, 201],
      ['GET', '/subscriptions/ops', undefined, 200],
      ['PUT', '/subscriptions/ops', { ...inline, signingKey: 'whsec-rbac-rotated-9f8e7d6c' }, 200],
      ['POST', '/subscriptions/ops/test', undefined, 200],
      ['DELETE', '/subscriptions/ops', undefined, 204],
      ['DELETE', '/subscriptions/named', undefined, 204],
    ]
    for (const [method, path, body, status] of steps)
      expect({ method, path, status: await call(method, path, body) }).toEqual({ method, path, status })
    expect(receiver.hits).toHaveLength(1)

    // A generated Secret name that already exists is replaced. The random suffix cannot collide on
    // demand, so the emulator answers the create with 409 once; the replace then finds no Secret (404).
    const stop = cluster.emulator.faults.fail(409, { resource: 'secrets', verb: 'create', times: 1 })
    try {
      expect(await call('POST', '/subscriptions', { name: 'clash', ...inline })).toBe(500)
    } finally {
      stop()
    }
    expect(cluster.emulator.requests.filter({ resource: 'secrets', verb: 'update' })).toHaveLength(1)

    const requests = cluster.emulator.requests.all()
    const used = [...new Set(requests.map((r) => `${r.resource} ${r.verb}`))].sort()
    expect(used).toEqual(granted())
    expect(granted()).toEqual(
      [
        'alertsubscriptions.nodewarden.io create',
        'alertsubscriptions.nodewarden.io delete',
        'alertsubscriptions.nodewarden.io get',
        'alertsubscriptions.nodewarden.io list',
        'alertsubscriptions.nodewarden.io update',
        'secrets create',
        'secrets delete',
        'secrets get',
        'secrets update',
      ].sort(),
    )
    expect(new Set(requests.map((r) => r.namespace))).toEqual(new Set([NAMESPACE]))
  })

  it('binds the group nodewarden:api to a Role in the subscriptions namespace only', () => {
    expect(docs.map((d) => `${d.kind} ${d.metadata.namespace}/${d.metadata.name}`)).toEqual([
      `Role ${NAMESPACE}/nodewarden-api`,
      `RoleBinding ${NAMESPACE}/nodewarden-api`,
    ])
    const binding = docs.find((d) => d.kind === 'RoleBinding')
    expect(binding?.roleRef).toMatchObject({ kind: 'Role', name: 'nodewarden-api' })
    expect(binding?.subjects).toEqual([
      { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'nodewarden:api' },
    ])
  })

  it('grants no status write, patch, watch, deletecollection or wildcard', () => {
    expect(granted().filter((g) => /\/status |\b(patch|watch|deletecollection|\*)$/.test(g))).toEqual([])
  })
})
