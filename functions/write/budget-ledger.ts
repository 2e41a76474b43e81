import * as z from 'zod'
import type { BudgetClaim } from '../../shared/messages/index.ts'
import { fractionLimit } from '../../shared/policy/zone-brake.ts'

/**
 * Pure budget math over the ledger the writers share (stored in a ConfigMap, updated by CAS):
 * per-zone token buckets refilled at the zone-state rate (upstream's eviction rate limiter,
 * `UPSTREAM.md` §3.4), a fraction guard on the nodes of a zone nodewarden affects at once, and
 * a global budget of node-level actions per rolling hour. Node-level claims (`noExecuteTaint`,
 * `drain`) count once per node; pod-level claims (`evict`, `relief`) are only stopped by a halted
 * zone (decide already paces them, one pod per node per interval).
 */

export const BudgetLimitsSchema = z.object({
  /** Zone token refill in nodes/s when the claim names no rate (upstream `--node-eviction-rate`). */
  normalRatePerSecond: z.number().nonnegative().default(0.1),
  /** Bucket size: how many node-level actions may start at once in a zone. */
  burst: z.number().int().positive().default(1),
  /** At most this fraction of a zone's nodes affected by nodewarden at once (at least one node). */
  maxZoneFraction: z.number().min(0).max(1).default(0.2),
  /** Node-level actions (NoExecute taints, drains) started per rolling hour, all zones (policy `budgets.perHour`). */
  globalPerHour: z.number().int().nonnegative().default(10),
  /** A node counts as affected until nodewarden untaints it, or at most this long. */
  affectedTtlSeconds: z.number().int().positive().default(3600),
})
export type BudgetLimits = z.infer<typeof BudgetLimitsSchema>
export const DEFAULT_BUDGET_LIMITS: BudgetLimits = BudgetLimitsSchema.parse({})

export const LedgerSchema = z.object({
  zones: z.record(z.string(), z.object({ tokens: z.number(), updatedAt: z.string() })).default({}),
  affected: z
    .record(z.string(), z.object({ zone: z.string(), kind: z.string(), since: z.string(), decision: z.string() }))
    .default({}),
  recent: z
    .array(z.object({ decision: z.string(), at: z.string(), kind: z.string(), zone: z.string(), node: z.string() }))
    .default([]),
})
export type Ledger = z.infer<typeof LedgerSchema>
/** budgetLimitsFromPolicy takes the writer's limits from the policy document's `zones` and `budgets`. */
export function budgetLimitsFromPolicy(policy: {
  zones: { nodeEvictionRate: number }
  budgets: { maxZoneFraction: number; perHour: number }
}): BudgetLimits {
  return BudgetLimitsSchema.parse({
    normalRatePerSecond: policy.zones.nodeEvictionRate,
    maxZoneFraction: policy.budgets.maxZoneFraction,
    globalPerHour: policy.budgets.perHour,
  })
}

export const EMPTY_LEDGER: Ledger = { zones: {}, affected: {}, recent: [] }

export type ClaimRequest = BudgetClaim & {
  decisionId: string
  node: string
  /** Nodes in the zone, for the fraction guard; unknown means "one node at a time". */
  zoneNodes?: number
  /** Token refill for this zone's current state (0 halts it); defaults to the normal rate. */
  ratePerSecond?: number
}

export type ClaimVerdict =
  | { granted: true; ledger: Ledger; changed: boolean; reason: string }
  | { granted: false; reason: string; retryAt?: Date }

const HOUR_MS = 3_600_000
const NODE_LEVEL = new Set(['noExecuteTaint', 'drain'])

/** isNodeLevel tells whether a claim counts once per node (taints, drains) rather than per decision. */
export function isNodeLevel(kind: string): boolean {
  return NODE_LEVEL.has(kind)
}

/** pruneLedger drops recent actions older than an hour and affected nodes past their TTL. */
export function pruneLedger(ledger: Ledger, limits: BudgetLimits, now: Date): Ledger {
  const t = now.getTime()
  return {
    zones: ledger.zones,
    affected: Object.fromEntries(
      Object.entries(ledger.affected).filter(([, a]) => t - Date.parse(a.since) < limits.affectedTtlSeconds * 1000),
    ),
    recent: ledger.recent.filter((r) => t - Date.parse(r.at) < HOUR_MS),
  }
}

/** planClaim grants or refuses one claim at `now`, returning the ledger to write back when granted. */
export function planClaim(stored: Ledger, request: ClaimRequest, limits: BudgetLimits, now: Date): ClaimVerdict {
  const ledger = pruneLedger(stored, limits, now)
  const at = now.toISOString()
  if (ledger.recent.some((r) => r.decision === request.decisionId))
    return { granted: true, ledger, changed: false, reason: 'budget already claimed by this decision' }
  const nodeLevel = isNodeLevel(request.kind)
  if (nodeLevel && ledger.affected[request.node])
    return { granted: true, ledger, changed: false, reason: `node ${request.node} already counted` }

  if (!nodeLevel) {
    // Pod-level claims (single evictions, pressure relief) only stop where the zone is halted.
    if (request.ratePerSecond === 0)
      return { granted: false, reason: `zone ${printable(request.zone)} is halted (rate 0)` }
    return { granted: true, ledger, changed: false, reason: 'pod-level action within budget' }
  }
  if (ledger.recent.length + 1 > limits.globalPerHour) {
    const oldest = Math.min(...ledger.recent.map((r) => Date.parse(r.at)))
    return {
      granted: false,
      reason: `global budget spent: ${ledger.recent.length} of ${limits.globalPerHour} actions in the last hour`,
      ...(Number.isFinite(oldest) ? { retryAt: new Date(oldest + HOUR_MS) } : {}),
    }
  }
  const inZone = Object.values(ledger.affected).filter((a) => a.zone === request.zone).length
  const cap = request.zoneNodes === undefined ? 1 : fractionLimit(request.zoneNodes, limits.maxZoneFraction)
  if (inZone + 1 > cap)
    return {
      granted: false,
      reason: `fraction guard: ${inZone} of ${request.zoneNodes ?? '?'} nodes in zone ${printable(request.zone)} already affected (cap ${cap})`,
    }
  const rate = request.ratePerSecond ?? limits.normalRatePerSecond
  // Upstream swaps a zero-rate zone's limiter for one that never fires: saved tokens do not count.
  if (rate <= 0) return { granted: false, reason: `zone ${printable(request.zone)} is halted (rate 0)` }
  const tokens = refill(ledger.zones[request.zone], rate, limits.burst, now)
  if (tokens < 1) {
    const waitMs = Math.ceil(((1 - tokens) / rate) * 1000)
    return {
      granted: false,
      reason: `zone ${printable(request.zone)} rate limit: ${rate}/s, next token in ${Math.ceil(waitMs / 1000)}s`,
      retryAt: new Date(now.getTime() + waitMs),
    }
  }
  const zones = { ...ledger.zones, [request.zone]: { tokens: tokens - 1, updatedAt: at } }
  const affected = {
    ...ledger.affected,
    [request.node]: { zone: request.zone, kind: request.kind, since: at, decision: request.decisionId },
  }
  const recent = [
    ...ledger.recent,
    { decision: request.decisionId, at, kind: request.kind, zone: request.zone, node: request.node },
  ]
  return { granted: true, ledger: { zones, affected, recent }, changed: true, reason: 'budget granted' }
}

/** planRelease refunds a decision's claim (its action did not happen) and/or frees a node from the fraction guard. */
export function planRelease(stored: Ledger, release: { decisionId?: string; node?: string }): Ledger {
  const affected = Object.fromEntries(
    Object.entries(stored.affected).filter(
      ([node, a]) => node !== release.node && (release.decisionId === undefined || a.decision !== release.decisionId),
    ),
  )
  return { ...stored, affected, recent: stored.recent.filter((r) => r.decision !== release.decisionId) }
}

function refill(zone: Ledger['zones'][string] | undefined, rate: number, burst: number, now: Date): number {
  if (!zone) return burst
  const elapsedS = Math.max(0, (now.getTime() - Date.parse(zone.updatedAt)) / 1000)
  return Math.min(burst, zone.tokens + rate * elapsedS)
}

/** Zone keys hold NUL separators (upstream `GetZoneKey`); show them readably. */
function printable(zone: string): string {
  return zone.replaceAll('\u0000', '')
}
