/**
 * EmulatorStore: direct seeding and reading for tests, scenarios and generators, with the same
 * semantics as the HTTP API (resourceVersions, watch events, PDB status) but no pod-update
 * immutability and with status writable in one call. Returned objects are copies.
 */
import type { NodeStats, NodeStatsSchema } from './kubelet-summary.ts'
import type { PatchType } from './patch.ts'
import { resourceKey } from './resources.ts'
import { checkFieldSelector, parseFieldSelector, parseLabelSelector } from './selectors.ts'
import type { EmulatorState } from './state.ts'
import type { Filter, KubeObject } from './store.ts'

export type FacadeListOptions = { namespace?: string; labelSelector?: string; fieldSelector?: string }

export class EmulatorStore {
  constructor(
    private readonly state: EmulatorState,
    private readonly statsSchema: typeof NodeStatsSchema,
  ) {}

  /** create stores a new object (its namespace is created when missing) and returns the stored copy. */
  create(obj: KubeObject): KubeObject {
    const def = this.state.store.defForObject(obj)
    const copy = structuredClone(obj)
    copy.metadata = copy.metadata ?? {}
    const entry = this.state.ops.create(def, copy.metadata.namespace ?? 'default', copy, { privileged: true })
    return JSON.parse(entry.json)
  }

  /** get returns a copy of one object, or undefined; `namespace` is ignored for cluster-scoped types. */
  get(resource: string, namespace: string, name: string): KubeObject | undefined {
    const entry = this.state.store.getEntry(this.state.store.resolve(resource), namespace, name)
    return entry ? JSON.parse(entry.json) : undefined
  }

  /** list returns copies of the matching objects in key order. */
  list(resource: string, opts: FacadeListOptions = {}): KubeObject[] {
    const def = this.state.store.resolve(resource)
    const filter: Filter = {}
    if (opts.namespace) filter.namespace = opts.namespace
    if (opts.labelSelector) filter.labels = parseLabelSelector(opts.labelSelector)
    if (opts.fieldSelector) {
      filter.fields = parseFieldSelector(opts.fieldSelector)
      checkFieldSelector(resourceKey(def), filter.fields)
    }
    return this.state.store.listEntries(def, filter).items.map((e) => JSON.parse(e.json))
  }

  /** update replaces an object (status included); a metadata.resourceVersion makes it compare-and-swap. */
  update(obj: KubeObject): KubeObject {
    const def = this.state.store.defForObject(obj)
    const ns = def.namespaced ? (obj.metadata?.namespace ?? 'default') : ''
    const entry = this.state.ops.update(def, ns, obj.metadata?.name, structuredClone(obj), { privileged: true })
    return JSON.parse(entry.json)
  }

  /** patch applies a patch (merge by default) to one object, status included. */
  patch(resource: string, namespace: string, name: string, patch: unknown, type: PatchType = 'merge'): KubeObject {
    const def = this.state.store.resolve(resource)
    const entry = this.state.ops.patch(def, namespace, name, structuredClone(patch), type, { privileged: true })
    return JSON.parse(entry.json)
  }

  /**
   * delete removes an object now, or with `gracePeriodSeconds > 0` starts graceful deletion like the API;
   * returns the last version, or undefined if it did not exist.
   */
  delete(resource: string, namespace: string, name: string, opts: { gracePeriodSeconds?: number } = {}) {
    const def = this.state.store.resolve(resource)
    if (!this.state.store.getEntry(def, namespace, name)) return undefined
    const entry = this.state.ops.delete(def, namespace, name, { gracePeriodSeconds: opts.gracePeriodSeconds ?? 0 })
    return JSON.parse(entry.json) as KubeObject
  }

  /** setNodeStats merges simulated kubelet stats for a node (served by the stats/summary proxy). */
  setNodeStats(node: string, stats: NodeStats): void {
    const parsed = this.statsSchema.parse(stats)
    const current = this.state.nodeStats.get(node) ?? {}
    this.state.nodeStats.set(node, { ...current, ...parsed, pods: { ...current.pods, ...parsed.pods } })
  }

  /** nodeStats returns the simulated stats set for a node. */
  nodeStats(node: string): NodeStats {
    return structuredClone(this.state.nodeStats.get(node) ?? {})
  }

  /** resourceVersion is the newest resourceVersion handed out. */
  resourceVersion(): string {
    return String(this.state.store.currentRv)
  }

  /** count returns how many objects of a type are stored. */
  count(resource: string): number {
    return this.state.store.count(this.state.store.resolve(resource))
  }
}
