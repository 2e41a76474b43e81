/**
 * The scenario format (YAML or JSON): an initial cluster and a timeline of events. Every field is
 * validated here; errors name the field (`timeline[2].addTaint.effect: …`).
 */
import * as z from 'zod'
import { DurationSchema } from '../../../shared/config/duration.ts'
import { FaultRuleSchema } from '../fault-schema.ts'
import { NodeStatsSchema } from '../kubelet-summary.ts'

const Quantity = z.union([z.string(), z.number()])
const Resources = z.record(z.string(), Quantity)
const Labels = z.record(z.string(), z.string())

export const TaintSchema = z.strictObject({
  key: z.string().min(1),
  value: z.string().optional(),
  effect: z.enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute']),
})

export const TolerationSchema = z.strictObject({
  key: z.string().optional(),
  operator: z.enum(['Equal', 'Exists']).optional(),
  value: z.string().optional(),
  effect: z.enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute']).optional(),
  tolerationSeconds: z.number().int().optional(),
})

export const ConditionSchema = z.strictObject({
  type: z.string().min(1),
  status: z.enum(['True', 'False', 'Unknown']),
  reason: z.string().optional(),
  message: z.string().optional(),
})

export const ZoneSchema = z.union([
  z.string().min(1),
  z.strictObject({ name: z.string().min(1), region: z.string().optional() }),
])

export const NodeSpecSchema = z.strictObject({
  name: z.string().min(1),
  zone: z.string().optional(),
  capacity: Resources.default({ cpu: '4', memory: '16Gi', pods: '110', 'ephemeral-storage': '100Gi' }),
  allocatable: Resources.optional(),
  labels: Labels.optional(),
  annotations: Labels.optional(),
  taints: z.array(TaintSchema).optional(),
  unschedulable: z.boolean().optional(),
  /** extra conditions (node-problem-detector's, pressure); Ready=True is implied unless given. */
  conditions: z.array(ConditionSchema).optional(),
  roles: z.array(z.string()).optional(),
  stats: NodeStatsSchema.optional(),
  /** the node is silent from the start: no heartbeats or lease renewals. */
  silent: z.boolean().optional(),
})

const OwnerSchema = z.strictObject({
  kind: z.enum(['ReplicaSet', 'DaemonSet', 'StatefulSet', 'Job', 'Node']),
  name: z.string().min(1),
})

/** PodTemplateSchema: the fields shared by bare pods, ReplicaSet and DaemonSet pod templates. */
const podFields = {
  labels: Labels.optional(),
  annotations: Labels.optional(),
  priority: z.number().int().optional(),
  priorityClassName: z.string().optional(),
  tolerations: z.array(TolerationSchema).optional(),
  /** add the DefaultTolerationSeconds not-ready/unreachable 300 s tolerations (default true). */
  defaultTolerations: z.boolean().default(true),
  qos: z.enum(['BestEffort', 'Burstable', 'Guaranteed']).default('Burstable'),
  requests: Resources.optional(),
  limits: Resources.optional(),
  emptyDir: z.boolean().optional(),
  terminationGracePeriodSeconds: z.number().int().nonnegative().optional(),
  phase: z.enum(['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown']).default('Running'),
  reason: z.string().optional(),
  message: z.string().optional(),
  ready: z.boolean().optional(),
}

export const PodSpecSchema = z.strictObject({
  name: z.string().min(1),
  namespace: z.string().default('default'),
  /** node name; absent = unscheduled (Pending). */
  node: z.string().optional(),
  owner: OwnerSchema.optional(),
  /** a static pod as the API shows it: a mirror pod owned by its Node. */
  static: z.boolean().optional(),
  ...podFields,
})

export const ReplicaSetSpecSchema = z.strictObject({
  name: z.string().min(1),
  namespace: z.string().default('default'),
  replicas: z.number().int().nonnegative(),
  /** nodes to spread the pods over (round robin); default every node. */
  nodes: z.array(z.string()).optional(),
  ...podFields,
})

export const DaemonSetSpecSchema = z.strictObject({
  name: z.string().min(1),
  namespace: z.string().default('kube-system'),
  /** nodes to run on; default every node. */
  nodes: z.array(z.string()).optional(),
  ...podFields,
})

export const PdbSpecSchema = z
  .strictObject({
    name: z.string().min(1),
    namespace: z.string().default('default'),
    selector: Labels,
    minAvailable: z.union([z.number().int().nonnegative(), z.string().regex(/^\d+%$/)]).optional(),
    maxUnavailable: z.union([z.number().int().nonnegative(), z.string().regex(/^\d+%$/)]).optional(),
    unhealthyPodEvictionPolicy: z.enum(['IfHealthyBudget', 'AlwaysAllow']).optional(),
  })
  .refine((p) => (p.minAvailable === undefined) !== (p.maxUnavailable === undefined), {
    message: 'set exactly one of minAvailable and maxUnavailable',
  })

const NodeRef = z.strictObject({ node: z.string().min(1) })

/** STEP_ACTIONS: each timeline step carries `at` and exactly one of these actions. */
export const STEP_ACTIONS = {
  setCondition: ConditionSchema.extend({ node: z.string().min(1) }),
  clearCondition: z.strictObject({ node: z.string().min(1), type: z.string().min(1) }),
  addTaint: TaintSchema.extend({ node: z.string().min(1) }),
  removeTaint: z.strictObject({ node: z.string().min(1), key: z.string().min(1), effect: z.string().optional() }),
  setStats: z.strictObject({ node: z.string().min(1), stats: NodeStatsSchema }),
  silence: NodeRef,
  resume: NodeRef,
  createPod: PodSpecSchema,
  deletePod: z.strictObject({
    name: z.string().min(1),
    namespace: z.string().default('default'),
    gracePeriodSeconds: z.number().int().nonnegative().optional(),
  }),
  fault: FaultRuleSchema,
  clearFaults: z.literal(true),
}
type Actions = typeof STEP_ACTIONS
export type ScenarioStep = {
  [K in keyof Actions]: { at: number } & { [P in K]: z.output<Actions[P]> }
}[keyof Actions]

/** StepSchema validates one step, naming the action's bad field (`timeline[2].addTaint.effect`). */
// `at`: seconds as a number or a Go duration (`90s`, `5m`, `1h30m`), parsed to milliseconds.
export const StepSchema = z.looseObject({ at: DurationSchema }).transform((raw, ctx): ScenarioStep => {
  const keys = Object.keys(raw).filter((k) => k !== 'at')
  const key = keys[0] as keyof Actions
  if (keys.length !== 1 || !(key in STEP_ACTIONS)) {
    ctx.addIssue({
      code: 'custom',
      message: `expected exactly one action of ${Object.keys(STEP_ACTIONS).join(', ')}; got ${keys.join(', ') || 'none'}`,
    })
    return z.NEVER
  }
  const parsed = STEP_ACTIONS[key].safeParse(raw[key])
  if (!parsed.success) {
    for (const issue of parsed.error.issues)
      ctx.addIssue({ code: 'custom', message: issue.message, path: [key, ...issue.path] })
    return z.NEVER
  }
  return { at: raw.at, [key]: parsed.data } as ScenarioStep
})

export const ScenarioSchema = z.strictObject({
  name: z.string().min(1),
  description: z.string().optional(),
  /** virtual start time (ISO 8601); default the emulator's now. */
  startTime: z.iso.datetime({ offset: true }).optional(),
  kubelet: z
    .strictObject({
      heartbeatSeconds: z.number().positive().default(10),
      leaseSeconds: z.number().positive().default(10),
      /** silence after which the emulated node lifecycle controller marks Ready=Unknown (upstream 50 s since 1.32). */
      nodeMonitorGracePeriodSeconds: z.number().positive().default(50),
    })
    .prefault({}),
  zones: z.array(ZoneSchema).default([]),
  nodes: z.array(NodeSpecSchema).default([]),
  daemonSets: z.array(DaemonSetSpecSchema).default([]),
  replicaSets: z.array(ReplicaSetSpecSchema).default([]),
  pods: z.array(PodSpecSchema).default([]),
  pdbs: z.array(PdbSpecSchema).default([]),
  /** raw Kubernetes objects (CRDs, ConfigMaps, custom resources…), created after everything else. */
  objects: z
    .array(z.looseObject({ apiVersion: z.string(), kind: z.string(), metadata: z.looseObject({}) }))
    .default([]),
  timeline: z.array(StepSchema).default([]),
})

export type Scenario = z.infer<typeof ScenarioSchema>
export type ScenarioInput = z.input<typeof ScenarioSchema>
export type PodSpec = z.infer<typeof PodSpecSchema>
export type NodeSpec = z.infer<typeof NodeSpecSchema>
