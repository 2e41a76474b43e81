import type { Toleration } from '../messages/index.ts'
import { matchToleration } from './tolerations.ts'
import {
  TAINT_DISK_PRESSURE,
  TAINT_MEMORY_PRESSURE,
  TAINT_NETWORK_UNAVAILABLE,
  TAINT_NOT_READY,
  TAINT_PID_PRESSURE,
  TAINT_UNREACHABLE,
  TAINT_UNSCHEDULABLE,
} from './well-known.ts'

/**
 * DaemonSet default tolerations, as upstream `AddOrUpdateDaemonPodTolerations`
 * (pkg/controller/daemon/util/daemonset_util.go): not-ready/unreachable NoExecute forever,
 * the pressure and unschedulable taints NoSchedule, and network-unavailable for hostNetwork pods.
 */

function exists(key: string, effect: 'NoExecute' | 'NoSchedule'): Toleration {
  return { key, operator: 'Exists', effect }
}

/** addOrUpdateTolerationInPodSpec is upstream's helper: replace a matching toleration in place, else append. */
export function addOrUpdateToleration(tolerations: readonly Toleration[], toleration: Toleration): Toleration[] {
  const i = tolerations.findIndex((t) => matchToleration(t, toleration))
  if (i < 0) return [...tolerations, toleration]
  const next = [...tolerations]
  next[i] = toleration
  return next
}

/** addOrUpdateDaemonPodTolerations returns the tolerations a DaemonSet pod carries after the controller adds its defaults. */
export function addOrUpdateDaemonPodTolerations(tolerations: readonly Toleration[], hostNetwork = false): Toleration[] {
  const defaults = [
    exists(TAINT_NOT_READY, 'NoExecute'),
    exists(TAINT_UNREACHABLE, 'NoExecute'),
    exists(TAINT_DISK_PRESSURE, 'NoSchedule'),
    exists(TAINT_MEMORY_PRESSURE, 'NoSchedule'),
    exists(TAINT_PID_PRESSURE, 'NoSchedule'),
    exists(TAINT_UNSCHEDULABLE, 'NoSchedule'),
    ...(hostNetwork ? [exists(TAINT_NETWORK_UNAVAILABLE, 'NoSchedule')] : []),
  ]
  return defaults.reduce(addOrUpdateToleration, [...tolerations])
}
