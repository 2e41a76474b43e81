import * as z from 'zod'

/** Shapes of Kubernetes fields shared by several messages, trimmed to what nodewarden reads. */

/** QuantitySchema accepts a Kubernetes resource quantity string (`100Mi`, `1.5Gi`, `500m`, `1e3`). */
export const QuantitySchema = z
  .string()
  .regex(/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+|Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?$/, 'not a Kubernetes quantity')

export const TimestampSchema = z.iso.datetime({ offset: true })

export const TaintEffectSchema = z.enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute'])
export type TaintEffect = z.infer<typeof TaintEffectSchema>

export const TaintSchema = z.object({
  key: z.string().min(1),
  value: z.string().optional(),
  effect: TaintEffectSchema,
  timeAdded: TimestampSchema.optional(),
})
export type Taint = z.infer<typeof TaintSchema>

/** Operator and effect stay open strings: upstream evaluates unknown operators as "no match", not as an error. */
export const TolerationSchema = z.object({
  key: z.string().optional(),
  operator: z.string().optional(),
  value: z.string().optional(),
  effect: z.string().optional(),
  tolerationSeconds: z.number().int().nullable().optional(),
})
export type Toleration = z.infer<typeof TolerationSchema>

export const ConditionStatusSchema = z.enum(['True', 'False', 'Unknown'])
export type ConditionStatus = z.infer<typeof ConditionStatusSchema>

export const NodeConditionSchema = z.object({
  type: z.string().min(1),
  status: ConditionStatusSchema,
  reason: z.string().optional(),
  message: z.string().optional(),
  lastTransitionTime: TimestampSchema.optional(),
  lastHeartbeatTime: TimestampSchema.optional(),
})
export type NodeCondition = z.infer<typeof NodeConditionSchema>

export const ResourceListSchema = z.record(z.string(), QuantitySchema)
export type ResourceList = z.infer<typeof ResourceListSchema>

export const ContainerResourcesSchema = z.object({
  name: z.string(),
  requests: ResourceListSchema.optional(),
  limits: ResourceListSchema.optional(),
  /** `Always` on an init container marks a sidecar (restartable init container). */
  restartPolicy: z.string().optional(),
})
export type ContainerResources = z.infer<typeof ContainerResourcesSchema>

export const OwnerRefSchema = z.object({ kind: z.string(), name: z.string(), controller: z.boolean().optional() })
export type OwnerRef = z.infer<typeof OwnerRefSchema>

export const LabelsSchema = z.record(z.string(), z.string())

export const LabelSelectorRequirementSchema = z.object({
  key: z.string(),
  operator: z.enum(['In', 'NotIn', 'Exists', 'DoesNotExist']),
  values: z.array(z.string()).optional(),
})
export const LabelSelectorSchema = z.object({
  matchLabels: LabelsSchema.optional(),
  matchExpressions: z.array(LabelSelectorRequirementSchema).optional(),
})
export type LabelSelector = z.infer<typeof LabelSelectorSchema>
