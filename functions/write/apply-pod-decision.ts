import type { ApiFailure } from '../../shared/kube/api-failure.ts'
import type { Decision } from '../../shared/messages/index.ts'
import { budgetBlocked } from './apply-node-decision.ts'
import { checkPreconditions, needsNode } from './check-preconditions.ts'
import type { WriteResult } from './cluster.ts'
import type { WriteDeps } from './handle-decision.ts'
import { claimBudget, type LedgerDeps, releaseBudget } from './ledger.ts'
import type { LivePod } from './live-objects.ts'
import { planAddTolerations } from './plan-tolerations.ts'
import type { Outcome } from './render-outcome.ts'
import { isReliefEviction, reliefWindowConflict, stampLastRelief } from './stamp-relief.ts'

type PodDecision = Extract<Decision, { action: 'evict' | 'backfillTolerations' | 'deleteEvictedPod' }>

/**
 * evict / backfillTolerations / deleteEvictedPod: read the pod (and its node when a precondition
 * needs it), re-check, claim the budget, act. A 409 (uid precondition or stale resourceVersion)
 * means re-read: a different pod under the same name is done, not evicted.
 */
export async function applyPodDecision(decision: PodDecision, deps: WriteDeps): Promise<Outcome> {
  const ledger: LedgerDeps = { cluster: deps.cluster, limits: deps.limits, now: deps.now, dryRun: deps.dryRun }
  const { dryRun } = deps
  const t = decision.target
  let claimed = false
  const refund = async () => {
    if (claimed) await releaseBudget(ledger, { decisionId: decision.id })
  }
  for (let attempt = 0; attempt <= deps.maxConflictRetries; attempt++) {
    const pod = await deps.cluster.readPod(t.namespace, t.name)
    const node = needsNode(decision) ? await deps.cluster.readNode(t.nodeName) : undefined
    const verdict = checkPreconditions(decision, { pod, ...(node === undefined ? {} : { node }) })
    if (!verdict.ok || !pod) {
      await refund()
      // For an eviction or a delete, a pod that is gone (or replaced) means the work is done.
      const reason = verdict.ok ? `pod ${t.namespace}/${t.name} does not exist` : verdict.reason
      return { status: 'skipped', code: verdict.ok ? 'gone' : verdict.kind, reason, dryRun, alert: true }
    }
    if (decision.action === 'evict' && pod.metadata.deletionTimestamp) {
      // A redelivery after the eviction: make sure its relief stamp is there too (idempotent).
      if (isReliefEviction(decision)) await stampLastRelief(decision, deps)
      return { status: 'applied', code: 'terminating', reason: 'pod is already terminating', dryRun, alert: true }
    }
    if (isReliefEviction(decision)) {
      const live = node === undefined ? await deps.cluster.readNode(t.nodeName) : node
      const conflict = reliefWindowConflict(decision, live, deps.now())
      if (conflict) {
        await refund()
        return { status: 'skipped', code: 'reliefInterval', reason: conflict, dryRun, alert: true }
      }
    }
    if (decision.budget && !claimed) {
      const grant = await claimBudget(ledger, { ...decision.budget, decisionId: decision.id, node: t.nodeName })
      if (!grant.granted) return budgetBlocked(decision, grant.reason, grant.retryAt, deps)
      claimed = grant.changed
    }
    const outcome = await act(decision, pod, deps)
    if (outcome === 'conflict') continue
    if (outcome.status === 'applied' && isReliefEviction(decision)) await stampLastRelief(decision, deps)
    if (outcome.status !== 'applied' && outcome.code !== 'pdb') await refund()
    return outcome
  }
  throw new Error(
    `${decision.action} pod ${t.namespace}/${t.name}: ${deps.maxConflictRetries + 1} conflicting writes in a row`,
  )
}

async function act(decision: PodDecision, pod: LivePod, deps: WriteDeps): Promise<Outcome | 'conflict'> {
  const { dryRun } = deps
  const ref = `${pod.metadata.namespace}/${pod.metadata.name}`
  if (decision.action === 'evict') {
    const result = await deps.cluster.evictPod(pod, {
      dryRun,
      ...(decision.gracePeriodSeconds === undefined ? {} : { gracePeriodSeconds: decision.gracePeriodSeconds }),
    })
    switch (result.kind) {
      case 'conflict':
        return 'conflict'
      case 'evicted':
        return {
          status: 'applied',
          code: 'applied',
          reason: `pod ${ref} evicted through the Eviction API`,
          dryRun,
          alert: true,
        }
      case 'gone':
        return { status: 'skipped', code: 'gone', reason: `pod ${ref} no longer exists`, dryRun, alert: true }
      case 'multiplePdbs':
        // The Eviction API cannot resolve this; retrying would only repeat the 500. Tell people once.
        return {
          status: 'blocked',
          code: 'multiplePdbs',
          reason: failureText(result.failure),
          dryRun,
          alert: true,
          severity: 'critical',
        }
      case 'blocked':
        if (decision.onDeadline === 'delete' && pastDeadline(decision, deps.now())) {
          return forceDelete(decision, pod, result.failure, deps)
        }
        return pdbBlocked(decision, result.failure, deps)
    }
  }
  if (decision.action === 'backfillTolerations') {
    const plan = planAddTolerations(pod.spec.tolerations, decision.tolerations)
    if (!plan.changed) return { status: 'skipped', code: 'unchanged', reason: plan.reason, dryRun, alert: true }
    const reason = `added ${plan.added.map((a) => `${a.key ?? '*'}:${a.effect ?? '*'}`).join(', ')}`
    return fromWrite(await deps.cluster.addPodTolerations(pod, plan.tolerations, dryRun), reason, ref, dryRun)
  }
  return fromWrite(await deps.cluster.deletePod(pod, dryRun), `evicted pod ${ref} deleted`, ref, dryRun)
}

function fromWrite(result: WriteResult, reason: string, ref: string, dryRun: boolean): Outcome | 'conflict' {
  switch (result.kind) {
    case 'conflict':
      return 'conflict'
    case 'written':
      return { status: 'applied', code: 'applied', reason, dryRun, alert: true }
    case 'gone':
      return { status: 'skipped', code: 'gone', reason: `pod ${ref} no longer exists`, dryRun, alert: true }
    case 'invalid':
      // 422 is the API server's final word on this change: permanent, with its reason.
      return { status: 'blocked', code: 'invalid', reason: failureText(result.failure), dryRun, alert: true }
  }
}

/** pastDeadline: a drain eviction whose deadline has come. */
function pastDeadline(decision: PodDecision, now: Date): boolean {
  return (
    decision.action === 'evict' && decision.deadline !== undefined && Date.parse(decision.deadline) <= now.getTime()
  )
}

/**
 * forceDelete deletes a pod a PDB still protects past its drain deadline, with the pod's uid as a
 * precondition and the drain's grace period: only for decisions whose policy said `onDeadline: delete`.
 */
async function forceDelete(
  decision: Extract<PodDecision, { action: 'evict' }>,
  pod: LivePod,
  failure: ApiFailure,
  deps: WriteDeps,
): Promise<Outcome | 'conflict'> {
  const ref = `${pod.metadata.namespace}/${pod.metadata.name}`
  const reason = `pod ${ref} deleted: drain deadline ${decision.deadline} passed and onDeadline is delete, bypassing ${failureText(failure)}`
  const outcome = fromWrite(
    await deps.cluster.deletePod(pod, deps.dryRun, decision.gracePeriodSeconds),
    reason,
    ref,
    deps.dryRun,
  )
  return outcome === 'conflict' ? outcome : { ...outcome, severity: 'warning' }
}

function pdbBlocked(decision: PodDecision, failure: ApiFailure, deps: WriteDeps): Outcome {
  const reason = failureText(failure)
  const deadlinePassed = pastDeadline(decision, deps.now())
  if (deadlinePassed || decision.attempt + 1 >= deps.maxBlockedAttempts) {
    const why = deadlinePassed
      ? `drain deadline ${(decision as { deadline?: string }).deadline} passed`
      : `${decision.attempt + 1} attempts`
    return {
      status: 'blocked',
      code: 'deadline',
      reason: `${reason}; ${why}, not forcing`,
      dryRun: deps.dryRun,
      alert: true,
    }
  }
  // Back off exponentially from 10 s (honouring the server's Retry-After), capped at SQS's 900 s delay.
  const backoff = Math.min(900, Math.max(failure.retryAfterSeconds ?? 0, 10 * 2 ** decision.attempt))
  return {
    status: 'blocked',
    code: 'pdb',
    reason,
    dryRun: deps.dryRun,
    alert: decision.attempt === 0,
    ...(deps.dryRun ? {} : { requeueSeconds: backoff }),
  }
}

function failureText(failure: ApiFailure): string {
  return [failure.message, ...failure.causes].join(': ')
}
