import { EMPTY_LEDGER, type Ledger } from '../../../functions/write/budget-ledger.ts'
import type { Cluster, EventSpec, EvictResult, WriteResult } from '../../../functions/write/cluster.ts'
import { type LiveNode, type LivePod, toLiveNode, toLivePod } from '../../../functions/write/live-objects.ts'
import type { ApiFailure } from '../../../shared/kube/api-failure.ts'
import type { NodeObject, PodObject } from '../../unit/write/fixtures.ts'

/**
 * An in-memory Cluster for flow tests: it keeps wire-shaped objects with resourceVersions,
 * answers 409 to writes planned from an older read, and records every effect it performed.
 */
export class FakeCluster implements Cluster {
  nodes = new Map<string, NodeObject>()
  pods = new Map<string, PodObject>()
  ledger: { ledger: Ledger; resourceVersion: string } = { ledger: EMPTY_LEDGER, resourceVersion: '1' }
  events = new Map<string, EventSpec>()
  effects: string[] = []
  /** Writes that fail with 409 before any check, to simulate a concurrent writer. */
  conflicts = 0
  /** What the next evictions answer, in order (default: evicted). */
  evictions: (EvictResult | 'throw')[] = []
  tolerationFailure?: ApiFailure
  private rv = 100

  constructor(nodes: NodeObject[] = [], pods: PodObject[] = []) {
    for (const n of nodes) this.nodes.set(n.metadata.name, structuredClone(n))
    for (const p of pods) this.pods.set(`${p.metadata.namespace}/${p.metadata.name}`, structuredClone(p))
  }

  readNode = async (name: string): Promise<LiveNode | null> => {
    const n = this.nodes.get(name)
    return n ? toLiveNode(n) : null
  }
  readPod = async (namespace: string, name: string): Promise<LivePod | null> => {
    const p = this.pods.get(`${namespace}/${name}`)
    return p ? toLivePod(p) : null
  }
  replaceNodeTaints: Cluster['replaceNodeTaints'] = async (node, taints, annotations, dryRun) => {
    const stored = this.nodes.get(node.metadata.name)
    if (!stored) return { kind: 'gone' }
    if (this.takeConflict() || stored.metadata.resourceVersion !== node.metadata.resourceVersion)
      return { kind: 'conflict' }
    if (dryRun) return { kind: 'written' }
    stored.spec.taints = structuredClone(taints) as NodeObject['spec']['taints']
    const merged: Record<string, string> = { ...stored.metadata.annotations }
    for (const [k, v] of Object.entries(annotations))
      if (v === null) delete merged[k]
      else merged[k] = v
    stored.metadata.annotations = merged
    this.bump(stored)
    this.effects.push(`taints ${node.metadata.name} ${taints.map((t) => `${t.key}:${t.effect}`).join(',')}`)
    return { kind: 'written' }
  }
  annotateNode: Cluster['annotateNode'] = async (node, annotations, dryRun) => {
    const stored = this.nodes.get(node.metadata.name)
    if (!stored) return { kind: 'gone' }
    if (this.takeConflict() || stored.metadata.resourceVersion !== node.metadata.resourceVersion)
      return { kind: 'conflict' }
    if (dryRun) return { kind: 'written' }
    const merged: Record<string, string> = { ...stored.metadata.annotations }
    for (const [k, v] of Object.entries(annotations))
      if (v === null) delete merged[k]
      else merged[k] = v
    stored.metadata.annotations = merged
    this.bump(stored)
    this.effects.push(`annotate ${node.metadata.name} ${Object.keys(annotations).join(',')}`)
    return { kind: 'written' }
  }
  evictPod: Cluster['evictPod'] = async (pod, { dryRun }) => {
    const next = this.evictions.shift() ?? { kind: 'evicted' }
    if (next === 'throw') throw new Error('HTTP 500 from a flaky API server')
    if (next.kind !== 'evicted') return next
    const key = `${pod.metadata.namespace}/${pod.metadata.name}`
    const stored = this.pods.get(key)
    if (!stored) return { kind: 'gone' }
    if (stored.metadata.uid !== pod.metadata.uid) return { kind: 'conflict' }
    if (!dryRun) {
      this.pods.delete(key)
      this.effects.push(`evict ${key}`)
    }
    return { kind: 'evicted' }
  }
  addPodTolerations: Cluster['addPodTolerations'] = async (pod, tolerations, dryRun) => {
    const stored = this.pods.get(`${pod.metadata.namespace}/${pod.metadata.name}`)
    if (!stored) return { kind: 'gone' }
    if (this.tolerationFailure) return { kind: 'invalid', failure: this.tolerationFailure }
    if (this.takeConflict() || stored.metadata.resourceVersion !== pod.metadata.resourceVersion)
      return { kind: 'conflict' }
    if (!dryRun) {
      stored.spec.tolerations = structuredClone(tolerations) as PodObject['spec']['tolerations']
      this.bump(stored)
      this.effects.push(`tolerations ${pod.metadata.name} ${tolerations.length}`)
    }
    return { kind: 'written' }
  }
  deletePod: Cluster['deletePod'] = async (pod, dryRun, gracePeriodSeconds): Promise<WriteResult> => {
    const key = `${pod.metadata.namespace}/${pod.metadata.name}`
    const stored = this.pods.get(key)
    if (!stored) return { kind: 'gone' }
    if (stored.metadata.uid !== pod.metadata.uid) return { kind: 'conflict' }
    if (!dryRun) {
      this.pods.delete(key)
      this.effects.push(`delete ${key}${gracePeriodSeconds === undefined ? '' : ` grace ${gracePeriodSeconds}`}`)
    }
    return { kind: 'written' }
  }
  recordEvent = async (event: EventSpec): Promise<void> => {
    if (!this.events.has(event.name)) this.effects.push(`event ${event.reason} ${event.regarding.name}`)
    this.events.set(event.name, event)
  }
  readLedger = async () => structuredClone(this.ledger)
  writeLedger: Cluster['writeLedger'] = async (ledger, resourceVersion, dryRun) => {
    if (resourceVersion !== this.ledger.resourceVersion) return 'conflict'
    if (!dryRun) this.ledger = { ledger: structuredClone(ledger), resourceVersion: String(++this.rv) }
    return 'written'
  }

  private takeConflict(): boolean {
    if (this.conflicts === 0) return false
    this.conflicts--
    // A concurrent writer changed the object: its resourceVersion moves on.
    for (const n of this.nodes.values()) this.bump(n)
    for (const p of this.pods.values()) this.bump(p)
    return true
  }
  private bump(o: { metadata: { resourceVersion: string } }): void {
    o.metadata.resourceVersion = String(++this.rv)
  }
}
