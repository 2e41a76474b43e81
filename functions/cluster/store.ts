/**
 * The emulator's storage: one monotonically increasing resourceVersion across all types, a bounded
 * history of watch events (older versions get 410 Gone), indexes by namespace and by node, and
 * each object serialised once per write so lists and watch fan-out reuse the same bytes.
 */
import { randomUUID } from 'node:crypto'
import { apiVersionOf, BUILTIN_RESOURCES, type ResourceDef, resourceKey, toCustomResourceDefs } from './resources.ts'
import { type FieldRequirement, matchesFields, matchesRequirements, type Requirement } from './selectors.ts'
import { alreadyExists, badRequest, conflict, gone, notFound } from './status.ts'

// biome-ignore lint/suspicious/noExplicitAny: Kubernetes objects are open JSON documents
export type KubeObject = { apiVersion?: string; kind?: string; metadata?: any; [key: string]: any }
export type Entry = { obj: KubeObject; json: string; key: string; rv: number }
export type EventType = 'ADDED' | 'MODIFIED' | 'DELETED'
export type StoreEvent = { type: EventType; rv: number; resource: string; entry: Entry; prev?: Entry; line?: string }
export type Filter = { namespace?: string; labels?: Requirement[]; fields?: FieldRequirement[] }
export type ListOptions = Filter & { limit?: number; continue?: string }
export type ListResult = { items: Entry[]; resourceVersion: string; continue?: string; remainingItemCount?: number }
export type Subscriber = { resource: string; filter: Filter; onEvent: (event: StoreEvent, type: EventType) => void }

class Table {
  readonly byNs = new Map<string, Map<string, Entry>>()
  /** pods only: spec.nodeName → keys, so `fieldSelector=spec.nodeName=` reads ~30 objects, not 150,000. */
  readonly byNode = new Map<string, Set<string>>()
  readonly all = new Map<string, Entry>()
  sorted: string[] | null = null
  constructor(readonly def: ResourceDef) {}
  sortedKeys(): string[] {
    if (!this.sorted) this.sorted = [...this.all.keys()].sort()
    return this.sorted
  }
}

/** entryLine renders one watch event line, once, shared by every watcher that receives it. */
export function entryLine(type: string, json: string): string {
  return `{"type":"${type}","object":${json}}\n`
}

function lowerBound(keys: string[], target: string): number {
  let lo = 0
  let hi = keys.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((keys[mid] as string) < target) lo = mid + 1
    else hi = mid
  }
  return lo
}

export type StoreOptions = { historyLimit: number; now: () => Date }

/** ObjectStore holds every object and watch subscription of one emulator. */
export class ObjectStore {
  private readonly tables = new Map<string, Table>()
  private readonly defsByPath = new Map<string, ResourceDef>()
  private readonly subscribers = new Map<string, Set<Subscriber>>()
  private readonly history: StoreEvent[] = []
  private historyStart = 0
  /** the newest resourceVersion no longer in history: watching from below it is 410 Gone. */
  private compactedRv = 0
  private rv = 0
  /** listeners run after every committed write (controllers: PDB status, CRD registration). */
  readonly afterWrite: Array<(event: StoreEvent) => void> = []

  constructor(private readonly options: StoreOptions) {
    for (const def of BUILTIN_RESOURCES) this.register(def)
  }

  /** currentRv is the newest resourceVersion handed out. */
  get currentRv(): number {
    return this.rv
  }
  get oldestWatchableRv(): number {
    return this.compactedRv
  }

  register(def: ResourceDef): void {
    this.defsByPath.set(`${def.group}/${def.version}/${def.resource}`, def)
    const key = resourceKey(def)
    if (!this.tables.has(key)) this.tables.set(key, new Table(def))
  }

  unregister(defs: ResourceDef[]): void {
    for (const def of defs) {
      this.defsByPath.delete(`${def.group}/${def.version}/${def.resource}`)
      const table = this.tables.get(resourceKey(def))
      if (table) for (const entry of [...table.all.values()]) this.commitDelete(table, entry)
      this.tables.delete(resourceKey(def))
    }
  }

  /** defs lists every served resource type (built-in and custom). */
  defs(): ResourceDef[] {
    return [...this.defsByPath.values()]
  }

  /** lookup finds a type by its URL coordinates. */
  lookup(group: string, version: string, resource: string): ResourceDef | undefined {
    return this.defsByPath.get(`${group}/${version}/${resource}`)
  }

  /** resolve finds a type by `pods`, `poddisruptionbudgets.policy`, or a kind (`PodDisruptionBudget`). */
  resolve(name: string): ResourceDef {
    const table = this.tables.get(name)
    if (table) return table.def
    const defs = this.defs()
    const found =
      defs.find((d) => d.resource === name && d.group === '') ??
      defs.find((d) => d.resource === name) ??
      defs.find((d) => d.kind === name && d.group === '') ??
      defs.find((d) => d.kind === name)
    if (!found) throw badRequest(`unknown resource type "${name}"`)
    return found
  }

  /** defForObject finds the type of an object from its apiVersion and kind. */
  defForObject(obj: KubeObject): ResourceDef {
    const found = this.defs().find((d) => apiVersionOf(d) === obj.apiVersion && d.kind === obj.kind)
    if (!found) throw badRequest(`no resource type serves apiVersion "${obj.apiVersion}" kind "${obj.kind}"`)
    return found
  }

  private table(def: ResourceDef): Table {
    const t = this.tables.get(resourceKey(def))
    if (!t) throw notFound(def.resource, def.group, '')
    return t
  }

  /** getEntry reads one stored entry, or undefined. */
  getEntry(def: ResourceDef, namespace: string, name: string): Entry | undefined {
    return this.table(def).all.get(`${def.namespaced ? namespace : ''}/${name}`)
  }

  /** mustGet reads one stored entry or throws the upstream 404. */
  mustGet(def: ResourceDef, namespace: string, name: string): Entry {
    const entry = this.getEntry(def, namespace, name)
    if (!entry) throw notFound(def.resource, def.group, name)
    return entry
  }

  /** listEntries returns matching entries in key order, paginated with upstream-shaped continue tokens. */
  listEntries(def: ResourceDef, opts: ListOptions = {}): ListResult {
    const table = this.table(def)
    let listRv = this.rv
    let start = ''
    if (opts.continue) {
      const token = decodeContinue(opts.continue)
      listRv = token.rv
      start = token.start
    }
    const ns = def.namespaced ? opts.namespace : undefined
    const nodeName =
      def.resource === 'pods' ? opts.fields?.find((f) => f.field === 'spec.nodeName' && f.op === '=') : undefined
    let keys: string[]
    let from: number
    if (nodeName) {
      keys = [...(table.byNode.get(nodeName.value) ?? [])].sort()
      from = start ? lowerBound(keys, start) : 0
    } else {
      keys = table.sortedKeys()
      const prefix = ns !== undefined ? `${ns}/` : ''
      from = lowerBound(keys, start && start > prefix ? start : prefix)
    }
    const limit = opts.limit && opts.limit > 0 ? opts.limit : Number.POSITIVE_INFINITY
    const items: Entry[] = []
    let i = from
    for (; i < keys.length && items.length < limit; i++) {
      const key = keys[i] as string
      if (ns !== undefined && !key.startsWith(`${ns}/`)) break
      const entry = table.all.get(key)
      if (entry && matches(entry.obj, { ...opts, namespace: ns })) items.push(entry)
    }
    // upstream returns a continue token when the page is full, even if nothing follows.
    let more = false
    for (let j = i; j < keys.length; j++) {
      const key = keys[j] as string
      if (ns !== undefined && !key.startsWith(`${ns}/`)) break
      const entry = table.all.get(key)
      if (entry && matches(entry.obj, { ...opts, namespace: ns })) {
        more = true
        break
      }
    }
    const result: ListResult = { items, resourceVersion: String(listRv) }
    if (more && items.length > 0) {
      result.continue = encodeContinue(listRv, `${(items[items.length - 1] as Entry).key}\u0000`)
    }
    return result
  }

  /** count returns how many objects of a type are stored. */
  count(def: ResourceDef): number {
    return this.table(def).all.size
  }

  /** namespaceExists reports whether a Namespace object exists. */
  namespaceExists(name: string): boolean {
    return this.tables.get('namespaces')?.all.has(`/${name}`) ?? false
  }

  /** insert stores a new object: assigns uid, creationTimestamp, generation and a resourceVersion. */
  insert(def: ResourceDef, obj: KubeObject, dryRun = false): Entry {
    const table = this.table(def)
    const meta = obj.metadata
    if (!meta.name && meta.generateName) meta.name = `${meta.generateName}${randomSuffix()}`
    const key = `${def.namespaced ? meta.namespace : ''}/${meta.name}`
    if (table.all.has(key)) throw alreadyExists(def.resource, def.group, meta.name)
    meta.uid = meta.uid ?? randomUUID()
    meta.creationTimestamp = meta.creationTimestamp ?? this.nowIso()
    meta.generation = 1
    delete meta.deletionTimestamp
    obj.apiVersion = apiVersionOf(def)
    obj.kind = def.kind
    return this.commit(table, key, obj, 'ADDED', undefined, dryRun)
  }

  /** replace stores a new version of an existing object; `expectRv` makes it a compare-and-swap (409 when stale). */
  replace(def: ResourceDef, obj: KubeObject, expectRv?: string, dryRun = false): Entry {
    const table = this.table(def)
    const meta = obj.metadata
    const key = `${def.namespaced ? meta.namespace : ''}/${meta.name}`
    const prev = table.all.get(key)
    if (!prev) throw notFound(def.resource, def.group, meta.name)
    if (expectRv !== undefined && expectRv !== '' && expectRv !== String(prev.rv))
      throw conflict(def.resource, def.group, meta.name)
    const old = prev.obj.metadata
    meta.uid = old.uid
    meta.creationTimestamp = old.creationTimestamp
    meta.generation = old.generation ?? 1
    if (old.deletionTimestamp && !meta.deletionTimestamp) {
      meta.deletionTimestamp = old.deletionTimestamp
      meta.deletionGracePeriodSeconds = old.deletionGracePeriodSeconds
    }
    obj.apiVersion = apiVersionOf(def)
    obj.kind = def.kind
    if (specChanged(prev.obj, obj)) meta.generation = (old.generation ?? 1) + 1
    return this.commit(table, key, obj, 'MODIFIED', prev, dryRun)
  }

  /** remove deletes an object now and returns its last version (with the deletion's resourceVersion). */
  remove(def: ResourceDef, namespace: string, name: string, dryRun = false): Entry {
    const table = this.table(def)
    const prev = this.mustGet(def, namespace, name)
    if (dryRun) return prev
    return this.commitDelete(table, prev)
  }

  private commitDelete(table: Table, prev: Entry): Entry {
    const obj = JSON.parse(prev.json) as KubeObject
    this.rv++
    obj.metadata.resourceVersion = String(this.rv)
    const entry: Entry = { obj, json: JSON.stringify(obj), key: prev.key, rv: this.rv }
    table.all.delete(prev.key)
    table.byNs.get(obj.metadata.namespace ?? '')?.delete(obj.metadata.name)
    if (table.def.resource === 'pods') unindexNode(table, prev)
    table.sorted = null
    this.publish({ type: 'DELETED', rv: this.rv, resource: resourceKey(table.def), entry, prev })
    return entry
  }

  private commit(
    table: Table,
    key: string,
    obj: KubeObject,
    type: EventType,
    prev: Entry | undefined,
    dryRun: boolean,
  ) {
    const rv = dryRun ? (prev?.rv ?? this.rv) : this.rv + 1
    obj.metadata.resourceVersion = String(rv)
    const entry: Entry = { obj, json: JSON.stringify(obj), key, rv }
    if (dryRun) return entry
    this.rv = rv
    table.all.set(key, entry)
    const ns = def(table).namespaced ? obj.metadata.namespace : ''
    const byNs = table.byNs.get(ns) ?? new Map<string, Entry>()
    table.byNs.set(ns, byNs)
    byNs.set(obj.metadata.name, entry)
    if (!prev) table.sorted = null
    if (table.def.resource === 'pods') {
      if (prev) unindexNode(table, prev)
      const node = obj.spec?.nodeName
      if (node) {
        const set = table.byNode.get(node) ?? new Set<string>()
        table.byNode.set(node, set)
        set.add(key)
      }
    }
    this.publish({ type, rv, resource: resourceKey(table.def), entry, ...(prev ? { prev } : {}) })
    return entry
  }

  private publish(event: StoreEvent): void {
    this.history.push(event)
    if (this.history.length - this.historyStart > this.options.historyLimit) {
      const dropped = this.history[this.historyStart] as StoreEvent
      this.compactedRv = dropped.rv
      this.history[this.historyStart] = undefined as unknown as StoreEvent
      this.historyStart++
      if (this.historyStart > 4096 && this.historyStart * 2 > this.history.length) {
        this.history.splice(0, this.historyStart)
        this.historyStart = 0
      }
    }
    for (const sub of this.subscribers.get(event.resource) ?? []) deliver(sub, event)
    for (const listener of this.afterWrite) listener(event)
  }

  /**
   * subscribe starts a watch: replays history after `fromRv` (or synthesises ADDED for current objects when
   * `fromRv` is undefined/"0"), then delivers live events. Throws 410 Gone when `fromRv` is older than the history.
   */
  subscribe(def: ResourceDef, filter: Filter, fromRv: string | undefined, onEvent: Subscriber['onEvent']): () => void {
    const resource = resourceKey(def)
    const sub: Subscriber = { resource, filter, onEvent }
    if (fromRv === undefined || fromRv === '' || fromRv === '0') {
      for (const entry of this.listEntries(def, filter).items)
        onEvent({ type: 'ADDED', rv: entry.rv, resource, entry }, 'ADDED')
    } else {
      const from = Number(fromRv)
      if (!Number.isInteger(from) || from < 0) throw badRequest(`invalid resource version "${fromRv}"`)
      if (from < this.compactedRv) throw gone(`too old resource version: ${from} (${this.compactedRv + 1})`)
      for (let i = this.historyStart; i < this.history.length; i++) {
        const event = this.history[i] as StoreEvent
        if (event.rv > from && event.resource === resource) deliver(sub, event)
      }
    }
    const set = this.subscribers.get(resource) ?? new Set<Subscriber>()
    this.subscribers.set(resource, set)
    set.add(sub)
    return () => set.delete(sub)
  }

  /** watcherCount reports live watch subscriptions (all types). */
  watcherCount(): number {
    let n = 0
    for (const set of this.subscribers.values()) n += set.size
    return n
  }

  /** forEachEntry visits every stored object of a type (no copy; do not mutate). */
  forEachEntry(def: ResourceDef, visit: (entry: Entry) => void, namespace?: string): void {
    const table = this.table(def)
    if (namespace !== undefined && def.namespaced) {
      for (const entry of table.byNs.get(namespace)?.values() ?? []) visit(entry)
    } else for (const entry of table.all.values()) visit(entry)
  }

  /** podsOnNode visits the pods bound to one node. */
  podsOnNode(nodeName: string): Entry[] {
    const table = this.tables.get('pods') as Table
    return [...(table.byNode.get(nodeName) ?? [])].map((k) => table.all.get(k)).filter((e): e is Entry => !!e)
  }

  /** customDefsFor returns the types a CRD object serves. */
  customDefsFor(crd: KubeObject): ResourceDef[] {
    return toCustomResourceDefs(crd as Parameters<typeof toCustomResourceDefs>[0])
  }

  nowIso(): string {
    return this.options
      .now()
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z')
  }
}

function def(table: Table): ResourceDef {
  return table.def
}

function unindexNode(table: Table, prev: Entry): void {
  const old = prev.obj.spec?.nodeName
  if (!old) return
  const set = table.byNode.get(old)
  set?.delete(prev.key)
  if (set && set.size === 0) table.byNode.delete(old)
}

function specChanged(a: KubeObject, b: KubeObject): boolean {
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (k === 'metadata' || k === 'status' || k === 'apiVersion' || k === 'kind') continue
    if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) return true
  }
  return false
}

/** matches applies namespace, label and field filters to one object. */
export function matches(obj: KubeObject, filter: Filter): boolean {
  if (filter.namespace !== undefined && filter.namespace !== '' && obj.metadata?.namespace !== filter.namespace)
    return false
  if (filter.labels && filter.labels.length > 0 && !matchesRequirements(filter.labels, obj.metadata?.labels))
    return false
  if (filter.fields && filter.fields.length > 0 && !matchesFields(filter.fields, obj)) return false
  return true
}

/** deliver turns a store event into what one filtered watcher sees (objects moving in/out become ADDED/DELETED). */
function deliver(sub: Subscriber, event: StoreEvent): void {
  const now = matches(event.entry.obj, sub.filter)
  if (event.type !== 'MODIFIED') {
    if (now) sub.onEvent(event, event.type)
    return
  }
  const before = event.prev ? matches(event.prev.obj, sub.filter) : false
  if (now && before) sub.onEvent(event, 'MODIFIED')
  else if (now) sub.onEvent(event, 'ADDED')
  else if (before) sub.onEvent(event, 'DELETED')
}

function randomSuffix(): string {
  const chars = 'bcdfghjklmnpqrstvwxz2456789'
  let s = ''
  for (let i = 0; i < 5; i++) s += chars[Math.floor(Math.random() * chars.length)]
  return s
}

/** encodeContinue builds an upstream-shaped continue token. */
export function encodeContinue(rv: number, start: string): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv, start })).toString('base64url')
}

function decodeContinue(token: string): { rv: number; start: string } {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { rv?: unknown; start?: unknown }
    if (typeof parsed.rv === 'number' && typeof parsed.start === 'string') return { rv: parsed.rv, start: parsed.start }
  } catch {
    // fall through to the upstream message below
  }
  throw badRequest(`continue key is not valid: ${token}`)
}
