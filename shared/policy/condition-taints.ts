import type { SlimNode, Taint } from '../messages/index.ts'
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
 * The node lifecycle controller's condition → taint map (`nodeConditionToTaintKeyStatusMap`,
 * pkg/controller/nodelifecycle/node_lifecycle_controller.go). All get NoSchedule at once;
 * only Ready False/Unknown also get NoExecute (rate-limited per zone).
 */
export const NODE_CONDITION_TAINTS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  Ready: { False: TAINT_NOT_READY, Unknown: TAINT_UNREACHABLE },
  MemoryPressure: { True: TAINT_MEMORY_PRESSURE },
  DiskPressure: { True: TAINT_DISK_PRESSURE },
  PIDPressure: { True: TAINT_PID_PRESSURE },
  NetworkUnavailable: { True: TAINT_NETWORK_UNAVAILABLE },
}

const CONTROLLER_KEYS = new Set([
  ...Object.values(NODE_CONDITION_TAINTS).flatMap((m) => Object.values(m)),
  TAINT_UNSCHEDULABLE,
])

/** conditionTaintKey returns the taint key the control plane sets for a condition status, if any. */
export function conditionTaintKey(type: string, status: string): string | undefined {
  return NODE_CONDITION_TAINTS[type]?.[status]
}

/** desiredNoScheduleTaints is `doNoScheduleTaintingPass`'s desired set: mapped conditions in order, then unschedulable. */
export function desiredNoScheduleTaints(node: Pick<SlimNode, 'conditions' | 'unschedulable'>): Taint[] {
  const keys = node.conditions.flatMap((c) => {
    const key = conditionTaintKey(c.type, c.status)
    return key ? [key] : []
  })
  if (node.unschedulable) keys.push(TAINT_UNSCHEDULABLE)
  return keys.map((key) => ({ key, effect: 'NoSchedule' }))
}

/** expectedNoExecuteTaint is the NoExecute taint the controller converges to for the node's Ready status. */
export function expectedNoExecuteTaint(node: Pick<SlimNode, 'conditions'>): Taint | undefined {
  const ready = node.conditions.find((c) => c.type === 'Ready')
  if (ready?.status === 'True') return undefined
  const key = ready?.status === 'False' ? TAINT_NOT_READY : TAINT_UNREACHABLE
  return { key, effect: 'NoExecute' }
}

/** planControlPlaneTaints diffs the node's controller-managed NoSchedule taints against the desired set (by key+effect). */
export function planControlPlaneTaints(node: Pick<SlimNode, 'conditions' | 'unschedulable' | 'taints'>): {
  add: Taint[]
  remove: Taint[]
} {
  const desired = desiredNoScheduleTaints(node)
  const current = node.taints.filter((t) => t.effect === 'NoSchedule' && CONTROLLER_KEYS.has(t.key))
  const has = (list: Taint[], t: Taint) => list.some((x) => x.key === t.key && x.effect === t.effect)
  return { add: desired.filter((t) => !has(current, t)), remove: current.filter((t) => !has(desired, t)) }
}
