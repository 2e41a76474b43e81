import type { SlimNode, SlimPdb, SlimPod, ZoneSummary } from '../../shared/messages/index.ts'
import { matchesLabelSelector } from '../../shared/policy/label-selector.ts'
import { meaningfulNodeKey, meaningfulPdbKey, meaningfulPodKey } from './meaningful-change.ts'
import { ZoneCounts, type ZoneMembership, zoneMembershipOf } from './zone-counts.ts'

type NodeEntry = { node: SlimNode; key: string; zone: ZoneMembership }
/** Pods are kept as their stable JSON: compact in memory, and equal strings mean "no meaningful change". */
type PodEntry = { nodeName: string; namespace: string; json: string }
type PdbEntry = { pdb: SlimPdb; key: string }

/**
 * SlimCache is the watcher's whole memory of the cluster: slim nodes, pods and PDBs, indexed by
 * node, with incremental zone counts. Every mutation returns the names of the nodes whose view
 * changed meaningfully (empty = absorbed) and stamps them with the resourceVersion that changed
 * them, which goes into the view hash so a state that returns (A → B → A) is not deduplicated away.
 */
export class SlimCache {
  private readonly nodes = new Map<string, NodeEntry>()
  private readonly pods = new Map<string, PodEntry>()
  private readonly podsByNode = new Map<string, Set<string>>()
  private readonly pdbs = new Map<string, PdbEntry>()
  private readonly zoneCounts = new ZoneCounts()
  private readonly changeRvs = new Map<string, string>()
  private readonly tombstones = new Map<string, SlimNode>()

  /** upsertNode stores a node; it is a change when its meaningful fields differ (or it is new). */
  upsertNode(node: SlimNode, rv: string): string[] {
    const before = this.nodes.get(node.name)
    const key = meaningfulNodeKey(node)
    const zone = zoneMembershipOf(node)
    this.zoneCounts.move(before?.zone, zone)
    this.nodes.set(node.name, { node, key, zone })
    this.tombstones.delete(node.name)
    return before?.key === key ? [] : this.touch([node.name], rv)
  }

  /** deleteNode forgets a node, keeping a tombstone so its last view can say it was deleted. */
  deleteNode(name: string, rv: string): string[] {
    const before = this.nodes.get(name)
    if (!before) return []
    this.zoneCounts.move(before.zone, undefined)
    this.nodes.delete(name)
    this.tombstones.set(name, before.node)
    return this.touch([name], rv)
  }

  /** upsertPod stores a pod bound to a node; unbound pods are not kept (no view carries them). */
  upsertPod(key: string, pod: SlimPod, rv: string): string[] {
    if (!pod.nodeName) return this.deletePod(key, rv)
    const before = this.pods.get(key)
    const json = meaningfulPodKey(pod)
    if (before?.json === json && before.nodeName === pod.nodeName) return []
    if (before && before.nodeName !== pod.nodeName) this.unindex(key, before.nodeName)
    this.pods.set(key, { nodeName: pod.nodeName, namespace: pod.namespace, json })
    const set = this.podsByNode.get(pod.nodeName) ?? new Set<string>()
    this.podsByNode.set(pod.nodeName, set)
    set.add(key)
    const dirty = before && before.nodeName !== pod.nodeName ? [before.nodeName, pod.nodeName] : [pod.nodeName]
    return this.touch(dirty, rv)
  }

  /** deletePod forgets a pod; its node's view changes. */
  deletePod(key: string, rv: string): string[] {
    const before = this.pods.get(key)
    if (!before) return []
    this.pods.delete(key)
    this.unindex(key, before.nodeName)
    return this.touch([before.nodeName], rv)
  }

  /** upsertPdb stores a PDB; a spec change touches every node running a pod it selects, before or after. */
  upsertPdb(key: string, pdb: SlimPdb, rv: string): string[] {
    const before = this.pdbs.get(key)
    const specKey = meaningfulPdbKey(pdb)
    this.pdbs.set(key, { pdb, key: specKey })
    if (before?.key === specKey) return []
    return this.touch(this.nodesSelectedBy([before?.pdb, pdb]), rv)
  }

  /** deletePdb forgets a PDB and touches the nodes of the pods it selected. */
  deletePdb(key: string, rv: string): string[] {
    const before = this.pdbs.get(key)
    if (!before) return []
    this.pdbs.delete(key)
    return this.touch(this.nodesSelectedBy([before.pdb]), rv)
  }

  /** keys lists the cache keys of one kind (relist diffs delete the ones the list no longer has). */
  keys(kind: 'node' | 'pod' | 'pdb'): string[] {
    return [...(kind === 'node' ? this.nodes : kind === 'pod' ? this.pods : this.pdbs).keys()]
  }

  /** node returns a stored node, or the tombstone of a deleted one. */
  node(name: string): { node: SlimNode; deleted: boolean } | undefined {
    const entry = this.nodes.get(name)
    if (entry) return { node: entry.node, deleted: false }
    const tombstone = this.tombstones.get(name)
    return tombstone ? { node: tombstone, deleted: true } : undefined
  }

  /** forgetTombstone drops a deleted node's last state once its final view is sent. */
  forgetTombstone(name: string): void {
    this.tombstones.delete(name)
    if (!this.nodes.has(name)) this.changeRvs.delete(name)
  }

  /** podsOn returns the pods bound to a node, sorted by namespace/name. */
  podsOn(nodeName: string): SlimPod[] {
    const keys = [...(this.podsByNode.get(nodeName) ?? [])].sort()
    return keys.flatMap((k) => {
      const entry = this.pods.get(k)
      return entry ? [JSON.parse(entry.json) as SlimPod] : []
    })
  }

  /** pdbsSelecting returns the PDBs in the pods' namespaces whose selector matches any of them, sorted. */
  pdbsSelecting(pods: readonly SlimPod[]): SlimPdb[] {
    const out: SlimPdb[] = []
    for (const { pdb } of this.pdbs.values()) {
      if (pods.some((p) => selects(pdb, p.namespace, p.labels))) out.push(pdb)
    }
    return out.sort((a, b) => compare(`${a.namespace}/${a.name}`, `${b.namespace}/${b.name}`))
  }

  zones(): ZoneSummary[] {
    return this.zoneCounts.summaries()
  }

  /** changeRvOf is the resourceVersion of the last meaningful change to a node's view ("" before any). */
  changeRvOf(nodeName: string): string {
    return this.changeRvs.get(nodeName) ?? ''
  }

  nodeNames(): string[] {
    return [...this.nodes.keys()]
  }

  /** counts reports how many objects of each kind are cached. */
  counts(): { nodes: number; pods: number; pdbs: number } {
    return { nodes: this.nodes.size, pods: this.pods.size, pdbs: this.pdbs.size }
  }

  private nodesSelectedBy(pdbs: (SlimPdb | undefined)[]): string[] {
    const nodes = new Set<string>()
    for (const pdb of pdbs) {
      if (!pdb?.selector) continue
      for (const entry of this.pods.values()) {
        if (entry.namespace !== pdb.namespace || nodes.has(entry.nodeName)) continue
        const pod = JSON.parse(entry.json) as SlimPod
        if (selects(pdb, pod.namespace, pod.labels)) nodes.add(entry.nodeName)
      }
    }
    return [...nodes]
  }

  private unindex(key: string, nodeName: string): void {
    const set = this.podsByNode.get(nodeName)
    set?.delete(key)
    if (set?.size === 0) this.podsByNode.delete(nodeName)
  }

  private touch(nodes: string[], rv: string): string[] {
    for (const n of nodes) this.changeRvs.set(n, rv)
    return nodes
  }
}

/** A PDB selects pods in its own namespace; a missing selector selects none, `{}` selects all (policy/v1). */
function selects(pdb: SlimPdb, namespace: string, labels: Record<string, string>): boolean {
  return pdb.namespace === namespace && pdb.selector != null && matchesLabelSelector(pdb.selector, labels)
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
