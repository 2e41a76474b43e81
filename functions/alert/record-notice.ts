import type { AlertSubscription, Notice } from '../../shared/alerts/subscription.ts'
import { type KubeRest, statusMessage } from './kube-rest.ts'
import { subscriptionsPath } from './read-subscriptions.ts'

/** What a record write found: written, the subscription deleted meanwhile, or (with `ifUnchanged`) changed meanwhile. */
export type RecordResult = 'recorded' | 'gone' | 'conflict'

/**
 * RecordNotice writes (or, with null, clears) one alert's entry in a subscription's `status.notified`,
 * and clears the `prune` entries in the same patch.
 * With `ifUnchanged`, the write carries the subscription's resourceVersion as an optimistic lock and
 * answers `conflict` when the object changed since it was read.
 */
export type RecordNotice = (
  subscription: AlertSubscription,
  alertId: string,
  notice: Notice | null,
  options?: { ifUnchanged?: boolean; prune?: readonly string[] },
) => Promise<RecordResult>

/**
 * createRecordNotice patches the status subresource with a JSON merge patch touching one map key,
 * so concurrent deliveries to one subscription never conflict and a repeat is idempotent. A claim
 * (`ifUnchanged`) adds `metadata.resourceVersion` to the patch, so of two fan-outs that read the same
 * version only one claims. This is the alert function's only write: `patch` on
 * `alertsubscriptions/status`, never the spec.
 */
export function createRecordNotice(kube: KubeRest): RecordNotice {
  return async (subscription, alertId, notice, options = {}) => {
    const { namespace, name, resourceVersion } = subscription.metadata
    const path = `${subscriptionsPath(namespace)}/${encodeURIComponent(name)}/status`
    const lock = options.ifUnchanged && resourceVersion !== undefined ? { metadata: { resourceVersion } } : {}
    // A merge patch merges into the entry already there: null every optional field the notice does
    // not carry, so a delivered notice replaces a claim (`pending`) or an earlier `failed` one.
    const entry = notice && { zone: null, failed: null, pending: null, ...notice }
    const pruned = Object.fromEntries((options.prune ?? []).filter((id) => id !== alertId).map((id) => [id, null]))
    const patch = { ...lock, status: { notified: { ...pruned, [alertId]: entry } } }
    const response = await kube('PATCH', path, patch, 'application/merge-patch+json')
    if (response.status === 404) return 'gone' // deleted meanwhile: nothing to record
    if (response.status === 409 && options.ifUnchanged) return 'conflict'
    if (response.status !== 200) throw new Error(`record notice on ${namespace}/${name}: ${statusMessage(response)}`)
    return 'recorded'
  }
}
