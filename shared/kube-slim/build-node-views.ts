import type { NodeView, SlimNode, SlimPdb, SlimPod, ZoneSummary } from '../messages/index.ts'
import { matchesLabelSelector } from '../policy/label-selector.ts'
import { affectedByNodewarden, LABEL_EXCLUDE_DISRUPTION } from '../policy/well-known.ts'
import { getZoneKey } from '../policy/zones.ts'
import { arr, describeObject, obj, str } from './raw.ts'
import { toSlimNode } from './to-slim-node.ts'
import { toSlimPdb } from './to-slim-pdb.ts'
import { toSlimPod } from './to-slim-pod.ts'

/** ClusterSnapshot: a v1 List read into slim objects, one NodeView per node, plus what did not fit. */
export type ClusterSnapshot = {
  views: NodeView[]
  /** Pods bound to no node, or to a node the list does not hold. */
  unplacedPods: SlimPod[]
  zones: ZoneSummary[]
  warnings: string[]
}

const CONVERTERS = { Node: toSlimNode, Pod: toSlimPod, PodDisruptionBudget: toSlimPdb } as const

/** readList converts a `kubectl get nodes,pods,pdb -A -o json` List; unknown kinds and unreadable items become warnings. */
export function readList(list: unknown): { nodes: SlimNode[]; pods: SlimPod[]; pdbs: SlimPdb[]; warnings: string[] } {
  const o = obj(list)
  const kind = str(o?.kind)
  if (!o || !Array.isArray(o.items))
    throw new Error(`not a v1 List: ${kind ? `kind ${kind} without items` : 'no kind and no items'}`)
  const warnings =
    kind === 'List' || kind?.endsWith('List')
      ? []
      : [`not a v1 List (kind ${kind ?? 'missing'}): reading its items anyway`]
  const nodes: SlimNode[] = []
  const pods: SlimPod[] = []
  const pdbs: SlimPdb[] = []
  for (const [i, item] of arr(o.items).entries()) {
    const itemKind = str(obj(item)?.kind) ?? (kind === 'NodeList' ? 'Node' : kind === 'PodList' ? 'Pod' : undefined)
    const convert = itemKind ? CONVERTERS[itemKind as keyof typeof CONVERTERS] : undefined
    if (!convert) {
      warnings.push(`item ${i} (${describeObject(item)}): unknown kind ${itemKind ?? '(none)'}, skipped`)
      continue
    }
    try {
      if (itemKind === 'Node') nodes.push(toSlimNode(item))
      else if (itemKind === 'Pod') pods.push(toSlimPod(item))
      else pdbs.push(toSlimPdb(item))
    } catch (err) {
      warnings.push(`item ${i} rejected: ${(err as Error).message}`)
    }
  }
  return { nodes, pods, pdbs, warnings }
}

/** summarizeZones counts Ready nodes per zone as ComputeZoneState does (exclude-disruption nodes left out). */
export function summarizeZones(nodes: readonly SlimNode[]): ZoneSummary[] {
  const zones = new Map<string, ZoneSummary & { affected: number }>()
  for (const n of nodes) {
    if (n.labels[LABEL_EXCLUDE_DISRUPTION] !== undefined) continue
    const key = getZoneKey(n.labels)
    const z = zones.get(key) ?? { zone: key, ready: 0, notReady: 0, total: 0, affected: 0 }
    const ready = n.conditions.some((c) => c.type === 'Ready' && c.status === 'True')
    if (ready) z.ready++
    else z.notReady++
    z.total++
    if (affectedByNodewarden(n.taints)) z.affected++
    zones.set(key, z)
  }
  return [...zones.values()].sort((a, b) => a.zone.localeCompare(b.zone))
}

/** buildNodeViews groups a List into one NodeView per node (its pods, the PDBs selecting them, every zone), observed at `now`. */
export function buildNodeViews(list: unknown, now: Date): ClusterSnapshot {
  const { nodes, pods, pdbs, warnings } = readList(list)
  const zones = summarizeZones(nodes)
  const byNode = new Map<string, SlimPod[]>(nodes.map((n) => [n.name, []]))
  const unplacedPods: SlimPod[] = []
  for (const p of pods) {
    const list = p.nodeName ? byNode.get(p.nodeName) : undefined
    if (list) list.push(p)
    else unplacedPods.push(p)
  }
  const pdbsByNs = new Map<string, SlimPdb[]>()
  for (const d of pdbs) pdbsByNs.set(d.namespace, [...(pdbsByNs.get(d.namespace) ?? []), d])
  const observedAt = now.toISOString()
  const views = nodes.map((node): NodeView => {
    const nodePods = byNode.get(node.name) ?? []
    const nodePdbs = pdbsSelecting(nodePods, pdbsByNs)
    return { node, pods: nodePods, pdbs: nodePdbs, zones, clusterSize: nodes.length, observedAt, cause: 'relist' }
  })
  return { views, unplacedPods, zones, warnings }
}

function pdbsSelecting(pods: readonly SlimPod[], byNs: Map<string, SlimPdb[]>): SlimPdb[] {
  if (byNs.size === 0) return []
  const found = new Set<SlimPdb>()
  for (const pod of pods)
    for (const d of byNs.get(pod.namespace) ?? [])
      if (d.selector && matchesLabelSelector(d.selector, pod.labels)) found.add(d)
  return [...found]
}
