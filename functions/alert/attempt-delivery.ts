import type { DeliveryOutcome } from '../../shared/alerts/retry-policy.ts'
import type { AlertSubscription } from '../../shared/alerts/subscription.ts'
import type { Alert } from '../../shared/messages/alert.ts'
import type { PostWebhook } from './post-webhook.ts'
import { SigningKeyError } from './read-subscriptions.ts'
import { renderPayload } from './render-context.ts'
import { ALERT_ID_HEADER, ATTEMPT_HEADER, IDEMPOTENCY_HEADER, signPayload } from './sign-payload.ts'

export type AttemptDeps = {
  signingKey: (subscription: AlertSubscription) => Promise<string>
  postWebhook: PostWebhook
  now: () => Date
  cluster: string
}

export type Attempt = { subscription: AlertSubscription; alert: Alert; deliveryId: string; attempt: number }

/**
 * attemptDelivery renders, signs and posts one notice once, returning the outcome. A missing
 * signing secret is retryable (GitOps may apply the Secret after the subscription); it is named,
 * never shown. The API's test endpoint and the alert function share this one path.
 */
export async function attemptDelivery(a: Attempt, deps: AttemptDeps): Promise<DeliveryOutcome> {
  let key: string
  try {
    key = await deps.signingKey(a.subscription)
  } catch (err) {
    if (err instanceof SigningKeyError) return { kind: 'retryable', reason: err.message }
    throw err
  }
  const now = deps.now()
  const payload = renderPayload(a.subscription.spec.format, a.alert, {
    deliveryId: a.deliveryId,
    now,
    cluster: deps.cluster,
    receiver: a.subscription.metadata.name,
  })
  const headers = {
    'content-type': payload.contentType,
    'user-agent': 'nodewarden-alert/1',
    [IDEMPOTENCY_HEADER]: a.deliveryId,
    [ALERT_ID_HEADER]: a.alert.id,
    [ATTEMPT_HEADER]: String(a.attempt),
    ...signPayload(payload.body, key, now),
  }
  return deps.postWebhook({ url: a.subscription.spec.url, headers, body: payload.body })
}
