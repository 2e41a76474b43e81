import type { Alert, Decision, NodeView } from '../messages/index.ts'
import { endsAfter, makeAlert, nodeSubject } from '../policy/alert-builders.ts'
import { makeDecision, podTarget } from '../policy/decision-builders.ts'
import type { ProtectionPolicy } from '../policy/protection.ts'
import { getZoneKey } from '../policy/zones.ts'
import { auditAllocatable } from './allocatable.ts'
import type { ReliefConfig } from './config.ts'
import { evaluatePressure, type MetReport, type PressureEvaluation, type RankEntry } from './evaluate-pressure.ts'
import { RANK_ORDER_TEXT } from './rank.ts'

/**
 * decideRelief turns a pressure evaluation into at most one `evict` decision per node (the top-ranked
 * unprotected pod, through the Eviction API so PDBs hold) and level alerts: PressureRelief while a
 * relief threshold is met, ProtectedPodAtRisk when the kubelet's own next victim is protected, and
 * AllocatableMisconfigured from the allocatable audit.
 *
 * One per node per interval, statelessly: (1) no decision while any pod on the node is terminating
 * (its resources are not reclaimed yet — the kubelet waits the same way after an eviction); (2) none
 * while the node's `nodewarden.io/last-relief` annotation is younger than `relief.interval`; (3) the
 * decision id is anchored to the interval bucket, so re-deciding the same pod within it is a duplicate.
 */

export type PressurePolicy = { pressure: ReliefConfig; protection: ProtectionPolicy; alerts: { ttl: number } }
export type ReliefOutcome = { decisions: Decision[]; alerts: Alert[]; evaluation: PressureEvaluation }

export const RELIEF_RULE_ID = 'pressure-relief'

const mib = (n: number) => (Math.abs(n) >= 2 ** 20 ? `${(n / 2 ** 20).toFixed(1)}Mi` : `${n}`)
const amount = (signal: string, n: number) => (signal.includes('inodes') || signal.startsWith('pid') ? `${n}` : mib(n))
const ordinal = (n: number) =>
  `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`

/** describeMet renders `nodefs.available 9.0Gi < relief threshold 15% (15.0Gi)`. */
export function describeMet(m: MetReport): string {
  return `${m.signal} ${amount(m.signal, m.available)} < ${m.kind} threshold ${m.threshold} (${amount(m.signal, m.quantity)})`
}

function describeCandidate(c: RankEntry, e: PressureEvaluation): string {
  const rank = e.rankedFor?.rank ?? 'memory'
  const usage = !c.hasStats
    ? 'no stats reported for it'
    : rank === 'pid'
      ? `${c.usage} processes`
      : `usage ${mib(c.usage)} vs request ${mib(c.request)}${c.exceedsRequests ? ' (above requests)' : ''}`
  const skipped = e.ranking.filter((r) => r.position < c.position)
  const skippedText =
    skipped.length === 0
      ? ''
      : `; skipped ${skipped.map((s) => `${s.pod} (${s.critical ? 'critical' : s.terminating ? 'terminating' : s.protectedBy.join(', ')})`).join('; ')}`
  return `${c.pod}, ranked ${ordinal(c.position)} of ${e.ranking.length} by the kubelet's ${rank} ranking (${RANK_ORDER_TEXT[rank]}): priority ${c.priority}, ${c.qosClass}, ${usage}${skippedText}`
}

/** decideRelief proposes the relief eviction and alerts for one NodeView at `now`. */
export function decideRelief(view: NodeView, policy: PressurePolicy, now: Date): ReliefOutcome {
  const evaluation = evaluatePressure({ view, pressure: policy.pressure, protection: policy.protection, now })
  const zone = getZoneKey(view.node.labels)
  const subject = nodeSubject(view.node, zone)
  const endsAt = endsAfter(now, policy.alerts.ttl)
  const alerts: Alert[] = []
  const decisions: Decision[] = []
  const driving = evaluation.reliefMet.find((m) => m.signal === evaluation.rankedFor?.signal)
  const candidate = evaluation.reliefCandidate

  if (driving) {
    const hard = evaluation.kubeletMet.filter((m) => m.kind === 'hard')
    const action = evaluation.holdBack
      ? `holding back: ${evaluation.holdBack}`
      : candidate
        ? `evicting ${candidate.pod}`
        : 'no unprotected pod left to evict'
    alerts.push(
      makeAlert({
        kind: 'PressureRelief',
        subject,
        key: 'relief',
        status: 'firing',
        severity: hard.length > 0 ? 'critical' : 'warning',
        summary: `${view.node.name}: ${describeMet(driving)}; ${action}`,
        details: {
          reliefMet: evaluation.reliefMet,
          kubeletMet: evaluation.kubeletMet,
          candidate: candidate?.pod ?? null,
          holdBack: evaluation.holdBack ?? null,
          notes: evaluation.notes,
        },
        startsAt: now.toISOString(),
        endsAt,
        groupKey: `PressureRelief/${zone}`,
      }),
    )
  }
  if (driving && candidate && !evaluation.holdBack) {
    const bucket = Math.floor(now.getTime() / policy.pressure.relief.interval)
    const kubeletHard = evaluation.kubeletMet.find((m) => m.signal === driving.signal && m.kind === 'hard')
    const reason = [
      `${describeMet(driving)}${kubeletHard ? `; the kubelet's hard threshold ${kubeletHard.threshold} is met too` : ''}`,
      `evict ${describeCandidate(candidate, evaluation)}`,
      ...evaluation.notes,
    ].join('. ')
    const pod = view.pods.find((p) => p.uid === candidate.uid)
    if (pod) {
      decisions.push(
        makeDecision(
          {
            action: 'evict',
            target: podTarget(pod, view.node.name),
            ...(policy.pressure.relief.gracePeriodSeconds === undefined
              ? {}
              : { gracePeriodSeconds: policy.pressure.relief.gracePeriodSeconds }),
          },
          {
            ruleId: RELIEF_RULE_ID,
            reason,
            evidence: {
              signal: driving.signal,
              available: driving.available,
              reliefThreshold: driving.threshold,
              reliefQuantity: driving.quantity,
              kubeletHardMet: kubeletHard !== undefined,
              rank: candidate.position,
              rankedPods: evaluation.ranking.length,
              ranking: evaluation.rankedFor?.rank ?? null,
              usage: candidate.usage,
              request: candidate.request,
              priority: candidate.priority,
              hasStats: candidate.hasStats,
              statsObservedAt: evaluation.statsObservedAt ?? null,
              // The writer re-checks the node's last-relief stamp against it (one pod per node per interval).
              reliefIntervalSeconds: Math.round(policy.pressure.relief.interval / 1000),
            },
            preconditions: [
              { type: 'nodeUid', uid: view.node.uid },
              { type: 'podOnNode', podUid: pod.uid, nodeName: view.node.name },
              { type: 'podPhase', phases: ['Pending', 'Running'] },
            ],
            budget: { kind: 'relief', zone },
          },
          { node: view.node.uid, bucket },
          now,
        ),
      )
    }
  }
  const victim = evaluation.kubeletVictim
  if (driving && victim && victim.protectedBy.length > 0) {
    const [namespace = '', name = ''] = victim.pod.split('/')
    alerts.push(
      makeAlert({
        kind: 'ProtectedPodAtRisk',
        subject: { kind: 'Pod', namespace, name, node: view.node.name, zone, nodeLabels: view.node.labels },
        key: driving.signal,
        status: 'firing',
        severity: 'warning',
        summary: `the kubelet's next ${driving.signal} eviction on ${view.node.name} would pick ${victim.pod}, protected (${victim.protectedBy.join(', ')})`,
        details: {
          signal: driving.signal,
          position: victim.position,
          protectedBy: victim.protectedBy,
          priority: victim.priority,
        },
        startsAt: now.toISOString(),
        endsAt,
        groupKey: `ProtectedPodAtRisk/${zone}`,
      }),
    )
  }
  for (const f of auditAllocatable(view.node, policy.pressure.kubeletThresholds, policy.pressure.kubelet)) {
    alerts.push(
      makeAlert({
        kind: 'AllocatableMisconfigured',
        subject,
        key: `${f.resource}/${f.problem}`,
        status: 'firing',
        severity: f.problem === 'noReservation' ? 'info' : 'warning',
        summary: `${view.node.name}: ${f.message}`,
        details: { ...f },
        startsAt: now.toISOString(),
        endsAt,
        groupKey: 'AllocatableMisconfigured',
      }),
    )
  }
  return { decisions, alerts, evaluation }
}
