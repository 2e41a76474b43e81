import type { SlimNode, ZoneSummary } from '../../shared/messages/index.ts'
import { affectedByNodewarden, LABEL_EXCLUDE_DISRUPTION } from '../../shared/policy/well-known.ts'
import { getZoneKey } from '../../shared/policy/zones.ts'

/** Where a node counts in the zone summaries; undefined when it is left out (exclude-disruption label). */
export type ZoneMembership = { zone: string; ready: boolean; affected: boolean } | undefined

/**
 * zoneMembershipOf places a node as the node lifecycle controller does: `GetZoneKey`, Ready=True
 * counts as ready and anything else (missing, False, Unknown) as not ready, and nodes labelled
 * `node.kubernetes.io/exclude-disruption` are left out (ComputeZoneState, UPSTREAM.md §3.4); a node
 * carrying a nodewarden NoExecute taint counts as affected (the zone fraction guard).
 */
export function zoneMembershipOf(node: SlimNode): ZoneMembership {
  if (node.labels[LABEL_EXCLUDE_DISRUPTION] !== undefined) return undefined
  const ready = node.conditions.find((c) => c.type === 'Ready')?.status === 'True'
  return { zone: getZoneKey(node.labels), ready, affected: affectedByNodewarden(node.taints) }
}

/** ZoneCounts keeps ready / notReady / affected per zone incrementally, so a view never scans every node. */
export class ZoneCounts {
  private readonly counts = new Map<string, { ready: number; notReady: number; affected: number }>()

  /** move takes a node out of its old place and into its new one (either may be undefined). */
  move(before: ZoneMembership, after: ZoneMembership): void {
    if (before?.zone === after?.zone && before?.ready === after?.ready && before?.affected === after?.affected) return
    if (before) this.add(before, -1)
    if (after) this.add(after, 1)
  }

  /** summaries lists every zone that has nodes, sorted by key. */
  summaries(): ZoneSummary[] {
    return [...this.counts.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([zone, c]) => ({
        zone,
        ready: c.ready,
        notReady: c.notReady,
        total: c.ready + c.notReady,
        affected: c.affected,
      }))
  }

  private add(member: NonNullable<ZoneMembership>, delta: number): void {
    const c = this.counts.get(member.zone) ?? { ready: 0, notReady: 0, affected: 0 }
    if (member.ready) c.ready += delta
    else c.notReady += delta
    if (member.affected) c.affected += delta
    // Upstream forgets zones that no longer have nodes.
    if (c.ready + c.notReady <= 0) this.counts.delete(member.zone)
    else this.counts.set(member.zone, c)
  }
}
