import type { Policy } from '../config/index.ts'
import type { BudgetClaim } from '../messages/index.ts'
import type { ZoneContext } from './zone-context.ts'
import { zoneDisplayName } from './zones.ts'

/**
 * Zone brakes for nodewarden's own NoExecute taints and drains (DESIGN §6.5): the upstream zone
 * rate (0 in a partially disrupted small zone; 0 everywhere when every zone is fully disrupted),
 * then the fraction guard when the view says how many nodes nodewarden already affects. The
 * writer enforces the rate, the fraction guard and the per-hour budget again on its ledger.
 */

export type BrakeCause = 'all-zones-down' | 'partial-disruption' | 'fraction-guard'
export type Brake = { held: false; budget: BudgetClaim } | { held: true; cause: BrakeCause; reason: string }

/**
 * fractionLimit is the number of zone nodes nodewarden may affect at once: the fraction rounded
 * down (never above it), but at least one so a small zone can still be repaired. The writer's
 * ledger enforces the same number.
 */
export function fractionLimit(total: number, maxZoneFraction: number): number {
  return Math.max(1, Math.floor(total * maxZoneFraction))
}

/** decideBrake says whether a `kind` action may go ahead in this zone now, and with which budget claim. */
export function decideBrake(
  zone: ZoneContext,
  kind: BudgetClaim['kind'],
  policy: Pick<Policy, 'budgets'>,
  selfAffected = false,
): Brake {
  const name = zoneDisplayName(zone.zone)
  if (zone.allFullyDisrupted)
    return {
      held: true,
      cause: 'all-zones-down',
      reason: 'every zone is fully disrupted (no Ready node anywhere): all NoExecute and drain actions halt',
    }
  if (zone.rate === 0)
    return {
      held: true,
      cause: 'partial-disruption',
      reason: `zone ${name} is in PartialDisruption (${zone.notReady} of ${zone.notReady + zone.ready} nodes not Ready) with ${zone.total} nodes, not above the large-cluster threshold: rate 0`,
    }
  const limit = fractionLimit(zone.total, policy.budgets.maxZoneFraction)
  // A node already counted as affected (its drain is under way) does not count against itself.
  const others = zone.affected === undefined ? undefined : zone.affected - (selfAffected ? 1 : 0)
  if (others !== undefined && others >= limit)
    return {
      held: true,
      cause: 'fraction-guard',
      reason: `zone ${name} already has ${others} of ${zone.total} nodes affected by nodewarden; the ${policy.budgets.maxZoneFraction * 100}% guard allows ${limit}`,
    }
  return { held: false, budget: budgetClaim(zone, kind) }
}

/** budgetClaim is the claim a `kind` action draws from the zone's budget at the writer. */
export function budgetClaim(zone: ZoneContext, kind: BudgetClaim['kind']): BudgetClaim {
  return { kind, zone: zone.zone, zoneNodes: zone.total, ratePerSecond: zone.rate }
}
