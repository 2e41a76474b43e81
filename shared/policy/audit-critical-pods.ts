import type { Policy } from '../config/index.ts'
import type { Alert, SlimNode, SlimPod } from '../messages/index.ts'
import { endsAfter, makeAlert, nodeSubject } from './alert-builders.ts'
import { isCriticalPodBasedOnPriority, isMirrorPod, isStaticPod, isTerminalPod } from './critical-pod.ts'
import { secs } from './verdict.ts'
import {
  ANNOTATION_CRITICAL_POD,
  ANNOTATION_NOT_EVICTED_POD,
  SYSTEM_CLUSTER_CRITICAL,
  SYSTEM_NODE_CRITICAL,
} from './well-known.ts'

/** claimsCriticality: the pod is in a critical namespace or is annotated critical / not-evicted. */
export function claimsCriticality(pod: SlimPod, policy: Pick<Policy, 'audits'>): string | undefined {
  if (pod.annotations[ANNOTATION_CRITICAL_POD] !== undefined) return `annotated ${ANNOTATION_CRITICAL_POD}`
  if (pod.annotations[ANNOTATION_NOT_EVICTED_POD] !== undefined) return `annotated ${ANNOTATION_NOT_EVICTED_POD}`
  if (policy.audits.criticalNamespaces.includes(pod.namespace)) return `in ${pod.namespace}`
  return undefined
}

/**
 * auditCriticalWithoutSystemPriority lists pods that claim criticality but run below system
 * priority (static/mirror pods excepted): the kubelet may evict them under node pressure first.
 */
export function auditCriticalWithoutSystemPriority(
  node: SlimNode,
  pods: readonly SlimPod[],
  zone: string,
  policy: Pick<Policy, 'audits' | 'alerts'>,
  now: Date,
): Alert[] {
  const found: string[] = []
  for (const pod of pods) {
    if (isTerminalPod(pod) || isStaticPod(pod) || isMirrorPod(pod)) continue
    if (pod.priority !== undefined && isCriticalPodBasedOnPriority(pod.priority)) continue
    const claim = claimsCriticality(pod, policy)
    if (claim) found.push(`${pod.namespace}/${pod.name} (${claim}, priority ${pod.priority ?? 0})`)
  }
  if (found.length === 0) return []
  const summary = `${node.name}: ${found.length} pod(s) claim criticality without a system priority class (${SYSTEM_CLUSTER_CRITICAL} / ${SYSTEM_NODE_CRITICAL}); the kubelet can evict them under pressure`
  return [
    makeAlert({
      kind: 'CriticalWithoutSystemPriority',
      subject: nodeSubject(node, zone),
      key: 'critical-priority',
      status: 'firing',
      severity: 'warning',
      summary,
      details: { pods: found.slice(0, 50), count: found.length },
      startsAt: now.toISOString(),
      endsAt: endsAfter(now, policy.alerts.ttl),
      groupKey: 'audit:critical-priority',
    }),
  ]
}

/** isCriticalIntent: system priority, a system priority class name, or the legacy critical annotation. */
function isCriticalIntent(pod: SlimPod): boolean {
  if (pod.priority !== undefined && isCriticalPodBasedOnPriority(pod.priority)) return true
  if (pod.priorityClassName === SYSTEM_CLUSTER_CRITICAL || pod.priorityClassName === SYSTEM_NODE_CRITICAL) return true
  return pod.annotations[ANNOTATION_CRITICAL_POD] !== undefined
}

/** auditPendingCriticalPods alerts on each critical pod Pending longer than `audits.pendingCriticalAfter`. */
export function auditPendingCriticalPods(
  pods: readonly SlimPod[],
  zone: string | undefined,
  policy: Pick<Policy, 'audits' | 'alerts'>,
  now: Date,
): Alert[] {
  const alerts: Alert[] = []
  for (const pod of pods) {
    if (pod.phase !== 'Pending' || pod.deletionTimestamp || !isCriticalIntent(pod) || !pod.creationTimestamp) continue
    const ageMs = now.getTime() - Date.parse(pod.creationTimestamp)
    if (ageMs < policy.audits.pendingCriticalAfter) continue
    const where = pod.nodeName ? `bound to ${pod.nodeName}` : 'unscheduled'
    alerts.push(
      makeAlert({
        kind: 'CriticalPodPending',
        subject: {
          kind: 'Pod',
          name: pod.name,
          namespace: pod.namespace,
          ...(pod.nodeName ? { node: pod.nodeName } : {}),
          ...(zone === undefined ? {} : { zone }),
        },
        key: pod.uid,
        status: 'firing',
        severity: 'critical',
        groupKey: 'audit:pending-critical',
        summary: `critical pod ${pod.namespace}/${pod.name} Pending for ${secs(ageMs)}s (${where}${pod.reason ? `, ${pod.reason}` : ''})`,
        details: { priority: pod.priority ?? null, priorityClassName: pod.priorityClassName ?? null },
        startsAt: pod.creationTimestamp,
        endsAt: endsAfter(now, policy.alerts.ttl),
      }),
    )
  }
  return alerts
}
