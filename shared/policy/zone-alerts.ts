import type { Policy } from '../config/index.ts'
import type { Alert } from '../messages/index.ts'
import { endsAfter, makeAlert } from './alert-builders.ts'
import type { BrakeCause } from './zone-brake.ts'
import type { ZoneContext } from './zone-context.ts'
import { zoneDisplayName } from './zones.ts'

export type HeldAction = { cause: BrakeCause; reason: string; action: string }

/**
 * zoneBrakeAlert folds every action a brake held back on this node into one alert per zone and
 * cause. Its id depends only on zone and cause, so the views of all the zone's nodes produce the
 * same alert and the alert stage sends one notice, not one per node.
 */
export function zoneBrakeAlert(
  zone: ZoneContext,
  held: readonly HeldAction[],
  policy: Pick<Policy, 'alerts'>,
  now: Date,
): Alert[] {
  const first = held[0]
  if (!first) return []
  const name = zoneDisplayName(zone.zone)
  const scope = first.cause === 'all-zones-down' ? 'cluster' : `zone ${name}`
  return [
    makeAlert({
      kind: 'ZoneBrake',
      subject: {
        kind: first.cause === 'all-zones-down' ? 'Cluster' : 'Zone',
        name: first.cause === 'all-zones-down' ? 'cluster' : name,
        zone: zone.zone,
      },
      key: `${zone.zone}:${first.cause}`,
      status: 'firing',
      severity: first.cause === 'fraction-guard' ? 'warning' : 'critical',
      summary: `brake holds nodewarden back in ${scope}: ${first.reason}`,
      details: {
        state: zone.state,
        ready: zone.ready,
        notReady: zone.notReady,
        total: zone.total,
        heldHere: held.map((h) => h.action),
      },
      startsAt: now.toISOString(),
      endsAt: endsAfter(now, policy.alerts.ttl),
      groupKey: `zone-brake:${zone.zone}`,
    }),
  ]
}
