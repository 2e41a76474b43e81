import * as z from 'zod'
import { EgressPolicySchema } from '../../shared/alerts/egress-guard.ts'
import type { AlertSubscription } from '../../shared/alerts/subscription.ts'
import { createLogger, type Log } from '../../shared/log.ts'
import { AlertSchema } from '../../shared/messages/alert.ts'
import { attemptDelivery } from '../alert/attempt-delivery.ts'
import { KubeEnvSchema, toKubeEndpoint } from '../alert/kube-endpoint.ts'
import { createKubeRest } from '../alert/kube-rest.ts'
import { createPostWebhook } from '../alert/post-webhook.ts'
import { createSubscriptionSource } from '../alert/read-subscriptions.ts'
import type { ApiDeps } from './app.ts'
import { createApiMetrics } from './metrics.ts'
import { createSubscriptionStore } from './subscription-store.ts'

const csv = z.string().transform((s) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean),
)
const bool = z.enum(['true', 'false']).transform((s) => s === 'true')

const ApiEnvSchema = KubeEnvSchema.extend({
  API_TOKEN: z.string().min(16, 'must be at least 16 characters'),
  SUBSCRIPTIONS_NAMESPACE: z.string().min(1).default('nodewarden'),
  CLUSTER_NAME: z.string().min(1).default('default'),
  EGRESS_ALLOW_HTTP: bool.default(false),
  EGRESS_ALLOW_CIDRS: csv.default([]),
  DELIVERY_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(5000),
  LOG_LEVEL: z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT']).default('INFO'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
})
export type ApiConfig = z.infer<typeof ApiEnvSchema>

/** loadApiConfig reads the api's environment, failing fast with every bad variable named (never its value). */
export function loadApiConfig(env: Record<string, string | undefined>): ApiConfig {
  const result = ApiEnvSchema.safeParse(env)
  if (!result.success)
    throw new Error(
      `invalid api configuration: ${result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    )
  return result.data
}

/** createApiDeps wires the api: the subscription store, the test delivery path shared with the alert function, metrics. */
export function createApiDeps(config: ApiConfig, wiring: { log?: Log; now?: () => Date } = {}): ApiDeps {
  const now = wiring.now ?? (() => new Date())
  const kube = createKubeRest(toKubeEndpoint(config, now))
  const egress = EgressPolicySchema.parse({
    allowHttp: config.EGRESS_ALLOW_HTTP,
    allowCidrs: config.EGRESS_ALLOW_CIDRS,
  })
  const source = createSubscriptionSource({ kube, namespace: config.SUBSCRIPTIONS_NAMESPACE, ttlMs: 0, now })
  const postWebhook = createPostWebhook({ egress, timeoutMs: config.DELIVERY_TIMEOUT_MS, now })
  const deliveryDeps = { signingKey: source.signingKey, postWebhook, now, cluster: config.CLUSTER_NAME }
  return {
    store: createSubscriptionStore(kube, config.SUBSCRIPTIONS_NAMESPACE),
    testDelivery: (sub) => attemptDelivery({ subscription: sub, ...testAlert(sub, now()), attempt: 1 }, deliveryDeps),
    token: config.API_TOKEN,
    egress,
    metrics: createApiMetrics(),
    log: wiring.log ?? createLogger('api', config.LOG_LEVEL),
  }
}

/** testAlert is the alert POST /subscriptions/{id}/test sends: kind Test, info, unique per call. */
export function testAlert(sub: AlertSubscription, now: Date) {
  const id = `test-${sub.metadata.name}-${now.getTime()}`
  const alert = AlertSchema.parse({
    id,
    status: 'firing',
    severity: 'info',
    kind: 'Test',
    subject: { kind: 'Cluster', name: 'nodewarden' },
    summary: `Test alert for subscription ${sub.metadata.name}`,
    details: { subscription: sub.metadata.name },
    startsAt: now.toISOString(),
    groupKey: 'test',
  })
  return { alert, deliveryId: `${id}:test` }
}
