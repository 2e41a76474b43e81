import { type AlertSubscription, AlertSubscriptionSchema } from '../../../shared/alerts/subscription.ts'
import { type Alert, type AlertInput, AlertSchema } from '../../../shared/messages/alert.ts'

/** Builders for alert tests: sensible defaults, override what the test is about. */

export const T0 = '2026-11-22T10:00:00Z'

export function anAlert(overrides: Partial<AlertInput> = {}): Alert {
  return AlertSchema.parse({
    id: 'alert-node-a-kernel',
    status: 'firing',
    severity: 'warning',
    kind: 'ConditionTainted',
    subject: {
      kind: 'Node',
      name: 'node-a',
      zone: 'eu-west-1a',
      nodeLabels: { 'topology.kubernetes.io/zone': 'eu-west-1a', pool: 'general' },
    },
    summary: 'KernelDeadlock=True for 10m: tainted nodewarden.io/kernel-deadlock:NoExecute',
    details: { condition: 'KernelDeadlock' },
    startsAt: T0,
    groupKey: 'node/node-a',
    ...overrides,
  })
}

type SubOverrides = {
  name?: string
  spec?: Partial<AlertSubscription['spec']>
  notified?: AlertSubscription['status']['notified']
}

export function aSubscription(o: SubOverrides = {}): AlertSubscription {
  return AlertSubscriptionSchema.parse({
    metadata: { name: o.name ?? 'ops', namespace: 'nodewarden', creationTimestamp: '2026-11-01T00:00:00Z' },
    spec: { url: 'https://hooks.example.com/nodewarden', secretRef: { name: 'ops-signing' }, ...o.spec },
    status: { notified: o.notified ?? {} },
  })
}
