import {
  type AlertSubscription,
  AlertSubscriptionSchema,
  type Notice,
  SUBSCRIPTION_API_VERSION,
  SUBSCRIPTION_PLURAL,
} from '../../shared/alerts/subscription.ts'
import { formatIssues } from '../../shared/messages/envelope.ts'
import { type KubeRest, statusMessage } from './kube-rest.ts'

/** SigningKeyError: a subscription's signing Secret or key is missing or empty (named, never valued). */
export class SigningKeyError extends Error {
  override name = 'SigningKeyError'
}

export type InvalidSubscription = { name: string; problems: string[] }

export type SubscriptionSource = {
  /**
   * Every valid subscription of the namespace; invalid objects are reported, not thrown. `fresh`
   * reads past the cache (and refreshes it), e.g. after a claim found the cached copy outdated.
   */
  list: (options?: {
    fresh?: boolean
  }) => Promise<{ subscriptions: AlertSubscription[]; invalid: InvalidSubscription[] }>
  get: (name: string) => Promise<AlertSubscription | undefined>
  /** The signing key a subscription's secretRef names; throws SigningKeyError when absent. */
  signingKey: (subscription: AlertSubscription) => Promise<string>
  /** Keeps the cached copy in step with a status write this process made. */
  /**
   * remember folds one recorded notice into the cached copy — one key only, so two deliveries to
   * the same subscription in one batch never overwrite each other's record.
   */
  remember: (subscriptionName: string, alertId: string, notice: Notice | null) => void
}

export type SubscriptionSourceOptions = { kube: KubeRest; namespace: string; ttlMs: number; now: () => Date }

/** subscriptionsPath is the collection path of AlertSubscriptions in a namespace. */
export function subscriptionsPath(namespace: string): string {
  return `/apis/${SUBSCRIPTION_API_VERSION}/namespaces/${encodeURIComponent(namespace)}/${SUBSCRIPTION_PLURAL}`
}

/**
 * createSubscriptionSource reads AlertSubscriptions and their signing Secrets with read-only
 * calls (list subscriptions, get secret), each cached for `ttlMs` so a batch of deliveries costs
 * one list and one secret read per subscription, not one per message.
 */
export function createSubscriptionSource(options: SubscriptionSourceOptions): SubscriptionSource {
  const { kube, namespace, ttlMs, now } = options
  let listed:
    | { at: number; value: Promise<{ subscriptions: AlertSubscription[]; invalid: InvalidSubscription[] }> }
    | undefined
  const keys = new Map<string, { at: number; value: Promise<string> }>()
  const fresh = (at: number) => now().getTime() - at < ttlMs

  const load = async () => {
    const response = await kube('GET', subscriptionsPath(namespace))
    if (response.status !== 200) throw new Error(`list alertsubscriptions in ${namespace}: ${statusMessage(response)}`)
    const items = ((response.body as { items?: unknown[] }).items ?? []) as unknown[]
    const subscriptions: AlertSubscription[] = []
    const invalid: InvalidSubscription[] = []
    for (const item of items) {
      const parsed = AlertSubscriptionSchema.safeParse(item)
      const name = String((item as { metadata?: { name?: unknown } }).metadata?.name ?? '(unnamed)')
      if (parsed.success) subscriptions.push(parsed.data)
      else invalid.push({ name, problems: formatIssues(parsed.error) })
    }
    return { subscriptions, invalid }
  }

  const list = (options: { fresh?: boolean } = {}) => {
    if (listed && fresh(listed.at) && !options.fresh) return listed.value
    const entry = { at: now().getTime(), value: load() }
    listed = entry
    entry.value.catch(() => {
      if (listed === entry) listed = undefined // a failed read must not stick
    })
    return entry.value
  }

  const readKey = async (sub: AlertSubscription): Promise<string> => {
    const ref = sub.spec.secretRef
    const where = `secret ${sub.metadata.namespace}/${ref.name} key ${ref.key}`
    const response = await kube(
      'GET',
      `/api/v1/namespaces/${encodeURIComponent(sub.metadata.namespace)}/secrets/${encodeURIComponent(ref.name)}`,
    )
    if (response.status === 404) throw new SigningKeyError(`${where}: secret not found`)
    if (response.status !== 200) throw new Error(`read ${where}: ${statusMessage(response)}`)
    const encoded = (response.body as { data?: Record<string, string> }).data?.[ref.key]
    if (!encoded) throw new SigningKeyError(`${where}: key missing or empty`)
    return Buffer.from(encoded, 'base64').toString('utf8')
  }

  return {
    list,
    get: async (name) => (await list()).subscriptions.find((s) => s.metadata.name === name),
    signingKey: (sub) => {
      const cacheKey = `${sub.metadata.namespace}/${sub.spec.secretRef.name}/${sub.spec.secretRef.key}`
      const hit = keys.get(cacheKey)
      if (hit && fresh(hit.at)) return hit.value
      const entry = { at: now().getTime(), value: readKey(sub) }
      keys.set(cacheKey, entry)
      entry.value.catch(() => keys.delete(cacheKey))
      return entry.value
    },
    remember: (subscriptionName, alertId, notice) => {
      if (!listed) return
      const previous = listed
      const fold = (s: AlertSubscription): AlertSubscription => {
        if (s.metadata.name !== subscriptionName) return s
        const notified = { ...s.status.notified }
        if (notice) notified[alertId] = notice
        else delete notified[alertId]
        return { ...s, status: { ...s.status, notified } }
      }
      listed = {
        at: previous.at,
        value: previous.value.then((l) => ({ ...l, subscriptions: l.subscriptions.map(fold) })),
      }
    },
  }
}
