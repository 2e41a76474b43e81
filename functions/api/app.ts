import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { zValidator } from '@hono/zod-validator'
import { Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { EgressPolicy } from '../../shared/alerts/egress-guard.ts'
import type { DeliveryOutcome } from '../../shared/alerts/retry-policy.ts'
import type { AlertSubscription } from '../../shared/alerts/subscription.ts'
import type { Log } from '../../shared/log.ts'
import type { ApiMetrics } from './metrics.ts'
import { IdParamSchema, OPENAPI } from './openapi.ts'
import {
  type SubscriptionRequest,
  subscriptionRequestSchema,
  toIssues,
  type ZodIssues,
} from './subscription-request.ts'
import { StoreError, type SubscriptionStore } from './subscription-store.ts'

export type ApiDeps = {
  store: SubscriptionStore
  /** Sends one signed test alert to the subscription now (no retry) and says how it went. */
  testDelivery: (subscription: AlertSubscription) => Promise<DeliveryOutcome>
  /** The bearer token; compared in constant time, never logged. */
  token: string
  egress: EgressPolicy
  metrics: ApiMetrics
  log: Log
}

/** validationHook answers 400 `{ error, issues }` naming every offending field. */
function validationHook(result: { success: boolean; error?: ZodIssues }) {
  if (!result.success && result.error) {
    return Response.json({ error: 'invalid request', issues: toIssues(result.error) }, { status: 400 })
  }
}

/** toView is what the api shows of a subscription: the spec and a count of open notices, never key material. */
function toView(s: AlertSubscription) {
  return {
    id: s.metadata.name,
    namespace: s.metadata.namespace,
    ...s.spec,
    ...(s.metadata.creationTimestamp ? { createdAt: s.metadata.creationTimestamp } : {}),
    notifiedAlerts: Object.keys(s.status.notified).length,
  }
}

/** createApp builds the one hono app served by @hono/node-server locally and hono/aws-lambda in the cloud. */
export function createApp(deps: ApiDeps) {
  const { store, metrics, log } = deps
  const tokenDigest = createHash('sha256').update(deps.token).digest()
  const body = subscriptionRequestSchema(deps.egress)

  const requireSecret = async (req: SubscriptionRequest) => {
    if (req.secretRef && !(await store.secretExists(req.secretRef.name)))
      throw new HTTPException(400, {
        res: Response.json(
          {
            error: 'invalid request',
            issues: [{ path: 'secretRef.name', message: `secret ${req.secretRef.name} not found` }],
          },
          { status: 400 },
        ),
      })
  }
  const toSpec = ({ name: _n, signingKey: _k, secretRef, ...rest }: SubscriptionRequest) => ({
    ...rest,
    secretRef: secretRef ?? { name: 'pending', key: 'signingKey' }, // replaced by the generated Secret's name
  })

  const app = new Hono()
  app.use(async (c, next) => {
    const started = performance.now()
    await next()
    const route = c.req.routePath
    metrics.requests.inc({ method: c.req.method, route, status: String(c.res.status) })
    metrics.duration.observe({ method: c.req.method, route }, (performance.now() - started) / 1000)
  })
  app.get('/healthz', (c) => c.json({ status: 'ok' }))
  app.get('/openapi.json', (c) => c.json(OPENAPI))

  const authed = new Hono()
  authed.use(async (c, next) => {
    const header = c.req.header('authorization') ?? ''
    const given = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : ''
    // Hashing both sides gives equal lengths, so timingSafeEqual compares in constant time.
    if (!timingSafeEqual(createHash('sha256').update(given).digest(), tokenDigest))
      throw new HTTPException(401, {
        res: Response.json({ error: 'unauthorized' }, { status: 401, headers: { 'www-authenticate': 'Bearer' } }),
      })
    await next()
  })
  authed.get('/metrics', async (c) =>
    c.text(await metrics.registry.metrics(), 200, { 'content-type': metrics.registry.contentType }),
  )
  authed.get('/subscriptions', async (c) => c.json({ items: (await store.list()).map(toView) }))
  authed.post('/subscriptions', zValidator('json', body, validationHook), async (c) => {
    const req = c.req.valid('json')
    await requireSecret(req)
    const name = req.name ?? `sub-${randomBytes(4).toString('hex')}`
    const created = await store.create(name, toSpec(req), req.signingKey)
    log.info('subscription created', {
      subscription: name,
      format: created.spec.format,
      target: new URL(created.spec.url).host,
    })
    return c.json(toView(created), 201)
  })
  authed.get('/subscriptions/:id', zValidator('param', IdParamSchema, validationHook), async (c) =>
    c.json(toView(await store.get(c.req.valid('param').id))),
  )
  authed.put(
    '/subscriptions/:id',
    zValidator('param', IdParamSchema, validationHook),
    zValidator('json', body, validationHook),
    async (c) => {
      const { id } = c.req.valid('param')
      const req = c.req.valid('json')
      if (req.name !== undefined && req.name !== id)
        throw new HTTPException(400, {
          res: Response.json(
            { error: 'invalid request', issues: [{ path: 'name', message: `must be ${id} or absent` }] },
            { status: 400 },
          ),
        })
      await requireSecret(req)
      const replaced = await store.replace(id, toSpec(req), req.signingKey)
      log.info('subscription replaced', {
        subscription: id,
        format: replaced.spec.format,
        target: new URL(replaced.spec.url).host,
      })
      return c.json(toView(replaced))
    },
  )
  authed.delete('/subscriptions/:id', zValidator('param', IdParamSchema, validationHook), async (c) => {
    const { id } = c.req.valid('param')
    await store.remove(id)
    log.info('subscription deleted', { subscription: id })
    return c.body(null, 204)
  })
  authed.post('/subscriptions/:id/test', zValidator('param', IdParamSchema, validationHook), async (c) => {
    const sub = await store.get(c.req.valid('param').id)
    const started = performance.now()
    const outcome = await deps.testDelivery(sub)
    metrics.testDeliveries.inc({ outcome: outcome.kind })
    return c.json({
      delivered: outcome.kind === 'delivered',
      outcome: outcome.kind,
      ...(outcome.status === undefined ? {} : { status: outcome.status }),
      ...('reason' in outcome ? { reason: outcome.reason } : {}),
      durationMs: Math.round(performance.now() - started),
    })
  })
  app.route('/', authed)

  app.notFound((c) => c.json({ error: 'not found' }, 404))
  app.onError((err, c) => {
    if (err instanceof HTTPException) return err.res ?? c.json({ error: err.message }, err.status)
    if (err instanceof StoreError) return c.json({ error: err.message }, err.status)
    // Internals stay in the log (message only, no stack to the client, never secrets: none reach error text).
    log.error('request failed', { method: c.req.method, route: c.req.routePath, error: err.message })
    return c.json({ error: 'internal error' }, 500)
  })
  return app
}
