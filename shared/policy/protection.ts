import type { Policy } from '../config/index.ts'
import type { SlimPod } from '../messages/index.ts'
import { isCriticalPodBasedOnPriority, isDaemonSetPod, isMirrorPod, isStaticPod } from './critical-pod.ts'
import { describeLabelSelector, matchesLabelSelector } from './label-selector.ts'
import { ANNOTATION_CRITICAL_POD, ANNOTATION_NOT_EVICTED_POD, ANNOTATION_PROTECT } from './well-known.ts'

/** The protection part of the policy (DESIGN §6.1): what makes a pod untouchable by nodewarden. */
export type ProtectionPolicy = Policy['protection']

type ProtectablePod = Pick<SlimPod, 'namespace' | 'labels' | 'annotations' | 'owners' | 'priority'>

/**
 * isProtected returns every reason the pod must never be evicted by nodewarden (empty = not protected):
 * system priority, static/mirror, DaemonSet-owned, the not-evicted-pod or legacy critical-pod
 * annotation in a system namespace, `nodewarden.io/protect: "true"`, configured namespaces and selectors.
 */
export function isProtected(pod: ProtectablePod, protection: ProtectionPolicy): string[] {
  const reasons: string[] = []
  if (pod.priority !== undefined && isCriticalPodBasedOnPriority(pod.priority))
    reasons.push(`priority ${pod.priority} ≥ 2000000000 (system critical)`)
  if (isStaticPod(pod)) reasons.push(`static pod (config.source ${pod.annotations['kubernetes.io/config.source']})`)
  if (isMirrorPod(pod)) reasons.push('mirror pod')
  if (isDaemonSetPod(pod)) reasons.push('owned by a DaemonSet')
  const system = protection.systemNamespaces.includes(pod.namespace)
  if (system && pod.annotations[ANNOTATION_NOT_EVICTED_POD] === '')
    reasons.push(`${ANNOTATION_NOT_EVICTED_POD} annotation in ${pod.namespace}`)
  if (system && pod.annotations[ANNOTATION_CRITICAL_POD] === '')
    reasons.push(`legacy ${ANNOTATION_CRITICAL_POD} annotation in ${pod.namespace}`)
  if (pod.annotations[ANNOTATION_PROTECT] === 'true') reasons.push(`${ANNOTATION_PROTECT}: "true"`)
  if (protection.namespaces.includes(pod.namespace)) reasons.push(`namespace ${pod.namespace} is protected by policy`)
  for (const s of protection.selectors)
    if (matchesLabelSelector(s, pod.labels)) reasons.push(`labels match protected selector ${describeLabelSelector(s)}`)
  return reasons
}
