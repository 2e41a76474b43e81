/** Well-known Kubernetes taint keys, labels and annotations (k8s.io/api/core/v1/well_known_taints.go, well_known_labels.go). */

export const TAINT_NOT_READY = 'node.kubernetes.io/not-ready'
export const TAINT_UNREACHABLE = 'node.kubernetes.io/unreachable'
export const TAINT_MEMORY_PRESSURE = 'node.kubernetes.io/memory-pressure'
export const TAINT_DISK_PRESSURE = 'node.kubernetes.io/disk-pressure'
export const TAINT_PID_PRESSURE = 'node.kubernetes.io/pid-pressure'
export const TAINT_NETWORK_UNAVAILABLE = 'node.kubernetes.io/network-unavailable'
export const TAINT_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable'
export const TAINT_OUT_OF_SERVICE = 'node.kubernetes.io/out-of-service'

export const LABEL_ZONE = 'topology.kubernetes.io/zone'
export const LABEL_REGION = 'topology.kubernetes.io/region'
export const LABEL_ZONE_LEGACY = 'failure-domain.beta.kubernetes.io/zone'
export const LABEL_REGION_LEGACY = 'failure-domain.beta.kubernetes.io/region'
export const LABEL_EXCLUDE_DISRUPTION = 'node.kubernetes.io/exclude-disruption'

export const ANNOTATION_CONFIG_SOURCE = 'kubernetes.io/config.source'
export const ANNOTATION_CONFIG_MIRROR = 'kubernetes.io/config.mirror'
export const ANNOTATION_CRITICAL_POD = 'scheduler.alpha.kubernetes.io/critical-pod'
export const ANNOTATION_NOT_EVICTED_POD = 'scheduler.alpha.kubernetes.io/not-evicted-pod'
export const ANNOTATION_PROTECT = 'nodewarden.io/protect'

/** Taint keys nodewarden may write; it never touches any other key. */
export const NODEWARDEN_TAINT_PREFIX = 'nodewarden.io/'

/** affectedByNodewarden: the node carries a nodewarden NoExecute taint (what the zone fraction guard counts). */
export function affectedByNodewarden(taints: readonly { key: string; effect: string }[]): boolean {
  return taints.some((t) => t.effect === 'NoExecute' && t.key.startsWith(NODEWARDEN_TAINT_PREFIX))
}

/** pkg/apis/scheduling/types.go */
export const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000
export const SYSTEM_CRITICAL_PRIORITY = 2 * HIGHEST_USER_DEFINABLE_PRIORITY
export const SYSTEM_CLUSTER_CRITICAL = 'system-cluster-critical'
export const SYSTEM_NODE_CRITICAL = 'system-node-critical'
