import type { Policy } from '../config/index.ts'
import type { Alert, AlertSubject } from '../messages/index.ts'
import { alertId, endsAfter, makeAlert } from './alert-builders.ts'
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
  return [
    makeAlert({
      kind: 'ZoneBrake',
      subject: brakeSubject(zone, first.cause),
      key: brakeKey(zone, first.cause),
      status: 'firing',
      severity: first.cause === 'fraction-guard' ? 'warning' : 'critical',
      summary: `brake holds nodewarden back in ${brakeScope(zone, first.cause)}: ${first.reason}`,
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

/**
 * foldIntoZoneBrake marks a node's non-critical alerts with the id of the ZoneBrake alert its zone's
 * state brake (every zone down, or a partially disrupted small zone) raises, while that brake holds.
 * The mark lasts exactly as long as decide sees the brake: once the zone recovers, alerts go out
 * again. Critical alerts are never folded.
 */
export function foldIntoZoneBrake(zone: ZoneContext, alerts: readonly Alert[]): Alert[] {
  const cause: BrakeCause | undefined = zone.allFullyDisrupted
    ? 'all-zones-down'
    : zone.rate === 0
      ? 'partial-disruption'
      : undefined
  if (cause === undefined) return [...alerts]
  const foldInto = alertId('ZoneBrake', brakeSubject(zone, cause), brakeKey(zone, cause))
  return alerts.map((a) =>
    a.kind === 'ZoneBrake' || a.severity === 'critical' || (a.subject.kind !== 'Node' && a.subject.kind !== 'Pod')
      ? a
      : { ...a, foldInto },
  )
}

function brakeSubject(zone: ZoneContext, cause: BrakeCause): AlertSubject {
  return cause === 'all-zones-down'
    ? { kind: 'Cluster', name: 'cluster', zone: zone.zone }
    : { kind: 'Zone', name: zoneDisplayName(zone.zone), zone: zone.zone }
}

function brakeKey(zone: ZoneContext, cause: BrakeCause): string {
  return `${zone.zone}:${cause}`
}

function brakeScope(zone: ZoneContext, cause: BrakeCause): string {
  return cause === 'all-zones-down' ? 'cluster' : `zone ${zoneDisplayName(zone.zone)}`
}
