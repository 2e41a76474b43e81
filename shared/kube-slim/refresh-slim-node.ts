import type { NodeCondition, SlimNode } from '../messages/index.ts'
import { TimestampSchema } from '../messages/kube.ts'
import { arr, bool, obj, str } from './raw.ts'
import { keepNodeAnnotation, MESSAGE_CHARS } from './to-slim-node.ts'

/**
 * The heartbeat fast path: a faster entry point equivalent to `toSlimNode` for the status update a
 * kubelet posts every 10 s. Given the slim node `previous = toSlimNode(earlier)` and the next full
 * object, it reads every field `toSlimNode` reads, the way it reads them, and compares each with
 * `previous` in place, allocating nothing; only the three fields a heartbeat moves
 * (`metadata.resourceVersion`, each condition's `lastHeartbeatTime` and `message`) may differ.
 * When nothing else does, it returns `previous` with those three refreshed: what `toSlimNode(object)`
 * returns, without the validation pass (tested to be equal on random objects:
 * test/unit/watcher/heartbeat-fast-path.test.ts). Anything else — a changed field, a reordered
 * map or list, a value the converter would normalise or reject — returns undefined, and the caller
 * takes the full path. Keep this file in step with to-slim-node.ts.
 */

/** refreshSlimNode returns toSlimNode(object) when it differs from `previous` in heartbeat fields only, else undefined. */
export function refreshSlimNode(previous: SlimNode, object: unknown): SlimNode | undefined {
  const o = obj(object)
  const meta = obj(o?.metadata)
  const spec = obj(o?.spec)
  const status = obj(o?.status)
  if (
    meta?.name !== previous.name ||
    meta.uid !== previous.uid ||
    meta.creationTimestamp !== previous.creationTimestamp ||
    (bool(spec?.unschedulable) ?? false) !== previous.unschedulable ||
    !sameStringMap(meta.labels, previous.labels) ||
    !sameStringMap(meta.annotations, previous.annotations, keepNodeAnnotation) ||
    !sameResources(status?.capacity, previous.capacity) ||
    !sameResources(status?.allocatable, previous.allocatable) ||
    !sameTaints(spec?.taints, previous.taints)
  )
    return undefined
  const raw = arr(status?.conditions)
  if (raw.length !== previous.conditions.length) return undefined
  const conditions: NodeCondition[] = new Array(raw.length)
  for (let i = 0; i < raw.length; i++) {
    const x = obj(raw[i])
    const before = previous.conditions[i]
    if (
      !x ||
      !before ||
      x.type !== before.type ||
      x.status !== before.status ||
      x.reason !== before.reason ||
      x.lastTransitionTime !== before.lastTransitionTime
    )
      return undefined
    const heartbeat = str(x.lastHeartbeatTime)
    if (heartbeat !== undefined && !isTimestamp(heartbeat)) return undefined
    // Keys in toSlimNode's (the schema's) order; absent ones left out, as `defined` does there.
    const c: NodeCondition = { type: before.type, status: before.status }
    if (before.reason !== undefined) c.reason = before.reason
    const message = str(x.message)?.slice(0, MESSAGE_CHARS)
    if (message !== undefined) c.message = message
    if (before.lastTransitionTime !== undefined) c.lastTransitionTime = before.lastTransitionTime
    if (heartbeat !== undefined) c.lastHeartbeatTime = heartbeat
    conditions[i] = c
  }
  return { ...previous, resourceVersion: str(meta.resourceVersion) || '0', conditions }
}

/** sameStringMap: `stringMap(raw, keep)` (string values, kept keys, in order) equals `slim`. */
function sameStringMap(raw: unknown, slim: Record<string, string>, keep?: (key: string) => boolean): boolean {
  const o = obj(raw)
  const keys = Object.keys(slim)
  if (!o) return keys.length === 0
  let n = 0
  for (const k in o) {
    const v = o[k]
    if (typeof v !== 'string' || (keep && !keep(k))) continue
    if (keys[n] !== k || slim[k] !== v) return false
    n++
  }
  return n === keys.length
}

/** sameResources: the raw ResourceList holds exactly `slim`'s quantities as strings, in order. */
function sameResources(raw: unknown, slim: Record<string, string>): boolean {
  const o = obj(raw)
  const keys = Object.keys(slim)
  if (!o) return keys.length === 0
  let n = 0
  for (const k in o) {
    if (keys[n] !== k || o[k] !== slim[k]) return false
    n++
  }
  return n === keys.length
}

/** sameTaints: each raw taint reads as the slim taint at its index (key, value, effect, timeAdded). */
function sameTaints(raw: unknown, slim: SlimNode['taints']): boolean {
  const list = arr(raw)
  if (list.length !== slim.length) return false
  for (let i = 0; i < list.length; i++) {
    const t = obj(list[i])
    const s = slim[i]
    if (!t || !s || t.key !== s.key || t.value !== s.value || t.effect !== s.effect || t.timeAdded !== s.timeAdded)
      return false
  }
  return true
}

/**
 * Heartbeat times already found valid. Kubelets post with one-second resolution, so the hundreds of
 * status posts a second in a large cluster share a handful of values: each is checked by the schema
 * once. Bounded: cleared when full.
 */
const validTimestamps = new Set<string>()
const VALID_TIMESTAMPS_KEPT = 4_096

function isTimestamp(value: string): boolean {
  if (validTimestamps.has(value)) return true
  if (!TimestampSchema.safeParse(value).success) return false
  if (validTimestamps.size >= VALID_TIMESTAMPS_KEPT) validTimestamps.clear()
  validTimestamps.add(value)
  return true
}
