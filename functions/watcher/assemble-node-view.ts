import { contentId } from '../../shared/messages/envelope.ts'
import type { NodeView } from '../../shared/messages/index.ts'
import { meaningfulNodeKey } from './meaningful-change.ts'
import type { SlimCache } from './slim-cache.ts'

export type ViewCause = NodeView['cause']
export type ViewSource = Pick<SlimCache, 'node' | 'podsOn' | 'pdbsSelecting' | 'zones' | 'counts'>

/**
 * assembleNodeView builds the self-contained view of one node from the cache at send time (so a
 * coalesced view carries the latest state): the node, its pods, the PDBs selecting them and every
 * zone's ready / notReady / total. A deleted node's view carries its last state and no pods.
 * Undefined when the node is unknown.
 */
export function assembleNodeView(
  source: ViewSource,
  nodeName: string,
  cause: ViewCause,
  now: Date,
): NodeView | undefined {
  const found = source.node(nodeName)
  if (!found) return undefined
  const pods = found.deleted ? [] : source.podsOn(nodeName)
  return {
    node: found.node,
    pods,
    pdbs: pods.length === 0 ? [] : source.pdbsSelecting(pods),
    zones: source.zones(),
    clusterSize: source.counts().nodes,
    observedAt: now.toISOString(),
    cause: found.deleted ? 'deleted' : cause,
  }
}

/**
 * viewDeduplicationId is the events queue's MessageDeduplicationId: node uid + a hash of what the
 * view means (heartbeats, observedAt and cause left out), the resourceVersion of the node's last
 * meaningful change, and for resyncs the resync round. So a retried send, or both replicas sending
 * the same state around a leader handover, is deduplicated by SQS, while a state that comes back
 * (A → B → A) or a periodic resync is not.
 */
export function viewDeduplicationId(view: NodeView, changeRv: string, resyncRound?: number): string {
  const hash = contentId({
    node: meaningfulNodeKey(view.node),
    pods: view.pods,
    pdbs: view.pdbs,
    zones: view.zones,
    clusterSize: view.clusterSize,
    deleted: view.cause === 'deleted',
    truncated: view.truncated,
    // A new kubelet stats sample is a new view (the collector marks the node only when it matters).
    stats: view.stats?.observedAt,
    changeRv,
    resyncRound,
  })
  return `${view.node.uid}:${hash}`
}
