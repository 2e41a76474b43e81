import { handle } from 'hono/aws-lambda'
import { describe, expect, it } from 'vitest'
import { createApp } from '../../../functions/api/app.ts'
import { OPENAPI } from '../../../functions/api/openapi.ts'
import { fakeDeps, TOKEN } from './fake-deps.ts'

const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }
const valid = { name: 'ops', url: 'https://hooks.example.com/x', secretRef: { name: 'existing' } }

describe('the api app', () => {
  it('serves an OpenAPI document listing exactly the routes the app serves', () => {
    const app = createApp(fakeDeps())
    const served = new Set(
      app.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`),
    )
    const documented = new Set(
      Object.entries(OPENAPI.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)),
    )
    expect([...served].sort()).toEqual([...documented].sort())
  })

  it.each([
    { name: 'no token', headers: {} as Record<string, string> },
    { name: 'a wrong token', headers: { authorization: 'Bearer nope' } },
    { name: 'a token with a suffix', headers: { authorization: `Bearer ${TOKEN}x` } },
    { name: 'another scheme', headers: { authorization: `Basic ${TOKEN}` } },
  ])('answers 401 to $name', async ({ headers }) => {
    const res = await createApp(fakeDeps()).request('/subscriptions', { headers })
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toBe('Bearer')
  })

  it('names every offending field of a bad subscription', async () => {
    const res = await createApp(fakeDeps()).request('/subscriptions', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        name: 'Bad_Name',
        url: 'not a url',
        format: 'xml',
        filters: { severities: ['loud'], nodeSelector: { matchExpressions: [{ key: 'a', operator: 'In' }] } },
        repeatInterval: 'soon',
        extra: true,
      }),
    })
    expect(res.status).toBe(400)
    const body = (await res.json()) as { error: string; issues: { path: string }[] }
    expect(body.error).toBe('invalid request')
    expect(body.issues.map((i) => i.path)).toEqual(
      expect.arrayContaining(['name', 'url', 'format', 'filters.severities.0', 'repeatInterval', '(body)']),
    )
  })

  it.each([
    { name: 'neither secretRef nor signingKey', body: { url: 'https://h.example.com/' }, path: 'secretRef' },
    {
      name: 'both secretRef and signingKey',
      body: { ...valid, signingKey: 'a-long-enough-signing-key' },
      path: 'secretRef',
    },
    { name: 'an http target by default', body: { ...valid, url: 'http://h.example.com/' }, path: 'url' },
    { name: 'the metadata address', body: { ...valid, url: 'https://169.254.169.254/' }, path: 'url' },
    {
      name: 'a selector requirement without values',
      body: { ...valid, filters: { nodeSelector: { matchExpressions: [{ key: 'a', operator: 'NotIn' }] } } },
      path: 'filters.nodeSelector.matchExpressions.0.values',
    },
    { name: 'a missing secret', body: { ...valid, secretRef: { name: 'absent' } }, path: 'secretRef.name' },
    { name: 'a short signing key', body: { url: valid.url, signingKey: 'short' }, path: 'signingKey' },
  ])('refuses $name with 400 naming $path', async ({ body, path }) => {
    const res = await createApp(fakeDeps()).request('/subscriptions', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify(body),
    })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { issues: { path: string }[] }).issues.map((i) => i.path)).toContain(path)
  })

  it('answers malformed JSON with 400, not 500', async () => {
    const res = await createApp(fakeDeps()).request('/subscriptions', {
      method: 'POST',
      headers: auth,
      body: '{"url":',
    })
    expect(res.status).toBe(400)
  })

  it('answers 404 and 409 as JSON errors', async () => {
    const app = createApp(fakeDeps())
    expect((await app.request('/subscriptions/none', { headers: auth })).status).toBe(404)
    expect(
      (await app.request('/subscriptions', { method: 'POST', headers: auth, body: JSON.stringify(valid) })).status,
    ).toBe(201)
    const again = await app.request('/subscriptions', { method: 'POST', headers: auth, body: JSON.stringify(valid) })
    expect(again.status).toBe(409)
    expect(await again.json()).toEqual({ error: 'subscription ops already exists' })
  })

  it('hides internals behind a 500 without a stack', async () => {
    const deps = fakeDeps()
    deps.store.list = async () => {
      throw new Error('list subscriptions: connect ECONNREFUSED 10.0.0.1:443')
    }
    const res = await createApp(deps).request('/subscriptions', { headers: auth })
    expect(res.status).toBe(500)
    expect(await res.json()).toEqual({ error: 'internal error' })
  })

  it('runs unchanged behind API Gateway through hono/aws-lambda', async () => {
    const handler = handle(createApp(fakeDeps()))
    const event = {
      version: '2.0',
      routeKey: '$default',
      rawPath: '/healthz',
      rawQueryString: '',
      headers: {},
      requestContext: {
        http: { method: 'GET', path: '/healthz', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 't' },
      },
      isBase64Encoded: false,
    }
    const res = (await handler(event as never, {} as never)) as { statusCode: number; body: string }
    expect(res.statusCode).toBe(200)
    expect(JSON.parse(res.body)).toEqual({ status: 'ok' })
  })
})
