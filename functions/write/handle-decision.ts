import type { Log } from '../../shared/log.ts'
import { type Alert, type Decision, MessageError } from '../../shared/messages/index.ts'
import { delaySecondsUntil } from '../../shared/sqs/batches.ts'
import { applyNodeDecision } from './apply-node-decision.ts'
import { applyPodDecision } from './apply-pod-decision.ts'
import type { BudgetLimits } from './budget-ledger.ts'
import type { Cluster } from './cluster.ts'
import { type Outcome, renderEvent, renderOutcomeAlert } from './render-outcome.ts'
import { taintProblem } from './validate-taint.ts'

/**
 * One decision, start to finish: wait for `notBefore`, re-check on live state, claim the budget,
 * apply (server-side dry-run unless applying), then leave the trail: Event, outcome alert, log.
 * Everything here is idempotent under SQS redelivery: Event names and alert ids are deterministic,
 * and a re-read shows what an earlier delivery already did.
 */

export type WriteDeps = {
  cluster: Cluster
  now: () => Date
  /** Server-side `dryRun=All` on every write; Events are logged instead of created. */
  dryRun: boolean
  limits: BudgetLimits
  /** Send the decision back to the decisions queue, due in `delaySeconds` (≤ 900). */
  requeue: (decision: Decision, delaySeconds: number) => Promise<void>
  sendAlert: (alert: Alert) => Promise<void>
  log: Log
  /** Re-read and re-plan this many times on 409 before leaving it to SQS redelivery. */
  maxConflictRetries: number
  /** A PDB-blocked eviction is retried this many times (or until its deadline), then alerted and dropped. */
  maxBlockedAttempts: number
}

export type HandleResult = Outcome | { status: 'deferred'; delaySeconds: number; reason: string }

/** handleDecision applies one decision to the cluster and records what happened. */
export async function handleDecision(decision: Decision, deps: WriteDeps): Promise<HandleResult> {
  const now = deps.now()
  const fields = {
    decisionId: decision.id,
    action: decision.action,
    target: decision.target.name,
    ruleId: decision.ruleId,
  }
  if (decision.notBefore && Date.parse(decision.notBefore) > now.getTime()) {
    // SQS delays top out at 900 s: a longer wait comes back early and is re-enqueued for the rest.
    const delaySeconds = delaySecondsUntil(new Date(decision.notBefore), now)
    await deps.requeue(decision, delaySeconds)
    const reason = `not before ${decision.notBefore}`
    deps.log.info('decision deferred', { ...fields, delaySeconds, notBefore: decision.notBefore })
    return { status: 'deferred', delaySeconds, reason }
  }
  if (decision.action === 'taint' || decision.action === 'untaint') {
    const problem = taintProblem(decision.taint)
    if (problem) throw new MessageError(`decision ${decision.id}: ${problem}`, ['data.taint'])
  }
  const outcome =
    decision.action === 'taint' || decision.action === 'untaint'
      ? await applyNodeDecision(decision, deps)
      : await applyPodDecision(decision, deps)
  await recordTrail(decision, outcome, deps)
  if (outcome.requeueSeconds !== undefined)
    await deps.requeue({ ...decision, attempt: decision.attempt + 1 }, outcome.requeueSeconds)
  const report = {
    ...fields,
    code: outcome.code,
    reason: outcome.reason,
    dryRun: outcome.dryRun,
    attempt: decision.attempt,
    ...(outcome.requeueSeconds === undefined ? {} : { requeueSeconds: outcome.requeueSeconds }),
  }
  if (outcome.status === 'blocked') deps.log.warn(`decision ${outcome.status}`, report)
  else deps.log.info(`decision ${outcome.status}`, report)
  return outcome
}

async function recordTrail(decision: Decision, outcome: Outcome, deps: WriteDeps): Promise<void> {
  const now = deps.now()
  const event = renderEvent(decision, outcome)
  if (event && deps.dryRun) deps.log.info('event would be recorded', { ...event, regarding: event.regarding.name })
  // Not best-effort: a failed Event fails the record, and the redelivery re-records it under the same name.
  else if (event) await deps.cluster.recordEvent(event, now)
  if (outcome.alert) await deps.sendAlert(renderOutcomeAlert(decision, outcome, now))
}
