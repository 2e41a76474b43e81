import type { NodeCondition, ZoneSummary } from '../messages/index.ts'
import { LABEL_REGION, LABEL_REGION_LEGACY, LABEL_ZONE, LABEL_ZONE_LEGACY } from './well-known.ts'

/**
 * Zones as the node lifecycle controller sees them: `GetZoneKey`
 * (component-helpers/node/topology/helpers.go), `ComputeZoneState` and the per-state eviction
 * rate (`setLimiterInZone`, `ReducedQPSFunc`, `HealthyQPSFunc`) in
 * pkg/controller/nodelifecycle/node_lifecycle_controller.go.
 */

export type ZoneState = 'Normal' | 'PartialDisruption' | 'FullDisruption'

export type ZoneRates = {
  /** --node-eviction-rate (nodes/s per zone). */
  nodeEvictionRate: number
  /** --secondary-node-eviction-rate. */
  secondaryNodeEvictionRate: number
  /** --large-cluster-size-threshold: strictly greater ⇒ large. */
  largeClusterSizeThreshold: number
  /** --unhealthy-zone-threshold. */
  unhealthyZoneThreshold: number
}

export const UPSTREAM_ZONE_RATES: ZoneRates = {
  nodeEvictionRate: 0.1,
  secondaryNodeEvictionRate: 0.01,
  largeClusterSizeThreshold: 50,
  unhealthyZoneThreshold: 0.55,
}

/** getZoneKey: legacy failure-domain labels win when present (even empty); `region:\x00:zone`, or "" when both empty. */
export function getZoneKey(labels: Readonly<Record<string, string>>): string {
  const zone = labels[LABEL_ZONE_LEGACY] ?? labels[LABEL_ZONE] ?? ''
  const region = labels[LABEL_REGION_LEGACY] ?? labels[LABEL_REGION] ?? ''
  if (region === '' && zone === '') return ''
  return `${region}:\x00:${zone}`
}

/** zoneDisplayName renders a zone key for humans (`region/zone`, `(no zone)` for ""). */
export function zoneDisplayName(key: string): string {
  return key === '' ? '(no zone)' : key.replace(':\x00:', '/')
}

/** countReady counts Ready=True as ready and everything else (missing, False, Unknown) as not ready. */
export function countReady(readyConditions: readonly (Pick<NodeCondition, 'status'> | undefined)[]): {
  ready: number
  notReady: number
} {
  let ready = 0
  for (const c of readyConditions) if (c?.status === 'True') ready++
  return { ready, notReady: readyConditions.length - ready }
}

/** computeZoneState is upstream ComputeZoneState over counts: Full when none ready, Partial at ≥3 and ≥ threshold. */
export function computeZoneState(
  counts: { ready: number; notReady: number },
  unhealthyZoneThreshold = UPSTREAM_ZONE_RATES.unhealthyZoneThreshold,
): ZoneState {
  const { ready, notReady } = counts
  if (ready === 0 && notReady > 0) return 'FullDisruption'
  // Upstream divides in float32; Math.fround reproduces it at the threshold boundary.
  const ratio = Math.fround(Math.fround(notReady) / Math.fround(ready + notReady))
  if (notReady > 2 && ratio >= Math.fround(unhealthyZoneThreshold)) return 'PartialDisruption'
  return 'Normal'
}

/** allZonesFullyDisrupted is the controller's "master disruption" test (vacuously true with no zones). */
export function allZonesFullyDisrupted(states: readonly ZoneState[]): boolean {
  return states.every((s) => s === 'FullDisruption')
}

/** zoneEvictionRate returns the zone's NoExecute rate (nodes/s) for its state; 0 means no action in that zone. */
export function zoneEvictionRate(
  state: ZoneState,
  zoneSize: number,
  allFullyDisrupted: boolean,
  rates: ZoneRates = UPSTREAM_ZONE_RATES,
): number {
  if (allFullyDisrupted) return 0
  if (state === 'PartialDisruption')
    return zoneSize > rates.largeClusterSizeThreshold ? rates.secondaryNodeEvictionRate : 0
  return rates.nodeEvictionRate
}

/** zoneStateOf turns a zone summary into its upstream state. */
export function zoneStateOf(summary: ZoneSummary, unhealthyZoneThreshold: number): ZoneState {
  return computeZoneState(summary, unhealthyZoneThreshold)
}
