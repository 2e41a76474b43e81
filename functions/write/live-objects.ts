import * as z from 'zod'
import { NodeConditionSchema, TaintSchema, TolerationSchema } from '../../shared/messages/index.ts'

/**
 * The live objects the writer re-checks decisions against, trimmed to the fields it reads.
 * Kubernetes objects are parsed at the edge like any other input (STYLE.md §2).
 */

const MetadataSchema = z.object({
  name: z.string().min(1),
  namespace: z.string().optional(),
  uid: z.string().min(1),
  resourceVersion: z.string().min(1),
  annotations: z
    .record(z.string(), z.string())
    .nullish()
    .transform((a) => a ?? {}),
  labels: z
    .record(z.string(), z.string())
    .nullish()
    .transform((l) => l ?? {}),
  deletionTimestamp: z.string().nullish(),
})

/** Timestamps arrive as strings or, through client-node's models, as Dates. */
const TimeSchema = z.union([z.string(), z.date().transform((d) => d.toISOString())])

export const LiveNodeSchema = z.object({
  metadata: MetadataSchema,
  spec: z
    .object({
      taints: z
        .array(TaintSchema.extend({ timeAdded: TimeSchema.nullish().transform((t) => t ?? undefined) }))
        .nullish()
        .transform((t) => t ?? []),
    })
    .nullish()
    .transform((s) => s ?? { taints: [] }),
  status: z
    .object({
      conditions: z
        .array(
          NodeConditionSchema.pick({ type: true, status: true, reason: true }).extend({
            lastTransitionTime: TimeSchema.nullish().transform((t) => t ?? undefined),
          }),
        )
        .nullish()
        .transform((c) => c ?? []),
    })
    .nullish()
    .transform((s) => s ?? { conditions: [] }),
})
export type LiveNode = z.infer<typeof LiveNodeSchema>

export const LivePodSchema = z.object({
  metadata: MetadataSchema.extend({ namespace: z.string().min(1) }),
  spec: z.object({
    nodeName: z.string().nullish(),
    tolerations: z
      .array(TolerationSchema)
      .nullish()
      .transform((t) => t ?? []),
  }),
  status: z
    .object({ phase: z.string().nullish(), reason: z.string().nullish() })
    .nullish()
    .transform((s) => s ?? {}),
})
export type LivePod = z.infer<typeof LivePodSchema>

/** toLiveNode parses a node read from the API, failing with the field that does not fit. */
export function toLiveNode(raw: unknown): LiveNode {
  return parseLive(LiveNodeSchema, raw, 'node')
}

/** toLivePod parses a pod read from the API, failing with the field that does not fit. */
export function toLivePod(raw: unknown): LivePod {
  return parseLive(LivePodSchema, raw, 'pod')
}

function parseLive<S extends z.ZodType>(schema: S, raw: unknown, what: string): z.infer<S> {
  // client-node hands back class instances; a JSON round trip gives the plain wire shape.
  const result = schema.safeParse(JSON.parse(JSON.stringify(raw)))
  if (!result.success) {
    const fields = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
    throw new Error(`unexpected ${what} from the API: ${fields.join('; ')}`)
  }
  return result.data
}
