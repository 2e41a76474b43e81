import * as z from 'zod'
import { ConditionStatusSchema, TaintEffectSchema, TaintSchema, TimestampSchema, TolerationSchema } from './kube.ts'

/**
 * Decision: what decide proposes and write disposes. Every decision names the live state it
 * assumed (preconditions); the writer re-checks them at apply time, so a stale, duplicated or
 * reordered decision is skipped, never applied wrongly.
 */

export const NodeTargetSchema = z.object({ kind: z.literal('Node'), name: z.string().min(1), uid: z.string().min(1) })
export const PodTargetSchema = z.object({
  kind: z.literal('Pod'),
  namespace: z.string().min(1),
  name: z.string().min(1),
  uid: z.string().min(1),
  nodeName: z.string().min(1),
})
export type NodeTarget = z.infer<typeof NodeTargetSchema>
export type PodTarget = z.infer<typeof PodTargetSchema>

export const PreconditionSchema = z.discriminatedUnion('type', [
  /** The node condition still has this status and has not transitioned since `since`. */
  z.object({
    type: z.literal('conditionHolds'),
    condition: z.string().min(1),
    status: ConditionStatusSchema,
    since: TimestampSchema.optional(),
  }),
  /** The node condition no longer has this status (used before untainting). */
  z.object({ type: z.literal('conditionNot'), condition: z.string().min(1), status: ConditionStatusSchema }),
  z.object({ type: z.literal('taintAbsent'), key: z.string().min(1), effect: TaintEffectSchema }),
  z.object({ type: z.literal('taintPresent'), key: z.string().min(1), effect: TaintEffectSchema }),
  /** The pod with this uid is still bound to this node. */
  z.object({ type: z.literal('podOnNode'), podUid: z.string().min(1), nodeName: z.string().min(1) }),
  z.object({ type: z.literal('podPhase'), phases: z.array(z.string().min(1)).min(1) }),
  z.object({ type: z.literal('nodeUid'), uid: z.string().min(1) }),
])
export type Precondition = z.infer<typeof PreconditionSchema>

/** A safety budget the writer must draw from before acting (its own issue enforces it). */
export const BudgetClaimSchema = z.object({
  kind: z.enum(['noExecuteTaint', 'drain', 'evict', 'relief']),
  zone: z.string(),
  /** Nodes in the zone when decided: the writer's fraction guard (unknown → one node at a time). */
  zoneNodes: z.number().int().nonnegative().optional(),
  /** The zone's token refill rate (nodes/s) for its state when decided; 0 halts the zone. */
  ratePerSecond: z.number().nonnegative().optional(),
})
export type BudgetClaim = z.infer<typeof BudgetClaimSchema>

export const EvidenceSchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))

const common = {
  /** Deterministic: the same view and clock give the same id; the writer's idempotency key. */
  id: z.string().min(8),
  ruleId: z.string().min(1),
  reason: z.string().min(1),
  evidence: EvidenceSchema.default({}),
  preconditions: z.array(PreconditionSchema).default([]),
  notBefore: TimestampSchema.optional(),
  decidedAt: TimestampSchema,
  budget: BudgetClaimSchema.optional(),
  /** How many times the writer has re-enqueued this decision (backoff input). */
  attempt: z.number().int().nonnegative().default(0),
}

export const DecisionSchema = z.discriminatedUnion('action', [
  z.object({ ...common, action: z.literal('taint'), target: NodeTargetSchema, taint: TaintSchema }),
  z.object({ ...common, action: z.literal('untaint'), target: NodeTargetSchema, taint: TaintSchema }),
  z.object({
    ...common,
    action: z.literal('evict'),
    target: PodTargetSchema,
    gracePeriodSeconds: z.number().int().nonnegative().optional(),
    /** For drains: when a PDB still blocks at this time, alert (never force by default). */
    deadline: TimestampSchema.optional(),
    /**
     * What the writer does when a PDB still blocks past `deadline`: `alert` (absent means alert) or
     * `delete` the pod, bypassing the PDB as `kubectl drain --disable-eviction` does (policy opt-in).
     */
    onDeadline: z.enum(['alert', 'delete']).optional(),
  }),
  z.object({
    ...common,
    action: z.literal('backfillTolerations'),
    target: PodTargetSchema,
    tolerations: z.array(TolerationSchema).min(1),
  }),
  z.object({ ...common, action: z.literal('deleteEvictedPod'), target: PodTargetSchema }),
])
export type Decision = z.infer<typeof DecisionSchema>
export type DecisionInput = z.input<typeof DecisionSchema>
export type DecisionAction = Decision['action']
