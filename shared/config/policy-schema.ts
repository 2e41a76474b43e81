import * as z from 'zod'
import { LabelSelectorSchema, SeveritySchema, TaintEffectSchema } from '../messages/index.ts'
import { ReliefConfigSchema } from '../pressure/config.ts'
import { DEFAULT_CONDITION_RULES } from './default-rules.ts'
import { DurationSchema } from './duration.ts'

/**
 * The policy document: one zod-validated object with documented defaults, loaded from a YAML/JSON
 * file, an environment variable, or a ConfigMap's data. Durations are written `10m` / `1h30m`
 * (or seconds as a number) and parsed to milliseconds.
 */

const TAINT_KEY = /^nodewarden\.io\/[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/

export const EscalationStepSchema = z.strictObject({
  action: z.enum(['restart', 'reprovision', 'repair']),
  /** Time since the condition began (its lastTransitionTime) after which this step is due. */
  after: DurationSchema,
})

export const ConditionRuleSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'lowercase letters, digits and dashes'),
  condition: z.string().min(1),
  status: z.enum(['True', 'False', 'Unknown']).default('True'),
  /** How long the condition must hold (since lastTransitionTime) before the rule acts. */
  for: DurationSchema,
  /** Optional: a rule without a taint only alerts and escalates. */
  taint: z
    .strictObject({
      key: z.string().regex(TAINT_KEY, 'must be a taint key under nodewarden.io/'),
      value: z.string().max(63).default(''),
      effect: TaintEffectSchema.default('NoSchedule'),
    })
    .optional(),
  drain: z.boolean().default(false),
  severity: SeveritySchema.default('warning'),
  escalation: z.array(EscalationStepSchema).default([]),
  /** Overrides `conditions.healthyFor` for this rule. */
  healthyFor: DurationSchema.optional(),
  /** Overrides `conditions.staleAfter` for this rule. */
  staleAfter: DurationSchema.optional(),
})
export type ConditionRule = z.infer<typeof ConditionRuleSchema>
export type ConditionRuleInput = z.input<typeof ConditionRuleSchema>

const fraction = z.number().min(0).max(1)

export const PolicySchema = z
  .strictObject({
    apiVersion: z.literal('nodewarden.io/v1').default('nodewarden.io/v1'),
    kind: z.literal('Policy').default('Policy'),
    conditionRules: z
      .array(ConditionRuleSchema)
      .min(1, 'at least one condition rule')
      .prefault(DEFAULT_CONDITION_RULES),
    conditions: z
      .strictObject({
        /** A nodewarden taint is removed only after its condition has been healthy this long (no flapping). */
        healthyFor: DurationSchema.prefault('5m'),
        /** A condition whose lastHeartbeatTime is older than this is ignored (its reporter may be gone). */
        staleAfter: DurationSchema.prefault('15m'),
      })
      .prefault({}),
    protection: z
      .strictObject({
        /** Every pod in these namespaces is protected. */
        namespaces: z.array(z.string().min(1)).default([]),
        /** Pods whose labels match any of these selectors are protected. */
        selectors: z.array(LabelSelectorSchema).default([]),
        /** Where the not-evicted-pod and legacy critical-pod annotations count. */
        systemNamespaces: z.array(z.string().min(1)).default(['kube-system']),
      })
      .prefault({}),
    zones: z
      .strictObject({
        nodeEvictionRate: z.number().nonnegative().default(0.1),
        secondaryNodeEvictionRate: z.number().nonnegative().default(0.01),
        largeClusterSizeThreshold: z.number().int().nonnegative().default(50),
        unhealthyZoneThreshold: fraction.default(0.55),
      })
      .prefault({}),
    budgets: z
      .strictObject({
        /** At most this fraction of a zone's nodes may carry nodewarden NoExecute taints or drains at once. */
        maxZoneFraction: fraction.default(0.2),
        /** Global cap of nodewarden NoExecute taints + drains started per rolling hour. */
        perHour: z.number().int().nonnegative().default(10),
      })
      .prefault({}),
    tolerations: z
      .strictObject({
        defaultNotReadySeconds: z.number().int().nonnegative().default(300),
        defaultUnreachableSeconds: z.number().int().nonnegative().default(300),
        /** Emit backfillTolerations decisions for pods missing the default tolerations. */
        backfill: z.boolean().default(false),
      })
      .prefault({}),
    drain: z
      .strictObject({
        /** A drain eviction still blocked (e.g. by a PDB) this long after the drain began hits its deadline. */
        deadline: DurationSchema.prefault('30m'),
        /** What happens at the deadline: alert only (default), or delete the pod bypassing its PDB. */
        onDeadline: z.enum(['alert', 'delete']).default('alert'),
        /** Cap on the pod's terminationGracePeriodSeconds for drain evictions (unset: the pod's own). */
        maxGracePeriodSeconds: z.number().int().nonnegative().optional(),
      })
      .prefault({}),
    audits: z
      .strictObject({
        /** Pods here (and pods with the critical-pod annotation) should run at a system priority. */
        criticalNamespaces: z.array(z.string().min(1)).default(['kube-system']),
        /** A critical pod Pending longer than this is alerted. */
        pendingCriticalAfter: DurationSchema.prefault('5m'),
        /** Kubelet-evicted pods (Failed/Evicted) older than this are reported. */
        evictedPodRetention: DurationSchema.prefault('24h'),
        /** Emit deleteEvictedPod decisions for them. */
        deleteEvictedPods: z.boolean().default(false),
      })
      .prefault({}),
    alerts: z
      .strictObject({
        /** Level-triggered alerts carry endsAt = now + ttl; unless refreshed they resolve then. */
        ttl: DurationSchema.prefault('15m'),
      })
      .prefault({}),
    /**
     * Pressure relief (issue 8; shared/pressure/config.ts): `kubelet` mirrors the nodes' kubelet
     * eviction settings (evictionHard — default the Linux kubelet's memory.available<100Mi,
     * nodefs.available<10%, nodefs.inodesFree<5%, imagefs.available<15%, imagefs.inodesFree<5% —
     * evictionSoft + evictionSoftGracePeriod, evictionMinimumReclaim, evictionPressureTransitionPeriod
     * 5m, enforceNodeAllocatable [pods], kubeReserved/systemReserved for the allocatable audit);
     * `relief` holds nodewarden's earlier thresholds (default memory.available 500Mi,
     * allocatableMemory.available 500Mi, nodefs.available 15%, nodefs.inodesFree 10%,
     * imagefs.available 20%, imagefs.inodesFree 10%, pid.available 10%; each must sit above the
     * kubelet's hard one), `interval` 1m (at most one relief eviction per node per interval),
     * `gracePeriodSeconds`, `layout`, `maxStatsAge` 2m; `collect` paces the watcher's stats
     * collector (`shortInterval` 15s for hot nodes, `slowInterval` 5m, `concurrency` 8,
     * `nearFactor` 2, `timeout` 10s). Thresholds are parsed at load: a malformed one fails here,
     * naming its field (`pressure.kubelet.evictionHard["memory.available"]`).
     */
    pressure: ReliefConfigSchema,
  })
  .superRefine((p, ctx) => {
    const seen = new Map<string, string>()
    p.conditionRules.forEach((r, i) => {
      for (const [what, v] of [
        ['id', r.id],
        ['taint.key', r.taint?.key],
      ] as const) {
        if (v === undefined) continue
        const k = `${what}=${v}`
        if (seen.has(k))
          ctx.addIssue({
            code: 'custom',
            path: ['conditionRules', i, ...what.split('.')],
            message: `duplicate ${what} ${v}`,
          })
        seen.set(k, r.id)
      }
      const afters = r.escalation.map((s) => s.after)
      if (afters.some((a, j) => j > 0 && a <= (afters[j - 1] ?? 0)))
        ctx.addIssue({
          code: 'custom',
          path: ['conditionRules', i, 'escalation'],
          message: 'steps must have increasing `after`',
        })
    })
  })
export type Policy = z.infer<typeof PolicySchema>
export type PolicyInput = z.input<typeof PolicySchema>
