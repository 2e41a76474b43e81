import type { Decision, DecisionInput } from '../../../shared/messages/index.ts'
import { DecisionSchema } from '../../../shared/messages/index.ts'
import { T0 } from '../../fixtures/builders.ts'

/** Builders for writer tests: decisions and live API objects (wire shape), defaults overridable. */

export function aTaintDecision(overrides: Partial<DecisionInput> = {}): Decision {
  return DecisionSchema.parse({
    id: 'decision-taint-1',
    action: 'taint',
    ruleId: 'kernel-deadlock',
    reason: 'KernelDeadlock=True for 300s',
    decidedAt: T0,
    target: { kind: 'Node', name: 'node-a', uid: 'uid-node-a' },
    taint: { key: 'nodewarden.io/kernel-deadlock', value: 'true', effect: 'NoExecute' },
    preconditions: [
      { type: 'conditionHolds', condition: 'KernelDeadlock', status: 'True', since: '2026-11-22T09:55:00Z' },
      { type: 'taintAbsent', key: 'nodewarden.io/kernel-deadlock', effect: 'NoExecute' },
    ],
    budget: { kind: 'noExecuteTaint', zone: 'eu-west-1:\u0000:eu-west-1a', zoneNodes: 10, ratePerSecond: 0.1 },
    ...overrides,
  } as DecisionInput)
}

export function anEvictDecision(overrides: Partial<DecisionInput> = {}): Decision {
  return DecisionSchema.parse({
    id: 'decision-evict-1',
    action: 'evict',
    ruleId: 'kernel-deadlock',
    reason: 'drain node-a: KernelDeadlock=True for 300s',
    decidedAt: T0,
    target: { kind: 'Pod', namespace: 'default', name: 'web-1', uid: 'uid-default-web-1', nodeName: 'node-a' },
    preconditions: [{ type: 'podOnNode', podUid: 'uid-default-web-1', nodeName: 'node-a' }],
    budget: { kind: 'drain', zone: 'eu-west-1:\u0000:eu-west-1a', zoneNodes: 10, ratePerSecond: 0.1 },
    ...overrides,
  } as DecisionInput)
}

export type NodeObject = {
  metadata: {
    name: string
    uid: string
    resourceVersion: string
    labels?: Record<string, string>
    annotations?: Record<string, string>
  }
  spec: { taints?: { key: string; value?: string; effect: string; timeAdded?: string }[] }
  status: { conditions: { type: string; status: string; reason?: string; lastTransitionTime?: string }[] }
}

export function aNodeObject(
  overrides: {
    name?: string
    taints?: NodeObject['spec']['taints']
    conditions?: NodeObject['status']['conditions']
    labels?: Record<string, string>
  } = {},
): NodeObject {
  const name = overrides.name ?? 'node-a'
  return {
    metadata: {
      name,
      uid: `uid-${name}`,
      resourceVersion: '10',
      labels: overrides.labels ?? {
        'topology.kubernetes.io/region': 'eu-west-1',
        'topology.kubernetes.io/zone': 'eu-west-1a',
      },
    },
    spec: { taints: overrides.taints ?? [] },
    status: {
      conditions: overrides.conditions ?? [
        { type: 'Ready', status: 'True', lastTransitionTime: T0 },
        { type: 'KernelDeadlock', status: 'True', reason: 'DockerHung', lastTransitionTime: '2026-11-22T09:55:00Z' },
      ],
    },
  }
}

export type PodObject = {
  metadata: {
    name: string
    namespace: string
    uid: string
    resourceVersion: string
    labels?: Record<string, string>
    deletionTimestamp?: string
  }
  spec: {
    nodeName?: string
    tolerations?: { key?: string; operator?: string; value?: string; effect?: string; tolerationSeconds?: number }[]
    containers: { name: string; image: string }[]
  }
  status: { phase: string; reason?: string }
}

export function aPodObject(
  overrides: {
    name?: string
    namespace?: string
    nodeName?: string
    phase?: string
    reason?: string
    labels?: Record<string, string>
    tolerations?: PodObject['spec']['tolerations']
  } = {},
): PodObject {
  const name = overrides.name ?? 'web-1'
  const namespace = overrides.namespace ?? 'default'
  return {
    metadata: {
      name,
      namespace,
      uid: `uid-${namespace}-${name}`,
      resourceVersion: '20',
      labels: overrides.labels ?? { app: 'web' },
    },
    spec: {
      nodeName: overrides.nodeName ?? 'node-a',
      tolerations: overrides.tolerations ?? [],
      containers: [{ name: 'app', image: 'nginx' }],
    },
    status: { phase: overrides.phase ?? 'Running', ...(overrides.reason ? { reason: overrides.reason } : {}) },
  }
}
