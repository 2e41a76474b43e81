import type { Decision } from '../../shared/messages/index.ts'
import type { ClaimRequest } from './budget-ledger.ts'
import { checkPreconditions } from './check-preconditions.ts'
import type { WriteDeps } from './handle-decision.ts'
import { claimBudget, type LedgerDeps, releaseBudget } from './ledger.ts'
import {
  NODE_TAINTS_ANNOTATION,
  planAddTaint,
  planRemoveTaint,
  planTaintRecords,
  readTaintRecords,
} from './plan-taints.ts'
import type { Outcome } from './render-outcome.ts'
import { NODEWARDEN_TAINT_PREFIX } from './validate-taint.ts'

type NodeDecision = Extract<Decision, { action: 'taint' | 'untaint' }>

/**
 * taint / untaint: read the node, re-check, plan the whole taint list purely, no-op if already
 * so, claim the budget, then write the list with the resourceVersion read. A 409 means the node
 * changed under us: re-read and re-plan, a bounded number of times.
 */
export async function applyNodeDecision(decision: NodeDecision, deps: WriteDeps): Promise<Outcome> {
  const ledger: LedgerDeps = { cluster: deps.cluster, limits: deps.limits, now: deps.now, dryRun: deps.dryRun }
  const { dryRun } = deps
  const { taint, target } = decision
  const recordId = `${taint.key}:${taint.effect}`
  let claimed = false
  const refund = async () => {
    if (claimed) await releaseBudget(ledger, { decisionId: decision.id })
  }
  for (let attempt = 0; attempt <= deps.maxConflictRetries; attempt++) {
    const node = await deps.cluster.readNode(target.name)
    const records = node ? readTaintRecords(node.metadata.annotations) : {}
    if (
      decision.action === 'taint' &&
      node?.metadata.uid === target.uid &&
      records[recordId]?.decision === decision.id &&
      node.spec.taints.some((t) => t.key === taint.key && t.effect === taint.effect)
    )
      return { status: 'applied', code: 'applied', reason: 'already applied by this decision', dryRun, alert: true }
    // An untaint's goal is an absence, which leaves no record: a redelivered untaint finds the taint
    // gone and is done (its taintPresent precondition would otherwise call it stale).
    if (
      decision.action === 'untaint' &&
      node?.metadata.uid === target.uid &&
      !node.spec.taints.some((t) => t.key === taint.key && t.effect === taint.effect)
    ) {
      await refund()
      return {
        status: 'applied',
        code: 'applied',
        reason: `${taint.key}:${taint.effect} already absent`,
        dryRun,
        alert: true,
      }
    }
    const verdict = checkPreconditions(decision, { node })
    if (!verdict.ok || !node) {
      await refund()
      const reason = verdict.ok ? `node ${target.name} does not exist` : verdict.reason
      return { status: 'skipped', code: verdict.ok ? 'gone' : verdict.kind, reason, dryRun, alert: true }
    }
    const now = deps.now()
    const plan =
      decision.action === 'taint'
        ? planAddTaint(node.spec.taints, taint, now)
        : planRemoveTaint(node.spec.taints, taint)
    if (!plan.changed) {
      await refund()
      return { status: 'skipped', code: 'unchanged', reason: plan.reason, dryRun, alert: true }
    }
    if (decision.action === 'taint' && decision.budget && !claimed) {
      const request: ClaimRequest = { ...decision.budget, decisionId: decision.id, node: target.name }
      const grant = await claimBudget(ledger, request)
      if (!grant.granted) return budgetBlocked(decision, grant.reason, grant.retryAt, deps)
      claimed = grant.changed
    }
    const record =
      decision.action === 'taint'
        ? { at: now.toISOString(), rule: decision.ruleId, reason: decision.reason, decision: decision.id }
        : null
    const annotations = { [NODE_TAINTS_ANNOTATION]: planTaintRecords(node.metadata.annotations, taint, record) }
    const result = await deps.cluster.replaceNodeTaints(node, plan.taints, annotations, dryRun)
    if (result.kind === 'conflict') continue
    if (result.kind === 'gone' || result.kind === 'invalid') {
      await refund()
      const reason = result.kind === 'gone' ? `node ${target.name} was deleted` : result.failure.message
      const code = result.kind === 'gone' ? 'gone' : 'invalid'
      return { status: result.kind === 'gone' ? 'skipped' : 'blocked', code, reason, dryRun, alert: true }
    }
    const stillHeld = plan.taints.some((t) => t.effect === 'NoExecute' && t.key.startsWith(NODEWARDEN_TAINT_PREFIX))
    // The fraction guard counts nodes nodewarden affects: an untainted node stops counting.
    if (decision.action === 'untaint' && !stillHeld) await releaseBudget(ledger, { node: target.name })
    return { status: 'applied', code: 'applied', reason: plan.reason, dryRun, alert: true }
  }
  throw new Error(`${decision.action} node ${target.name}: ${deps.maxConflictRetries + 1} conflicting writes in a row`)
}

/** budgetBlocked requeues a decision a budget holds back; only its first refusal alerts. */
export function budgetBlocked(decision: Decision, reason: string, retryAt: Date | undefined, deps: WriteDeps): Outcome {
  const now = deps.now().getTime()
  // A halted zone or a full fraction guard has no refill time: look again in a minute.
  const wait = retryAt ? Math.ceil((retryAt.getTime() - now) / 1000) : 60
  return {
    status: 'blocked',
    code: 'budget',
    reason,
    dryRun: deps.dryRun,
    alert: decision.attempt === 0,
    ...(deps.dryRun ? {} : { requeueSeconds: Math.min(900, Math.max(1, wait)) }),
  }
}
