import { randomBytes } from 'node:crypto'
import {
  type AlertSubscription,
  AlertSubscriptionSchema,
  SUBSCRIPTION_API_VERSION,
  SUBSCRIPTION_KIND,
  type SubscriptionSpec,
} from '../../shared/alerts/subscription.ts'
import { type KubeRest, statusMessage } from '../alert/kube-rest.ts'
import { subscriptionsPath } from '../alert/read-subscriptions.ts'

/** The annotation naming a Secret the api generated for an inline signing key (deleted with the subscription). */
export const GENERATED_SECRET_ANNOTATION = 'nodewarden.io/generated-secret'

/** StoreError carries the HTTP status the api should answer (404, 409, 400) for an expected refusal. */
export class StoreError extends Error {
  override name = 'StoreError'
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message)
  }
}

export type SubscriptionStore = {
  list: () => Promise<AlertSubscription[]>
  get: (name: string) => Promise<AlertSubscription>
  create: (name: string, spec: SubscriptionSpec, signingKey?: string) => Promise<AlertSubscription>
  replace: (name: string, spec: SubscriptionSpec, signingKey?: string) => Promise<AlertSubscription>
  remove: (name: string) => Promise<void>
  secretExists: (name: string) => Promise<boolean>
}

/** createSubscriptionStore reads and writes AlertSubscription objects (and generated signing Secrets) in one namespace. */
export function createSubscriptionStore(kube: KubeRest, namespace: string): SubscriptionStore {
  const collection = subscriptionsPath(namespace)
  const secrets = `/api/v1/namespaces/${encodeURIComponent(namespace)}/secrets`
  const item = (name: string) => `${collection}/${encodeURIComponent(name)}`
  const parse = (body: unknown) => AlertSubscriptionSchema.parse(body)

  const get = async (name: string) => {
    const r = await kube('GET', item(name))
    if (r.status === 404) throw new StoreError(404, `subscription ${name} not found`)
    if (r.status !== 200) throw new Error(`get subscription ${name}: ${statusMessage(r)}`)
    return parse(r.body)
  }

  /** writeSecret stores an inline signing key; the key never leaves this function except to the API server. */
  const writeSecret = async (name: string, key: string) => {
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name },
      type: 'Opaque',
      data: { signingKey: Buffer.from(key).toString('base64') },
    }
    const created = await kube('POST', secrets, secret)
    if (created.status === 409) {
      const replaced = await kube('PUT', `${secrets}/${encodeURIComponent(name)}`, secret)
      if (replaced.status !== 200) throw new Error(`replace secret ${name}: HTTP ${replaced.status}`)
    } else if (created.status !== 201) throw new Error(`create secret ${name}: HTTP ${created.status}`)
  }

  const withKey = async (name: string, spec: SubscriptionSpec, signingKey?: string) => {
    if (signingKey === undefined) return { spec, annotations: {} }
    const secretName = `${name}-signing-${randomBytes(3).toString('hex')}`
    await writeSecret(secretName, signingKey)
    return {
      spec: { ...spec, secretRef: { name: secretName, key: 'signingKey' } },
      annotations: { [GENERATED_SECRET_ANNOTATION]: secretName },
    }
  }

  const dropSecret = async (name: string | undefined) => {
    if (name) await kube('DELETE', `${secrets}/${encodeURIComponent(name)}`)
  }

  return {
    list: async () => {
      const r = await kube('GET', collection)
      if (r.status !== 200) throw new Error(`list subscriptions: ${statusMessage(r)}`)
      const items = ((r.body as { items?: unknown[] }).items ?? []) as unknown[]
      return items.flatMap((i) => {
        const parsed = AlertSubscriptionSchema.safeParse(i)
        return parsed.success ? [parsed.data] : []
      })
    },
    get,
    create: async (name, spec, signingKey) => {
      const keyed = await withKey(name, spec, signingKey)
      const object = {
        apiVersion: SUBSCRIPTION_API_VERSION,
        kind: SUBSCRIPTION_KIND,
        metadata: { name, namespace, annotations: keyed.annotations },
        spec: keyed.spec,
      }
      const r = await kube('POST', collection, object)
      if (r.status === 409) {
        await dropSecret(keyed.annotations[GENERATED_SECRET_ANNOTATION])
        throw new StoreError(409, `subscription ${name} already exists`)
      }
      if (r.status === 422 || r.status === 400) throw new StoreError(400, statusMessage(r))
      if (r.status !== 201) throw new Error(`create subscription ${name}: ${statusMessage(r)}`)
      return parse(r.body)
    },
    replace: async (name, spec, signingKey) => {
      const r0 = await kube('GET', item(name))
      if (r0.status === 404) throw new StoreError(404, `subscription ${name} not found`)
      const current = r0.body as { metadata: { annotations?: Record<string, string> } }
      const previousSecret = current.metadata.annotations?.[GENERATED_SECRET_ANNOTATION]
      const keyed = await withKey(name, spec, signingKey)
      const annotations = { ...current.metadata.annotations, ...keyed.annotations }
      // A generated Secret stays while the spec still references it; otherwise it goes with the old spec.
      const stillUsed = previousSecret !== undefined && keyed.spec.secretRef.name === previousSecret
      if (signingKey === undefined && !stillUsed) delete annotations[GENERATED_SECRET_ANNOTATION]
      const object = { ...(r0.body as object), metadata: { ...current.metadata, annotations }, spec: keyed.spec }
      const r = await kube('PUT', item(name), object)
      if (r.status === 409) throw new StoreError(409, `subscription ${name} changed meanwhile; retry`)
      if (r.status === 422 || r.status === 400) throw new StoreError(400, statusMessage(r))
      if (r.status !== 200) throw new Error(`replace subscription ${name}: ${statusMessage(r)}`)
      if (previousSecret && !stillUsed && previousSecret !== keyed.annotations[GENERATED_SECRET_ANNOTATION])
        await dropSecret(previousSecret)
      return parse(r.body)
    },
    remove: async (name) => {
      const current = await get(name)
      const r = await kube('DELETE', item(name))
      if (r.status === 404) throw new StoreError(404, `subscription ${name} not found`)
      if (r.status !== 200 && r.status !== 202) throw new Error(`delete subscription ${name}: ${statusMessage(r)}`)
      await dropSecret(current.metadata.annotations?.[GENERATED_SECRET_ANNOTATION])
    },
    secretExists: async (name) => (await kube('GET', `${secrets}/${encodeURIComponent(name)}`)).status === 200,
  }
}
