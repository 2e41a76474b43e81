import { type Alert, AlertSchema, contentId, type Decision, type Severity } from '../../shared/messages/index.ts'
import type { EventSpec } from './cluster.ts'
import { taintLabel } from './plan-taints.ts'

/**
 * Pure rendering of what the writer did (or refused) as the trail operators read: a Kubernetes
 * Event on the node or pod, and an `ActionOutcome` alert. One reason text serves logs, Events
 * and alerts. Names and ids are deterministic, so a redelivered decision leaves one trail.
 */

export type OutcomeStatus = 'applied' | 'blocked' | 'skipped'
export type Outcome = {
  status: OutcomeStatus
  /** Machine-readable cause, e.g. `applied`, `unchanged`, `stale`, `gone`, `budget`, `pdb`, `multiplePdbs`, `invalid`. */
  code: string
  reason: string
  dryRun: boolean
  /** Requeued for a later attempt after this many seconds (blocked by a PDB or a budget). */
  requeueSeconds?: number
  /** Emit the outcome alert (repeated blocks of one decision alert only once). */
  alert: boolean
  severity?: Severity
}

const EVENT_REASONS: Record<Decision['action'], { applied: string; action: string }> = {
  taint: { applied: 'NodewardenTainted', action: 'Taint' },
  untaint: { applied: 'NodewardenUntainted', action: 'Untaint' },
  evict: { applied: 'NodewardenEvicted', action: 'Evict' },
  backfillTolerations: { applied: 'NodewardenTolerationsBackfilled', action: 'BackfillTolerations' },
  deleteEvictedPod: { applied: 'NodewardenEvictedPodDeleted', action: 'DeleteEvictedPod' },
}
const REFUSAL_REASONS: Record<string, string> = {
  pdb: 'NodewardenEvictionBlocked',
  multiplePdbs: 'NodewardenEvictionBlocked',
  deadline: 'NodewardenEvictionBlocked',
  budget: 'NodewardenBudgetExhausted',
  invalid: 'NodewardenRejected',
  stale: 'NodewardenDecisionStale',
  // Another relief eviction on this node within the relief interval made this one stale.
  reliefInterval: 'NodewardenDecisionStale',
}

/** describeAction renders what a decision does, e.g. `taint node node-a with nodewarden.io/x=true:NoExecute`. */
export function describeAction(d: Decision): string {
  switch (d.action) {
    case 'taint':
      return `taint node ${d.target.name} with ${taintLabel(d.taint)}`
    case 'untaint':
      return `remove taint ${d.taint.key}:${d.taint.effect} from node ${d.target.name}`
    case 'evict':
      return `evict pod ${d.target.namespace}/${d.target.name} from node ${d.target.nodeName}`
    case 'backfillTolerations':
      return `add ${d.tolerations.length} toleration(s) to pod ${d.target.namespace}/${d.target.name}`
    case 'deleteEvictedPod':
      return `delete evicted pod ${d.target.namespace}/${d.target.name}`
  }
}

/** renderEvent returns the Event for an applied action or a refusal, or undefined when there is nothing to record on. */
export function renderEvent(d: Decision, outcome: Outcome): EventSpec | undefined {
  const reasons = EVENT_REASONS[d.action]
  const reason = outcome.status === 'applied' ? reasons.applied : REFUSAL_REASONS[outcome.code]
  if (reason === undefined) return undefined
  const t = d.target
  const regarding =
    t.kind === 'Node'
      ? { kind: 'Node' as const, name: t.name, uid: t.uid }
      : { kind: 'Pod' as const, name: t.name, namespace: t.namespace, uid: t.uid }
  const verb = outcome.status === 'applied' ? describeAction(d) : `did not ${describeAction(d)}`
  return {
    name: `${t.name}.${contentId({ decision: d.id, reason }).slice(0, 16)}`,
    // Node events live in `default`, as the kubelet and node controllers record them.
    namespace: t.kind === 'Node' ? 'default' : t.namespace,
    regarding,
    type: outcome.status === 'applied' && d.action !== 'evict' ? 'Normal' : 'Warning',
    reason,
    action: reasons.action,
    note: `${verb}: ${outcome.reason} (rule ${d.ruleId}: ${d.reason}; decision ${d.id})`,
  }
}

/** renderOutcomeAlert returns the `ActionOutcome` alert for a decision's outcome at `now`. */
export function renderOutcomeAlert(d: Decision, outcome: Outcome, now: Date): Alert {
  const t = d.target
  const node = t.kind === 'Node' ? t.name : t.nodeName
  const dry = outcome.dryRun ? '[dry-run] ' : ''
  const summary =
    outcome.status === 'applied'
      ? `${dry ? `${dry}would ` : ''}${describeAction(d)}: ${d.reason}`
      : `${dry}${outcome.status} ${describeAction(d)}: ${outcome.reason}`
  return AlertSchema.parse({
    id: contentId({ kind: 'ActionOutcome', decision: d.id, status: outcome.status }),
    status: 'firing',
    severity: outcome.severity ?? (outcome.status === 'blocked' ? 'warning' : 'info'),
    kind: 'ActionOutcome',
    subject:
      t.kind === 'Node'
        ? { kind: 'Node', name: t.name, node: t.name }
        : { kind: 'Pod', name: t.name, namespace: t.namespace, node: t.nodeName },
    summary,
    details: {
      outcome: outcome.status,
      code: outcome.code,
      reason: outcome.reason,
      action: d.action,
      decisionId: d.id,
      ruleId: d.ruleId,
      decisionReason: d.reason,
      dryRun: outcome.dryRun,
      attempt: d.attempt,
      ...(outcome.requeueSeconds === undefined ? {} : { retryInSeconds: outcome.requeueSeconds }),
      ...(t.kind === 'Pod' && d.action === 'evict' ? { drain: { node, pods: [`${t.namespace}/${t.name}`] } } : {}),
    },
    startsAt: now.toISOString(),
    groupKey: `ActionOutcome:${d.ruleId}:${node}`,
  })
}
