import type { NodeView } from '../messages/index.ts'
import type { ProtectionPolicy } from '../policy/protection.ts'
import type { ReliefConfig } from './config.ts'
import { evaluatePressure, type MetReport, type SignalReport } from './evaluate-pressure.ts'
import { toNodeStats } from './signals.ts'
import { type Summary, SummarySchema } from './summary.ts'

/** What `simulate --stats <dir>` adds per node to its report and JSON (issue 8, item 6). */
export type PressureReport = {
  name: string
  signals: SignalReport[]
  thresholdsMet: MetReport[]
  /** The kubelet's eviction order for `rankedFor` ("ns/name"), first evicted first. */
  ranking: string[]
  rankedFor: string | null
  kubeletVictim: string | null
  reliefCandidate: string | null
  holdBack: string | null
  notes: string[]
}

/**
 * pressureReport evaluates one node from a raw Summary API document (what
 * `kubectl get --raw /api/v1/nodes/<node>/proxy/stats/summary` prints) taken at `now`.
 * Throws a zod error naming the field when the document is not a Summary.
 */
export function pressureReport(
  view: NodeView,
  summary: unknown,
  policy: { pressure: ReliefConfig; protection: ProtectionPolicy },
  now: Date,
): PressureReport {
  const parsed: Summary = SummarySchema.parse(summary)
  const stats = toNodeStats(parsed, now, policy.pressure.relief.layout)
  const e = evaluatePressure({
    view: { ...view, stats },
    pressure: policy.pressure,
    protection: policy.protection,
    now,
  })
  return {
    name: view.node.name,
    signals: e.signals,
    thresholdsMet: [...e.kubeletMet, ...e.reliefMet],
    ranking: e.ranking.map((r) => r.pod),
    rankedFor: e.rankedFor?.signal ?? null,
    kubeletVictim: e.kubeletVictim?.pod ?? null,
    reliefCandidate: e.reliefCandidate?.pod ?? null,
    holdBack: e.holdBack ?? null,
    notes: e.notes,
  }
}
