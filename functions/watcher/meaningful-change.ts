import { stableStringify } from '../../shared/messages/envelope.ts'
import type { SlimNode, SlimPdb } from '../../shared/messages/index.ts'

/**
 * What counts as a change policy must see. Each function renders an object's meaningful fields as
 * a stable string: two versions are the same to policy exactly when their strings are equal.
 * Absorbed (left out): node `resourceVersion`, condition `lastHeartbeatTime` and `message`
 * (kubelet and node-problem-detector rewrite them on every heartbeat), the order of conditions and
 * taints, and PDB status counters. Pods have no key of their own: every field a slim pod keeps
 * (phase, tolerations, priority, deletionTimestamp, ready…) matters, so the cache compares their
 * compact encodings (compact-pod.ts). Never seen at all, because the slim converters drop them:
 * managedFields, images, node stats and addresses, container statuses. Node Lease renewals live in
 * `kube-node-lease` Leases, which the watcher does not watch.
 */

/**
 * meaningfulNodeKey renders a node without heartbeat noise: conditions keep
 * type/status/reason/lastTransitionTime. A fixed-order tuple through JSON.stringify (maps sorted),
 * several times cheaper than a generic stable stringify on the hot path (one call per heartbeat).
 */
export function meaningfulNodeKey(node: SlimNode): string {
  return JSON.stringify([
    node.name,
    node.uid,
    sorted(node.labels),
    sorted(node.annotations),
    node.taints
      .map((t) => [t.key, t.value ?? null, t.effect, t.timeAdded ?? null])
      .sort((a, b) => compare(`${a[0]}\u0000${a[2]}`, `${b[0]}\u0000${b[2]}`)),
    node.conditions
      .map((c) => [c.type, c.status, c.reason ?? null, c.lastTransitionTime ?? null])
      .sort((a, b) => compare(a[0] as string, b[0] as string)),
    node.unschedulable,
    sorted(node.capacity),
    sorted(node.allocatable),
    node.creationTimestamp ?? null,
  ])
}

/**
 * meaningfulPdbKey renders a PDB's spec only. Its status counters move whenever a selected pod
 * turns ready or not; the Eviction API enforces them live, so they ride along in the next view
 * instead of fanning out a view to every node with a selected pod.
 */
export function meaningfulPdbKey(pdb: SlimPdb): string {
  const { disruptionsAllowed: _d, currentHealthy: _c, desiredHealthy: _h, expectedPods: _e, ...spec } = pdb
  return stableStringify(spec)
}

function sorted(map: Record<string, string>): [string, string][] {
  return Object.keys(map)
    .sort()
    .map((k) => [k, map[k] as string])
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
