import type { SlimNode, ZoneSummary } from '../../shared/messages/index.ts'
import { LABEL_EXCLUDE_DISRUPTION } from '../../shared/policy/well-known.ts'
import { getZoneKey } from '../../shared/policy/zones.ts'

/** Where a node counts in the zone summaries; undefined when it is left out (exclude-disruption label). */
export type ZoneMembership = { zone: string; ready: boolean } | undefined

/**
 * zoneMembershipOf places a node as the node lifecycle controller does: `GetZoneKey`, Ready=True
 * counts as ready and anything else (missing, False, Unknown) as not ready, and nodes labelled
 * `node.kubernetes.io/exclude-disruption` are left out (ComputeZoneState, UPSTREAM.md §3.4).
 */
export function zoneMembershipOf(node: SlimNode): ZoneMembership {
  if (node.labels[LABEL_EXCLUDE_DISRUPTION] !== undefined) return undefined
  const ready = node.conditions.find((c) => c.type === 'Ready')?.status === 'True'
  return { zone: getZoneKey(node.labels), ready }
}

/** ZoneCounts keeps ready / notReady per zone incrementally, so a view never scans every node. */
export class ZoneCounts {
  private readonly counts = new Map<string, { ready: number; notReady: number }>()

  /** move takes a node out of its old place and into its new one (either may be undefined). */
  move(before: ZoneMembership, after: ZoneMembership): void {
    if (before?.zone === after?.zone && before?.ready === after?.ready) return
    if (before) this.add(before, -1)
    if (after) this.add(after, 1)
  }

  /** summaries lists every zone that has nodes, sorted by key. */
  summaries(): ZoneSummary[] {
    return [...this.counts.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([zone, c]) => ({ zone, ready: c.ready, notReady: c.notReady, total: c.ready + c.notReady }))
  }

  private add(member: NonNullable<ZoneMembership>, delta: number): void {
    const c = this.counts.get(member.zone) ?? { ready: 0, notReady: 0 }
    if (member.ready) c.ready += delta
    else c.notReady += delta
    // Upstream forgets zones that no longer have nodes.
    if (c.ready + c.notReady <= 0) this.counts.delete(member.zone)
    else this.counts.set(member.zone, c)
  }
}
