import {
  type BudgetLimits,
  type ClaimRequest,
  type ClaimVerdict,
  type Ledger,
  planClaim,
  planRelease,
} from './budget-ledger.ts'
import type { Cluster } from './cluster.ts'

/**
 * The ledger's read-plan-CAS loop. Concurrent writers race on one ConfigMap; a 409 means another
 * writer changed it first, so re-read and re-plan from what it wrote. Bounded: a writer that
 * keeps losing throws, and SQS redelivers its decision later.
 */

const MAX_LEDGER_RETRIES = 20

export type LedgerDeps = { cluster: Cluster; limits: BudgetLimits; now: () => Date; dryRun: boolean }

/** claimBudget grants or refuses a claim, persisting a grant with compare-and-swap on the ledger's resourceVersion. */
export async function claimBudget(deps: LedgerDeps, request: ClaimRequest): Promise<ClaimVerdict> {
  for (let attempt = 0; attempt < MAX_LEDGER_RETRIES; attempt++) {
    const stored = await deps.cluster.readLedger()
    const verdict = planClaim(stored.ledger, request, deps.limits, deps.now())
    if (!verdict.granted || !verdict.changed) return verdict
    if ((await deps.cluster.writeLedger(verdict.ledger, stored.resourceVersion, deps.dryRun)) === 'written')
      return verdict
  }
  throw new Error(`budget ledger: ${MAX_LEDGER_RETRIES} conflicting writes in a row claiming for ${request.decisionId}`)
}

/** releaseBudget refunds a decision's claim and/or frees a node from the fraction guard, by CAS; no-op when nothing changes. */
export async function releaseBudget(deps: LedgerDeps, release: { decisionId?: string; node?: string }): Promise<void> {
  for (let attempt = 0; attempt < MAX_LEDGER_RETRIES; attempt++) {
    const stored = await deps.cluster.readLedger()
    const next: Ledger = planRelease(stored.ledger, release)
    if (JSON.stringify(next) === JSON.stringify(stored.ledger)) return
    if ((await deps.cluster.writeLedger(next, stored.resourceVersion, deps.dryRun)) === 'written') return
  }
  throw new Error(
    `budget ledger: ${MAX_LEDGER_RETRIES} conflicting writes in a row releasing ${JSON.stringify(release)}`,
  )
}
