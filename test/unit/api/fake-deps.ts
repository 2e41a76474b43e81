import type { ApiDeps } from '../../../functions/api/app.ts'
import { createApiMetrics } from '../../../functions/api/metrics.ts'
import { StoreError } from '../../../functions/api/subscription-store.ts'
import { DEFAULT_EGRESS_POLICY } from '../../../shared/alerts/egress-guard.ts'
import { type AlertSubscription, AlertSubscriptionSchema } from '../../../shared/alerts/subscription.ts'
import { silentLog } from '../../../shared/log.ts'

export const TOKEN = 'api-token-for-unit-tests-0123'

/** fakeDeps: an in-memory store and a test delivery that always succeeds; no network. */
export function fakeDeps(): ApiDeps {
  const items = new Map<string, AlertSubscription>()
  return {
    store: {
      list: async () => [...items.values()],
      get: async (name) => {
        const s = items.get(name)
        if (!s) throw new StoreError(404, `subscription ${name} not found`)
        return s
      },
      create: async (name, spec) => {
        if (items.has(name)) throw new StoreError(409, `subscription ${name} already exists`)
        const s = AlertSubscriptionSchema.parse({ metadata: { name, namespace: 'nodewarden' }, spec })
        items.set(name, s)
        return s
      },
      replace: async (name, spec) => {
        const s = AlertSubscriptionSchema.parse({ metadata: { name, namespace: 'nodewarden' }, spec })
        items.set(name, s)
        return s
      },
      remove: async (name) => {
        if (!items.delete(name)) throw new StoreError(404, `subscription ${name} not found`)
      },
      secretExists: async (name) => name === 'existing',
    },
    testDelivery: async () => ({ kind: 'delivered', status: 204 }),
    token: TOKEN,
    egress: DEFAULT_EGRESS_POLICY,
    metrics: createApiMetrics({ defaults: false }),
    log: silentLog,
  }
}
