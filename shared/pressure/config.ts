import * as z from 'zod'
import { DurationSchema } from '../config/duration.ts'
import { ResourceListSchema } from '../messages/index.ts'
import { compareQuantities } from '../policy/quantity.ts'
import { isSignal, type Signal } from './signals.ts'
import {
  DEFAULT_PRESSURE_TRANSITION_MS,
  LINUX_EVICTION_HARD,
  parseThresholdConfig,
  parseThresholdStatement,
  type Threshold,
  ThresholdError,
} from './thresholds.ts'

/**
 * The `pressure` section of the policy document (issue 8). `kubelet` mirrors the nodes' kubelet
 * eviction settings (defaults: the Linux kubelet's); `relief` holds nodewarden's own, earlier
 * thresholds; `collect` paces the stats collector. Thresholds are parsed at load, so a malformed one
 * fails there, naming its field (e.g. `pressure.kubelet.evictionHard["memory.available"]`).
 */

const Statements = z.record(z.string(), z.string())

/** DEFAULT_RELIEF_THRESHOLDS: where nodewarden starts relieving, above the Linux kubelet's hard defaults. */
export const DEFAULT_RELIEF_THRESHOLDS: Readonly<Record<string, string>> = {
  'memory.available': '500Mi',
  'allocatableMemory.available': '500Mi',
  'nodefs.available': '15%',
  'nodefs.inodesFree': '10%',
  'imagefs.available': '20%',
  'imagefs.inodesFree': '10%',
  'pid.available': '10%',
}

const KubeletSchema = z
  .strictObject({
    /** The kubelet's evictionHard; unset = the Linux defaults. Setting it replaces the defaults (as upstream). */
    evictionHard: Statements.optional(),
    /** v1.33+: fill keys missing from evictionHard with the defaults. */
    mergeDefaultEvictionSettings: z.boolean().default(false),
    evictionSoft: Statements.default({}),
    evictionSoftGracePeriod: Statements.default({}),
    evictionMinimumReclaim: Statements.default({}),
    evictionPressureTransitionPeriod: DurationSchema.prefault('5m'),
    enforceNodeAllocatable: z.array(z.string()).default(['pods']),
    /** For the allocatable audit: the kubelet's kube-reserved and system-reserved, when known. */
    kubeReserved: ResourceListSchema.optional(),
    systemReserved: ResourceListSchema.optional(),
  })
  .prefault({})

const ReliefSchema = z
  .strictObject({
    enabled: z.boolean().default(true),
    /** nodewarden's relief thresholds, same syntax as evictionHard; each must sit above the kubelet's hard one. */
    thresholds: Statements.default({ ...DEFAULT_RELIEF_THRESHOLDS }),
    /** At most one relief eviction per node per interval. */
    interval: DurationSchema.prefault('1m'),
    /** Grace period for relief evictions (unset: the pod's own terminationGracePeriodSeconds). */
    gracePeriodSeconds: z.number().int().nonnegative().optional(),
    /** Override the detected filesystem layout for every node. */
    layout: z.enum(['shared', 'dedicatedImageFs', 'splitContainerFs']).optional(),
    /** Stats older than this are ignored: every signal is unknown. */
    maxStatsAge: DurationSchema.prefault('2m'),
  })
  .prefault({})

const CollectSchema = z
  .strictObject({
    /** Nodes under pressure or near a relief threshold are polled this often. */
    shortInterval: DurationSchema.prefault('15s'),
    /** All other nodes are polled this often. */
    slowInterval: DurationSchema.prefault('5m'),
    /** Summary requests in flight at once, cluster-wide. */
    concurrency: z.number().int().min(1).max(64).default(8),
    /** A node is "near" when a signal's available amount is below nearFactor × its relief threshold. */
    nearFactor: z.number().min(1).default(2),
    /** Per-request timeout. */
    timeout: DurationSchema.prefault('10s'),
  })
  .prefault({})

export const ReliefConfigSchema = z
  .strictObject({ kubelet: KubeletSchema, relief: ReliefSchema, collect: CollectSchema })
  .prefault({})
  .transform((c, ctx) => {
    try {
      return { ...c, kubeletThresholds: kubeletThresholds(c.kubelet), reliefThresholds: reliefThresholds(c) }
    } catch (err) {
      if (!(err instanceof ThresholdError)) throw err
      ctx.addIssue({ code: 'custom', path: err.path, message: err.detail })
      return z.NEVER
    }
  })
export type ReliefConfig = z.infer<typeof ReliefConfigSchema>
export type ReliefConfigInput = z.input<typeof ReliefConfigSchema>

function kubeletThresholds(k: z.infer<typeof KubeletSchema>): Threshold[] {
  const hard =
    k.evictionHard === undefined
      ? { ...LINUX_EVICTION_HARD }
      : k.mergeDefaultEvictionSettings
        ? { ...LINUX_EVICTION_HARD, ...k.evictionHard }
        : k.evictionHard
  return parseThresholdConfig({ ...k, evictionHard: hard }, ['kubelet'])
}

function reliefThresholds(c: { kubelet: z.infer<typeof KubeletSchema>; relief: z.infer<typeof ReliefSchema> }) {
  const hard = kubeletThresholds(c.kubelet).filter((t) => t.gracePeriodMs === 0)
  const out: Threshold[] = []
  for (const [signal, text] of Object.entries(c.relief.thresholds)) {
    const path = ['relief', 'thresholds', signal]
    const value = parseThresholdStatement(path, signal, text)
    if (!value) continue
    for (const h of hard.filter((t) => t.signal === signal)) {
      const same =
        'quantity' in value && 'quantity' in h.value
          ? compareQuantities(value.quantity, h.value.quantity) <= 0
          : 'percentage' in value && 'percentage' in h.value && value.percentage <= h.value.percentage
      if (same) throw new ThresholdError(path, `${text} must be above the kubelet's hard threshold ${h.value.text}`)
    }
    out.push({ signal: signal as Signal, value, gracePeriodMs: 0 })
  }
  return out
}

/** DEFAULT_RELIEF_CONFIG is the parsed default section. */
export const DEFAULT_RELIEF_CONFIG: ReliefConfig = ReliefConfigSchema.parse({})

/** pressureTransitionMs reads the kubelet's pressure transition period (default 5m). */
export function pressureTransitionMs(c: ReliefConfig): number {
  return c.kubelet.evictionPressureTransitionPeriod ?? DEFAULT_PRESSURE_TRANSITION_MS
}

/** isReliefSignal reports whether a relief threshold exists for the signal. */
export function isReliefSignal(c: ReliefConfig, signal: string): boolean {
  return isSignal(signal) && c.reliefThresholds.some((t) => t.signal === signal)
}
