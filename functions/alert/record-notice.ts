import type { AlertSubscription, Notice } from '../../shared/alerts/subscription.ts'
import { type KubeRest, statusMessage } from './kube-rest.ts'
import { subscriptionsPath } from './read-subscriptions.ts'

/** RecordNotice writes (or, with null, clears) one alert's entry in a subscription's `status.notified`. */
export type RecordNotice = (subscription: AlertSubscription, alertId: string, notice: Notice | null) => Promise<void>

/**
 * createRecordNotice patches the status subresource with a JSON merge patch touching one map key,
 * so concurrent deliveries to one subscription never conflict and a repeat is idempotent. This is
 * the alert function's only write: `patch` on `alertsubscriptions/status`, never the spec.
 */
export function createRecordNotice(kube: KubeRest): RecordNotice {
  return async (subscription, alertId, notice) => {
    const { namespace, name } = subscription.metadata
    const path = `${subscriptionsPath(namespace)}/${encodeURIComponent(name)}/status`
    const patch = { status: { notified: { [alertId]: notice } } }
    const response = await kube('PATCH', path, patch, 'application/merge-patch+json')
    if (response.status === 404) return // deleted meanwhile: nothing to record
    if (response.status !== 200) throw new Error(`record notice on ${namespace}/${name}: ${statusMessage(response)}`)
  }
}
