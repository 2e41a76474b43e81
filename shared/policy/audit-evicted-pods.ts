import type { Policy } from '../config/index.ts'
import type { Alert, Decision, SlimNode, SlimPod } from '../messages/index.ts'
import { endsAfter, makeAlert, nodeSubject } from './alert-builders.ts'
import { makeDecision, podTarget } from './decision-builders.ts'
import { secs } from './verdict.ts'

/** isKubeletEvicted: the kubelet marks pods it evicts as phase Failed, reason Evicted. */
export function isKubeletEvicted(pod: Pick<SlimPod, 'phase' | 'reason'>): boolean {
  return pod.phase === 'Failed' && pod.reason === 'Evicted'
}

/** evictedAgeMs: time since the pod finished (finishedAt, else startTime, else creation — an upper bound). */
export function evictedAgeMs(pod: SlimPod, now: Date): number | undefined {
  const at = pod.finishedAt ?? pod.startTime ?? pod.creationTimestamp
  return at ? now.getTime() - Date.parse(at) : undefined
}

/**
 * auditEvictedPods finds kubelet-evicted pods older than `audits.evictedPodRetention`: one summary
 * alert per node and, when the policy opts in, a `deleteEvictedPod` decision for each.
 */
export function auditEvictedPods(
  node: SlimNode,
  pods: readonly SlimPod[],
  zone: string,
  policy: Pick<Policy, 'audits' | 'alerts'>,
  now: Date,
): { alerts: Alert[]; decisions: Decision[] } {
  const retention = policy.audits.evictedPodRetention
  const old = pods.filter((p) => isKubeletEvicted(p) && (evictedAgeMs(p, now) ?? 0) >= retention)
  if (old.length === 0) return { alerts: [], decisions: [] }
  const summary = `${node.name}: ${old.length} kubelet-evicted pod(s) older than ${secs(retention)}s${policy.audits.deleteEvictedPods ? ' will be deleted' : ' (deletion not enabled)'}`
  const alert = makeAlert({
    kind: 'EvictedPodsCleanup',
    subject: nodeSubject(node, zone),
    key: 'evicted-pods',
    status: 'firing',
    severity: 'info',
    summary,
    details: { pods: old.slice(0, 50).map((p) => `${p.namespace}/${p.name}`), count: old.length },
    startsAt: now.toISOString(),
    endsAt: endsAfter(now, policy.alerts.ttl),
    groupKey: 'audit:evicted-pods',
  })
  if (!policy.audits.deleteEvictedPods) return { alerts: [alert], decisions: [] }
  const decisions = old.map((pod) => {
    const reason = `${pod.namespace}/${pod.name} was evicted by the kubelet ${secs(evictedAgeMs(pod, now) ?? 0)}s ago (retention ${secs(retention)}s): delete it`
    const preconditions = [
      { type: 'podOnNode' as const, podUid: pod.uid, nodeName: node.name },
      { type: 'podPhase' as const, phases: ['Failed'] },
    ]
    return makeDecision(
      { action: 'deleteEvictedPod', target: podTarget(pod, node.name) },
      {
        ruleId: 'evicted-pod-retention',
        reason,
        evidence: { finishedAt: pod.finishedAt ?? null },
        preconditions,
        notBefore: undefined,
        budget: undefined,
      },
      pod.uid,
      now,
    )
  })
  return { alerts: [alert], decisions }
}
