/**
 * Trigger: the `alerts` SQS queue (alert envelopes from decide/write, and this function's own
 * delivery messages). Job: fan each alert out to matching AlertSubscriptions, then deliver each
 * notice signed, retrying through delayed re-enqueues. Output: webhooks; retries; DLQ entries.
 */
import type { SQSClient } from '@aws-sdk/client-sqs'
import * as z from 'zod'
import { EgressPolicySchema } from '../../shared/alerts/egress-guard.ts'
import { RetryPolicySchema } from '../../shared/alerts/retry-policy.ts'
import { makeSqsHandler, type SqsHandler } from '../../shared/lambda/sqs-handler.ts'
import { createLogger, type Log } from '../../shared/log.ts'
import { createSqsClient } from '../../shared/sqs/client.ts'
import { realSleep } from '../../shared/sqs/retry.ts'
import { sendMessages } from '../../shared/sqs/transport.ts'
import { type AlertDeps, type DeliveryEvent, handleAlertMessage } from './handle-alert.ts'
import { KubeEnvSchema, toKubeEndpoint } from './kube-endpoint.ts'
import { createKubeRest } from './kube-rest.ts'
import { createPostWebhook } from './post-webhook.ts'
import { createSubscriptionSource } from './read-subscriptions.ts'
import { createRecordNotice } from './record-notice.ts'

const csv = z.string().transform((s) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean),
)
const bool = z.enum(['true', 'false']).transform((s) => s === 'true')

const EnvSchema = KubeEnvSchema.extend({
  SQS_ENDPOINT: z.url().optional(),
  ALERTS_QUEUE_URL: z.url(),
  ALERTS_DLQ_URL: z.url(),
  SUBSCRIPTIONS_NAMESPACE: z.string().min(1).default('nodewarden'),
  CLUSTER_NAME: z.string().min(1).default('default'),
  SUBSCRIPTION_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).default(15),
  EGRESS_ALLOW_HTTP: bool.default(false),
  EGRESS_ALLOW_CIDRS: csv.default([]),
  DELIVERY_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(5000),
  RETRY_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(12),
  LOG_LEVEL: z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT']).default('INFO'),
})

export type AlertConfig = z.infer<typeof EnvSchema>

/** loadConfig reads the alert function's environment, failing fast with every bad variable named (never its value). */
export function loadConfig(env: Record<string, string | undefined>): AlertConfig {
  const result = EnvSchema.safeParse(env)
  if (!result.success)
    throw new Error(
      `invalid alert configuration: ${result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    )
  return result.data
}

export type AlertWiring = {
  client?: SQSClient
  log?: Log
  now?: () => Date
  count?: (event: DeliveryEvent, n?: number) => void
}

/** createAlertDeps builds the alert function's dependencies from its configuration. */
export function createAlertDeps(config: AlertConfig, wiring: AlertWiring = {}): AlertDeps {
  const now = wiring.now ?? (() => new Date())
  const log = wiring.log ?? createLogger('alert', config.LOG_LEVEL)
  const client =
    wiring.client ??
    createSqsClient({ region: config.AWS_REGION, ...(config.SQS_ENDPOINT ? { endpoint: config.SQS_ENDPOINT } : {}) })
  const sqs = { client, sleep: realSleep, random: Math.random }
  const kube = createKubeRest(toKubeEndpoint(config, now))
  const subscriptions = createSubscriptionSource({
    kube,
    namespace: config.SUBSCRIPTIONS_NAMESPACE,
    ttlMs: config.SUBSCRIPTION_CACHE_SECONDS * 1000,
    now,
  })
  return {
    subscriptions,
    recordNotice: createRecordNotice(kube),
    signingKey: subscriptions.signingKey,
    postWebhook: createPostWebhook({
      egress: EgressPolicySchema.parse({ allowHttp: config.EGRESS_ALLOW_HTTP, allowCidrs: config.EGRESS_ALLOW_CIDRS }),
      timeoutMs: config.DELIVERY_TIMEOUT_MS,
      now,
    }),
    enqueue: (messages) => sendMessages(sqs, config.ALERTS_QUEUE_URL, messages),
    deadLetter: (body) => sendMessages(sqs, config.ALERTS_DLQ_URL, [{ body }]),
    now,
    random: Math.random,
    retry: RetryPolicySchema.parse({ maxAttempts: config.RETRY_MAX_ATTEMPTS }),
    cluster: config.CLUSTER_NAME,
    log,
    ...(wiring.count ? { count: wiring.count } : {}),
  }
}

/** createAlertHandler returns the Lambda SQS handler for the alerts queue. */
export function createAlertHandler(deps: AlertDeps): SqsHandler {
  return makeSqsHandler({
    queue: 'alerts',
    type: 'io.nodewarden.alert.v1',
    log: deps.log,
    handle: (envelope, record) => handleAlertMessage(envelope, record.body, deps, record.messageId),
  })
}

let wired: SqsHandler | undefined
/** handler is the Lambda entry point; it wires itself from the environment on first use. */
export const handler: SqsHandler = (event, context) => {
  wired ??= createAlertHandler(createAlertDeps(loadConfig(process.env)))
  return wired(event, context)
}
