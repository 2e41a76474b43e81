import type { Decision } from '../../shared/messages/index.ts'
import { RELIEF_RULE_ID } from '../../shared/pressure/decide-relief.ts'
import { ANNOTATION_LAST_RELIEF, parseLastRelief, renderLastRelief } from '../../shared/pressure/last-relief.ts'
import type { WriteDeps } from './handle-decision.ts'
import type { LiveNode } from './live-objects.ts'

/**
 * The writer's side of "at most one relief eviction per node per interval" (issue 8): before a
 * relief eviction it re-checks the node's `nodewarden.io/last-relief` stamp (another decision for
 * the same node may have won the race), and after it stamps the node with when, which pod and
 * which decision — re-read and compare-and-swap like taints, idempotent under redelivery.
 */

type EvictDecision = Extract<Decision, { action: 'evict' }>

/** isReliefEviction tells whether a decision is a pressure-relief eviction. */
export function isReliefEviction(decision: Decision): decision is EvictDecision {
  return decision.action === 'evict' && decision.ruleId === RELIEF_RULE_ID
}

/** reliefWindowConflict: why this relief eviction must not run now (another one on the node is too recent), if so. */
export function reliefWindowConflict(decision: EvictDecision, node: LiveNode | null, now: Date): string | undefined {
  const last = parseLastRelief(node?.metadata.annotations[ANNOTATION_LAST_RELIEF])
  const intervalSeconds = decision.evidence.reliefIntervalSeconds
  if (!last || last.decision === decision.id || typeof intervalSeconds !== 'number') return undefined
  const ageMs = now.getTime() - Date.parse(last.at)
  if (ageMs >= intervalSeconds * 1000 || ageMs < 0) return undefined
  return `node ${decision.target.nodeName} was relieved ${Math.round(ageMs / 1000)}s ago (${last.pod ?? 'a pod'} at ${last.at}${last.decision ? `, decision ${last.decision}` : ''}): at most one relief eviction per node every ${intervalSeconds}s`
}

/** stampLastRelief records the relief eviction on its node; a no-op when this decision's stamp is already there. */
export async function stampLastRelief(decision: EvictDecision, deps: WriteDeps): Promise<void> {
  const t = decision.target
  const value = renderLastRelief({
    at: deps.now().toISOString(),
    pod: `${t.namespace}/${t.name}`,
    decision: decision.id,
  })
  for (let attempt = 0; attempt <= deps.maxConflictRetries; attempt++) {
    const node = await deps.cluster.readNode(t.nodeName)
    if (!node) return
    if (parseLastRelief(node.metadata.annotations[ANNOTATION_LAST_RELIEF])?.decision === decision.id) return
    const result = await deps.cluster.annotateNode(node, { [ANNOTATION_LAST_RELIEF]: value }, deps.dryRun)
    if (result.kind === 'conflict') continue
    if (result.kind === 'invalid')
      throw new Error(`stamp ${ANNOTATION_LAST_RELIEF} on node ${t.nodeName}: ${result.failure.message}`)
    return
  }
  throw new Error(
    `stamp ${ANNOTATION_LAST_RELIEF} on node ${t.nodeName}: ${deps.maxConflictRetries + 1} conflicting writes in a row`,
  )
}
