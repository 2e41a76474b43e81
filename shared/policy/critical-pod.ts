import type { SlimPod } from '../messages/index.ts'
import {
  ANNOTATION_CONFIG_MIRROR,
  ANNOTATION_CONFIG_SOURCE,
  SYSTEM_CRITICAL_PRIORITY,
  SYSTEM_NODE_CRITICAL,
} from './well-known.ts'

/** Critical, static and mirror pod predicates, as upstream pkg/kubelet/types/pod_update.go. */

type PodMarks = Pick<SlimPod, 'annotations' | 'priority' | 'priorityClassName'>

/** isStaticPod: the config.source annotation is present and not "api" (`file`, `http`, even ""). */
export function isStaticPod(pod: PodMarks): boolean {
  const source = pod.annotations[ANNOTATION_CONFIG_SOURCE]
  return source !== undefined && source !== 'api'
}

/** isMirrorPod: the config.mirror annotation is present (any value). */
export function isMirrorPod(pod: PodMarks): boolean {
  return pod.annotations[ANNOTATION_CONFIG_MIRROR] !== undefined
}

/** isCriticalPodBasedOnPriority: priority ≥ 2000000000 (system-cluster-critical and above). */
export function isCriticalPodBasedOnPriority(priority: number): boolean {
  return priority >= SYSTEM_CRITICAL_PRIORITY
}

/** isCriticalPod: static, mirror, or resolved priority ≥ 2000000000. */
export function isCriticalPod(pod: PodMarks): boolean {
  if (isStaticPod(pod) || isMirrorPod(pod)) return true
  return pod.priority !== undefined && isCriticalPodBasedOnPriority(pod.priority)
}

/** isNodeCriticalPod: critical and of priority class system-node-critical. */
export function isNodeCriticalPod(pod: PodMarks): boolean {
  return isCriticalPod(pod) && pod.priorityClassName === SYSTEM_NODE_CRITICAL
}

/** isTerminalPod: phase Succeeded or Failed. */
export function isTerminalPod(pod: Pick<SlimPod, 'phase'>): boolean {
  return pod.phase === 'Succeeded' || pod.phase === 'Failed'
}

/** isDaemonSetPod: owned by a DaemonSet. */
export function isDaemonSetPod(pod: Pick<SlimPod, 'owners'>): boolean {
  return pod.owners.some((o) => o.kind === 'DaemonSet')
}
