import type { Policy } from '../config/index.ts'
import type { NodeView } from '../messages/index.ts'
import { allZonesFullyDisrupted, getZoneKey, type ZoneState, zoneEvictionRate, zoneStateOf } from './zones.ts'

/** ZoneContext: what the brakes need to know about the node's zone and the whole cluster. */
export type ZoneContext = {
  zone: string
  state: ZoneState
  ready: number
  notReady: number
  total: number
  affected: number | undefined
  allFullyDisrupted: boolean
  /** Upstream NoExecute rate for this zone's state (nodes/s); 0 halts the zone. */
  rate: number
}

/**
 * zoneContextOf reads the node's zone from the view's zone summaries (computed by the watcher
 * over the whole cluster). A zone the view does not summarise counts as Normal with unknown size.
 */
export function zoneContextOf(view: Pick<NodeView, 'node' | 'zones'>, policy: Pick<Policy, 'zones'>): ZoneContext {
  const zone = getZoneKey(view.node.labels)
  const summary = view.zones.find((z) => z.zone === zone) ?? { zone, ready: 0, notReady: 0, total: 0 }
  const threshold = policy.zones.unhealthyZoneThreshold
  const state = zoneStateOf(summary, threshold)
  const allFullyDisrupted =
    view.zones.length > 0 && allZonesFullyDisrupted(view.zones.map((z) => zoneStateOf(z, threshold)))
  const rate = zoneEvictionRate(state, summary.total, allFullyDisrupted, policy.zones)
  return { ...summary, affected: summary.affected, state, allFullyDisrupted, rate }
}
