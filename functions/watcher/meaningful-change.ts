import { stableStringify } from '../../shared/messages/envelope.ts'
import type { SlimNode, SlimPdb, SlimPod } from '../../shared/messages/index.ts'

/**
 * What counts as a change policy must see. Each function renders an object's meaningful fields as
 * a stable string: two versions are the same to policy exactly when their strings are equal.
 * Absorbed (left out): node `resourceVersion`, condition `lastHeartbeatTime` and `message`
 * (kubelet and node-problem-detector rewrite them on every heartbeat), the order of conditions and
 * taints, and PDB status counters. Never seen at all, because the slim converters drop them:
 * managedFields, images, node stats and addresses, container statuses. Node Lease renewals live in
 * `kube-node-lease` Leases, which the watcher does not watch.
 */

/** meaningfulNodeKey renders a node without heartbeat noise: conditions keep type/status/reason/lastTransitionTime. */
export function meaningfulNodeKey(node: SlimNode): string {
  const { resourceVersion: _rv, conditions, taints, ...rest } = node
  return stableStringify({
    ...rest,
    conditions: conditions
      .map(({ lastHeartbeatTime: _h, message: _m, ...c }) => c)
      .sort((a, b) => compare(a.type, b.type)),
    taints: [...taints].sort((a, b) => compare(`${a.key}\u0000${a.effect}`, `${b.key}\u0000${b.effect}`)),
  })
}

/** meaningfulPodKey renders a slim pod whole: every field it keeps (phase, tolerations, priority, deletionTimestamp, ready…) matters. */
export function meaningfulPodKey(pod: SlimPod): string {
  return stableStringify(pod)
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

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
