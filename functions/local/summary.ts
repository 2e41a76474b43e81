import type { Policy } from '../../shared/config/index.ts'
import type { NodeView } from '../../shared/messages/index.ts'
import { isProtected } from '../../shared/policy/index.ts'
import { countEvents, type StackCounts, type StackEvent } from './stack-events.ts'

/** What a local run did, from its events and the last view of each node: the end-of-run report. */
export type RunSummary = {
  dryRun: boolean
  taintsApplied: string[]
  taintsRemoved: string[]
  podsEvicted: string[]
  evictionsBlocked: string[]
  podsProtected: { pod: string; reasons: string[] }[]
  alertsByKind: Record<string, number>
  deadLettered: { queue: string; reason: string }[]
  counts: StackCounts
}

/** summarizeRun totals a run: actions by kind (dry-run ones count as "would"), protected pods, alerts by kind, DLQ arrivals. */
export function summarizeRun(
  events: readonly StackEvent[],
  views: Iterable<NodeView>,
  protection: Policy['protection'],
  dryRun: boolean,
): RunSummary {
  const applied = (action: string) =>
    unique(
      events.flatMap((e) =>
        e.kind === 'outcome' && e.action === action && e.status === 'applied' && e.code === 'applied' ? [e.target] : [],
      ),
    )
  const alertsByKind: Record<string, number> = {}
  for (const e of events) if (e.kind === 'alert') alertsByKind[e.alertKind] = (alertsByKind[e.alertKind] ?? 0) + 1
  const podsProtected = [...views].flatMap((view) =>
    view.pods.flatMap((pod) => {
      const reasons = isProtected(pod, protection)
      return reasons.length > 0 ? [{ pod: `${pod.namespace}/${pod.name}`, reasons }] : []
    }),
  )
  return {
    dryRun,
    taintsApplied: applied('taint'),
    taintsRemoved: applied('untaint'),
    podsEvicted: applied('evict'),
    evictionsBlocked: unique(
      events.flatMap((e) => (e.kind === 'outcome' && e.action === 'evict' && e.status === 'blocked' ? [e.target] : [])),
    ),
    podsProtected,
    alertsByKind,
    deadLettered: events.flatMap((e) => (e.kind === 'dlq' ? [{ queue: e.queue, reason: e.reason }] : [])),
    counts: countEvents(events),
  }
}

/** renderSummary renders the summary as the lines `npm start` prints at the end. */
export function renderSummary(s: RunSummary): string[] {
  const list = (items: string[]) => (items.length > 0 ? ` (${items.join(', ')})` : '')
  const kinds = Object.entries(s.alertsByKind)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([kind, n]) => `${kind} ${n}`)
  return [
    s.dryRun ? 'summary (dry run: nothing changed; actions are what would have been applied):' : 'summary:',
    `  nodes tainted     ${s.taintsApplied.length}${list(s.taintsApplied)}`,
    `  taints removed    ${s.taintsRemoved.length}${list(s.taintsRemoved)}`,
    `  pods evicted      ${s.podsEvicted.length}${list(s.podsEvicted)}`,
    `  evictions blocked ${s.evictionsBlocked.length}${list(s.evictionsBlocked)}`,
    `  pods protected    ${s.podsProtected.length} (never evicted: ${protectedReasons(s.podsProtected)})`,
    `  alerts            ${s.counts.alerts}${kinds.length > 0 ? `: ${kinds.join(', ')}` : ''}`,
    `  dead-lettered     ${s.deadLettered.length}${list(s.deadLettered.map((d) => `${d.queue}: ${d.reason}`))}`,
    `  pipeline          ${s.counts.views} views → ${s.counts.decisions} decisions → ${s.counts.applied} applied, ${s.counts.blocked} blocked, ${s.counts.skipped} skipped`,
  ]
}

function protectedReasons(pods: RunSummary['podsProtected']): string {
  const byReason = new Map<string, number>()
  for (const p of pods) {
    const first = p.reasons[0]?.replace(/ \(.*\)$/, '') ?? 'protected'
    byReason.set(first, (byReason.get(first) ?? 0) + 1)
  }
  return [...byReason].map(([reason, n]) => `${n} ${reason}`).join('; ') || 'none'
}

function unique(items: string[]): string[] {
  return [...new Set(items)]
}
