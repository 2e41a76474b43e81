import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type RunningApi, startApi } from '../../../functions/api/main.ts'
import { createApiDeps, loadApiConfig } from '../../../functions/api/wiring.ts'
import { verifyWebhook } from '../../unit/alerts/verify-webhook.ts'
import { recordingLog } from '../alerts/harness.ts'
import { type Receiver, startReceiver } from '../alerts/receivers.ts'
import { type AlertCluster, NAMESPACE, startAlertCluster } from '../alerts/setup-cluster.ts'

const TOKEN = 'integration-api-token-7d41c0'
const SIGNING_KEY = 'whsec-api-inline-key-5e2b9a1c'
let cluster: AlertCluster
let api: RunningApi
let ok: Receiver
let gone: Receiver
const { log, lines } = recordingLog()
const responses: string[] = []

async function call(method: string, path: string, body?: unknown, token = TOKEN) {
  const res = await fetch(`${api.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await res.text()
  responses.push(text)
  const isJson = res.headers.get('content-type')?.includes('json') && text
  return { status: res.status, json: isJson ? (JSON.parse(text) as Record<string, unknown>) : undefined, text }
}

beforeAll(async () => {
  cluster = await startAlertCluster()
  ok = await startReceiver(() => 204)
  gone = await startReceiver(() => 410)
  const config = loadApiConfig({
    KUBE_SERVER: cluster.emulator.url,
    API_TOKEN: TOKEN,
    EGRESS_ALLOW_HTTP: 'true',
    EGRESS_ALLOW_CIDRS: '127.0.0.1/32',
    CLUSTER_NAME: 'it',
  })
  api = await startApi(createApiDeps(config, { log }))
})
afterAll(async () => {
  await api.close()
  await ok.close()
  await gone.close()
  await cluster.close()
})

describe('the api over real HTTP against the Kubernetes API emulator', () => {
  it('serves health and its OpenAPI document without a token, everything else only with it', async () => {
    expect((await call('GET', '/healthz', undefined, '')).status).toBe(200)
    expect((await call('GET', '/openapi.json', undefined, '')).json?.openapi).toBe('3.1.0')
    expect((await call('GET', '/subscriptions', undefined, 'wrong-token')).status).toBe(401)
    expect((await call('GET', '/metrics', undefined, '')).status).toBe(401)
  })

  it('creates, reads, lists, updates, tests and deletes a subscription stored as an AlertSubscription', async () => {
    const created = await call('POST', '/subscriptions', {
      name: 'ops',
      url: ok.url,
      signingKey: SIGNING_KEY,
      filters: { severities: ['critical'], nodeSelector: { matchLabels: { pool: 'general' } } },
    })
    expect(created.status).toBe(201)
    expect(created.json).toMatchObject({ id: 'ops', format: 'cloudevents', sendResolved: true, repeatInterval: '4h' })

    const object = await cluster.kube(
      'GET',
      `/apis/nodewarden.io/v1alpha1/namespaces/${NAMESPACE}/alertsubscriptions/ops`,
    )
    const spec = (object.body as { spec: { secretRef: { name: string } } }).spec
    const secret = await cluster.kube('GET', `/api/v1/namespaces/${NAMESPACE}/secrets/${spec.secretRef.name}`)
    expect(secret.status).toBe(200)

    expect((await call('GET', '/subscriptions/ops')).json?.filters).toEqual({
      severities: ['critical'],
      nodeSelector: { matchLabels: { pool: 'general' } },
    })
    expect((((await call('GET', '/subscriptions')).json?.items ?? []) as { id: string }[]).map((s) => s.id)).toEqual([
      'ops',
    ])

    const updated = await call('PUT', '/subscriptions/ops', {
      url: ok.url,
      secretRef: spec.secretRef,
      format: 'alertmanager',
    })
    expect(updated.status).toBe(200)
    expect(updated.json?.format).toBe('alertmanager')

    const tested = await call('POST', '/subscriptions/ops/test')
    expect(tested.json).toMatchObject({ delivered: true, outcome: 'delivered', status: 204 })
    const hit = ok.hits.at(-1)
    const headers = Object.fromEntries(Object.entries(hit?.headers ?? {}).map(([k, v]) => [k, String(v)]))
    expect(verifyWebhook(hit?.body ?? '', headers, SIGNING_KEY, Math.floor(Date.now() / 1000))).toEqual({ ok: true })
    expect(JSON.parse(hit?.body ?? '{}')).toMatchObject({ version: '4', alerts: [{ labels: { alertname: 'Test' } }] })

    expect((await call('DELETE', '/subscriptions/ops')).status).toBe(204)
    expect((await call('GET', '/subscriptions/ops')).status).toBe(404)
    expect((await cluster.kube('GET', `/api/v1/namespaces/${NAMESPACE}/secrets/${spec.secretRef.name}`)).status).toBe(
      404,
    )
  })

  it('reports a failing test delivery with the receiver status', async () => {
    await cluster.kube('POST', `/api/v1/namespaces/${NAMESPACE}/secrets`, {
      metadata: { name: 'shared' },
      stringData: { signingKey: 'k-0123456789abcdef' },
    })
    expect(
      (await call('POST', '/subscriptions', { name: 'gone', url: gone.url, secretRef: { name: 'shared' } })).status,
    ).toBe(201)
    const tested = await call('POST', '/subscriptions/gone/test')
    expect(tested.json).toMatchObject({
      delivered: false,
      outcome: 'permanent',
      status: 410,
      reason: 'receiver answered HTTP 410',
    })
  })

  it('answers a bad subscription with 400 naming each field, and a missing secret by name', async () => {
    const bad = await call('POST', '/subscriptions', {
      url: 'ftp://x',
      format: 'xml',
      secretRef: { name: 'nope' },
      repeatInterval: '1s',
    })
    expect(bad.status).toBe(400)
    expect(((bad.json?.issues ?? []) as { path: string }[]).map((i) => i.path).sort()).toEqual([
      'format',
      'repeatInterval',
      'url',
    ])
    const missing = await call('POST', '/subscriptions', { url: ok.url, secretRef: { name: 'nope' } })
    expect(missing.json).toEqual({
      error: 'invalid request',
      issues: [{ path: 'secretRef.name', message: 'secret nope not found' }],
    })
  })

  it('exposes Prometheus metrics by route template', async () => {
    const metrics = await call('GET', '/metrics')
    expect(metrics.text).toMatch(
      /nodewarden_api_requests_total\{method="POST",route="\/subscriptions\/:id\/test",status="200"\} 2/,
    )
    expect(metrics.text).toMatch(/nodewarden_api_test_deliveries_total\{outcome="permanent"\} 1/)
  })

  it('never shows the signing key or the token in responses or logs', () => {
    const everything = [...responses, ...lines].join('\n')
    expect(everything).not.toContain(SIGNING_KEY)
    expect(everything).not.toContain(TOKEN)
  })
})
