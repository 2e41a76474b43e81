import type { SlimNode } from '../messages/index.ts'
import { TimestampSchema } from '../messages/kube.ts'
import { arr, defined, obj, str } from './raw.ts'
import { MESSAGE_CHARS } from './to-slim-node.ts'

/**
 * The heartbeat fast path: a faster entry point equivalent to `toSlimNode` for the update a kubelet
 * posts every 10 s. `nodeFingerprint` renders every raw field `toSlimNode` reads EXCEPT the three
 * that move on a heartbeat (`metadata.resourceVersion`, each condition's `lastHeartbeatTime` and
 * `message`); raw sub-objects go in whole and in their received order, so it is stricter than
 * the slim view (an unread label value or a reordered map changes it, at the cost of one full
 * conversion). When two objects have the same fingerprint, `refreshSlimNode` builds the second's
 * slim node from the first's by copying just those three fields — what `toSlimNode` would return,
 * tested to be equal on random objects (test/unit/watcher/heartbeat-fast-path.test.ts).
 * Keep this file in step with to-slim-node.ts.
 */

/** nodeFingerprint renders the raw fields toSlimNode reads, heartbeat fields left out. */
export function nodeFingerprint(object: unknown): string {
  const o = obj(object)
  const meta = obj(o?.metadata)
  const spec = obj(o?.spec)
  const status = obj(o?.status)
  const raw = arr(status?.conditions)
  const conditions: unknown[] = new Array(raw.length)
  for (let i = 0; i < raw.length; i++) {
    const c = obj(raw[i])
    // A condition that is not an object renders as null, which no object condition (an array here) can equal.
    conditions[i] = c ? [c.type, c.status, c.reason, c.lastTransitionTime] : null
  }
  return JSON.stringify([
    meta?.name,
    meta?.uid,
    meta?.labels,
    meta?.annotations,
    meta?.creationTimestamp,
    spec?.taints,
    spec?.unschedulable,
    status?.capacity,
    status?.allocatable,
    conditions,
  ])
}

/**
 * refreshSlimNode returns `toSlimNode(object)` given `previous = toSlimNode(earlier)` and
 * `nodeFingerprint(object) === nodeFingerprint(earlier)`: the previous node with the object's
 * resourceVersion and condition heartbeats and messages. Undefined when one of those would not
 * validate; the caller then takes the full path, which rejects the object with its field named.
 */
export function refreshSlimNode(previous: SlimNode, object: unknown): SlimNode | undefined {
  const o = obj(object)
  const raw = arr(obj(o?.status)?.conditions)
  if (raw.length !== previous.conditions.length) return undefined
  const conditions: SlimNode['conditions'] = new Array(raw.length)
  let validHeartbeat: string | undefined
  for (let i = 0; i < raw.length; i++) {
    const x = obj(raw[i])
    const before = previous.conditions[i]
    if (!x || !before) return undefined
    const heartbeat = str(x.lastHeartbeatTime)
    if (heartbeat !== undefined && heartbeat !== validHeartbeat) {
      // Conditions of one status post share a heartbeat: validate each distinct value once.
      if (!TimestampSchema.safeParse(heartbeat).success) return undefined
      validHeartbeat = heartbeat
    }
    conditions[i] = defined({
      type: before.type,
      status: before.status,
      reason: before.reason,
      message: str(x.message)?.slice(0, MESSAGE_CHARS),
      lastTransitionTime: before.lastTransitionTime,
      lastHeartbeatTime: heartbeat,
    })
  }
  return { ...previous, resourceVersion: str(obj(o?.metadata)?.resourceVersion) || '0', conditions }
}
