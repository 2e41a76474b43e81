import { refreshSlimNode } from '../../shared/kube-slim/refresh-slim-node.ts'
import { toSlimNode } from '../../shared/kube-slim/to-slim-node.ts'
import type { SlimNode, SlimPdb, SlimPod, ZoneSummary } from '../../shared/messages/index.ts'
import { matchesLabelSelector } from '../../shared/policy/label-selector.ts'
import { PodStore } from './compact-pod.ts'
import { meaningfulNodeKey, meaningfulPdbKey } from './meaningful-change.ts'
import { ZoneCounts, type ZoneMembership, zoneMembershipOf } from './zone-counts.ts'

type NodeEntry = { node: SlimNode; zone: ZoneMembership }
type PdbEntry = { pdb: SlimPdb; key: string }

/**
 * SlimCache is the watcher's whole memory of the cluster: slim nodes, pods and PDBs, indexed by
 * node, with incremental zone counts. Every mutation returns the names of the nodes whose view
 * changed meaningfully (empty = absorbed) and stamps them with the resourceVersion that changed
 * them, which goes into the view hash so a state that returns (A → B → A) is not deduplicated away.
 */
export class SlimCache {
  private readonly nodes = new Map<string, NodeEntry>()
  /** Pods in compact form (compact-pod.ts); equal encodings mean "no meaningful change", as every field a slim pod keeps matters. */
  private readonly pods = new PodStore()
  private readonly pdbs = new Map<string, PdbEntry>()
  /**
   * PDBs by namespace: a PDB selects pods of its own namespace only, so a view looks at those alone.
   * `first` is the selector's first matchLabels pair, which a pod must have to match: most PDBs are
   * ruled out by that one lookup before the full selector runs.
   */
  private readonly pdbsByNamespace = new Map<string, Map<string, { pdb: SlimPdb; first?: [string, string] }>>()
  private readonly zoneCounts = new ZoneCounts()
  private readonly changeRvs = new Map<string, string>()
  private readonly tombstones = new Map<string, SlimNode>()

  /**
   * upsertNode stores a node; it is a change when its meaningful fields differ (or it is new). The
   * meaningful keys are rendered here rather than kept (a kilobyte per node): heartbeats take the
   * fast path of upsertNodeObject, so this runs for real changes and relists only.
   */
  upsertNode(node: SlimNode, rv: string): string[] {
    const before = this.nodes.get(node.name)
    const zone = zoneMembershipOf(node)
    this.zoneCounts.move(before?.zone, zone)
    this.nodes.set(node.name, { node, zone })
    this.tombstones.delete(node.name)
    const same = before !== undefined && meaningfulNodeKey(before.node) === meaningfulNodeKey(node)
    return same ? [] : this.touch([node.name], rv)
  }

  /**
   * upsertNodeObject stores a full Node object as it arrives from a list or watch. A heartbeat-only
   * update — nothing `toSlimNode` reads differs from the stored node but the resourceVersion,
   * heartbeats and condition messages — skips conversion and meaningful-key rendering: the stored
   * node is refreshed in place of converting (shared/kube-slim/refresh-slim-node.ts), which is
   * absorbed by definition. The fast path mirrors `toSlimNode`, so any other converter always takes
   * the full path. `convert` throws on a bad object.
   */
  upsertNodeObject(name: string, object: unknown, rv: string, convert: (object: unknown) => SlimNode): string[] {
    const before = convert === toSlimNode ? this.nodes.get(name) : undefined
    const refreshed = before && refreshSlimNode(before.node, object)
    if (before && refreshed) {
      before.node = refreshed
      return []
    }
    return this.upsertNode(convert(object), rv)
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
    const { nodeName } = pod
    if (!nodeName) return this.deletePod(key, rv)
    const dirty = this.pods.upsert(key, { ...pod, nodeName })
    return dirty.length === 0 ? [] : this.touch(dirty, rv)
  }

  /** deletePod forgets a pod; its node's view changes. */
  deletePod(key: string, rv: string): string[] {
    const nodeName = this.pods.delete(key)
    return nodeName === undefined ? [] : this.touch([nodeName], rv)
  }

  /** upsertPdb stores a PDB; a spec change touches every node running a pod it selects, before or after. */
  upsertPdb(key: string, pdb: SlimPdb, rv: string): string[] {
    const before = this.pdbs.get(key)
    const specKey = meaningfulPdbKey(pdb)
    this.pdbs.set(key, { pdb, key: specKey })
    if (before) this.unindexPdb(key, before.pdb)
    let inNamespace = this.pdbsByNamespace.get(pdb.namespace)
    if (!inNamespace) {
      inNamespace = new Map()
      this.pdbsByNamespace.set(pdb.namespace, inNamespace)
    }
    const first = Object.entries(pdb.selector?.matchLabels ?? {})[0]
    inNamespace.set(key, first ? { pdb, first } : { pdb })
    if (before?.key === specKey) return []
    return this.touch(this.nodesSelectedBy([before?.pdb, pdb]), rv)
  }

  /** deletePdb forgets a PDB and touches the nodes of the pods it selected. */
  deletePdb(key: string, rv: string): string[] {
    const before = this.pdbs.get(key)
    if (!before) return []
    this.pdbs.delete(key)
    this.unindexPdb(key, before.pdb)
    return this.touch(this.nodesSelectedBy([before.pdb]), rv)
  }

  /** keys lists the cache keys of one kind (relist diffs delete the ones the list no longer has). */
  keys(kind: 'node' | 'pod' | 'pdb'): string[] {
    return kind === 'pod' ? this.pods.keys() : [...(kind === 'node' ? this.nodes : this.pdbs).keys()]
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
    return this.pods.podsOn(nodeName)
  }

  /** pdbsSelecting returns the PDBs in the pods' namespaces whose selector matches any of them, sorted. */
  pdbsSelecting(pods: readonly SlimPod[]): SlimPdb[] {
    const byNamespace = new Map<string, SlimPod[]>()
    for (const pod of pods) {
      const list = byNamespace.get(pod.namespace)
      if (list) list.push(pod)
      else byNamespace.set(pod.namespace, [pod])
    }
    const out: SlimPdb[] = []
    for (const [namespace, inNamespace] of byNamespace) {
      for (const { pdb, first } of this.pdbsByNamespace.get(namespace)?.values() ?? []) {
        if (first && !inNamespace.some((p) => p.labels[first[0]] === first[1])) continue
        if (inNamespace.some((p) => selects(pdb, p.namespace, p.labels))) out.push(pdb)
      }
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

  /** podShapes is the number of distinct pod shapes held (how well pods share; see compact-pod.ts). */
  podShapes(): number {
    return this.pods.shapeCount
  }

  private nodesSelectedBy(pdbs: (SlimPdb | undefined)[]): string[] {
    const nodes = new Set<string>()
    for (const pdb of pdbs) {
      if (!pdb?.selector) continue
      // Labels live in the shape: each shape is judged once, not each pod.
      this.pods.nodesWith(
        pdb.namespace,
        (shape) => selects(pdb, shape.namespace, (JSON.parse(shape.json) as Pick<SlimPod, 'labels'>).labels ?? {}),
        nodes,
      )
    }
    return [...nodes]
  }

  private unindexPdb(key: string, pdb: SlimPdb): void {
    const inNamespace = this.pdbsByNamespace.get(pdb.namespace)
    inNamespace?.delete(key)
    if (inNamespace?.size === 0) this.pdbsByNamespace.delete(pdb.namespace)
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
