import type { Policy } from '../config/index.ts'
import type { SlimPod } from '../messages/index.ts'
import { isTerminalPod } from './critical-pod.ts'
import { isProtected } from './protection.ts'
import { getPodQOS, type QosClass } from './qos.ts'

/**
 * The drain plan: which pods of a node nodewarden evicts through the Eviction API (so PDBs hold)
 * and in which order — lowest priority first, BestEffort before Burstable before Guaranteed at
 * equal priority, then by namespace/name so the order is stable.
 */

export type DrainCandidate = { pod: SlimPod; qosClass: QosClass; priority: number }
export type DrainPlan = { evict: DrainCandidate[]; skipped: { pod: SlimPod; reason: string }[] }

const QOS_RANK: Record<QosClass, number> = { BestEffort: 0, Burstable: 1, Guaranteed: 2 }

/** skipReason says why a pod is not evictable by a drain, or undefined when it is. */
export function drainSkipReason(pod: SlimPod, protection: Policy['protection']): string | undefined {
  const reasons = isProtected(pod, protection)
  if (reasons.length > 0) return `protected: ${reasons.join('; ')}`
  if (isTerminalPod(pod)) return `terminal (${pod.phase})`
  if (pod.deletionTimestamp) return `already terminating since ${pod.deletionTimestamp}`
  return undefined
}

/** compareDrainOrder orders candidates: priority ascending, then QoS class, then namespace/name. */
export function compareDrainOrder(a: DrainCandidate, b: DrainCandidate): number {
  return (
    a.priority - b.priority ||
    QOS_RANK[a.qosClass] - QOS_RANK[b.qosClass] ||
    a.pod.namespace.localeCompare(b.pod.namespace) ||
    a.pod.name.localeCompare(b.pod.name)
  )
}

/** planDrain splits a node's pods into ordered evictions and skips with reasons. */
export function planDrain(pods: readonly SlimPod[], protection: Policy['protection']): DrainPlan {
  const evict: DrainCandidate[] = []
  const skipped: DrainPlan['skipped'] = []
  for (const pod of pods) {
    const reason = drainSkipReason(pod, protection)
    if (reason) skipped.push({ pod, reason })
    else evict.push({ pod, qosClass: getPodQOS(pod), priority: pod.priority ?? 0 })
  }
  return { evict: evict.sort(compareDrainOrder), skipped }
}
