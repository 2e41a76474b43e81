import type { Log } from '../../shared/log.ts'
import type { SlimNode, SlimPdb, SlimPod } from '../../shared/messages/index.ts'
import type { ViewCause } from './assemble-node-view.ts'
import type { ResourceSink } from './list-watch.ts'
import type { WatcherMetrics } from './metrics.ts'
import type { SlimCache } from './slim-cache.ts'

export type ResourceKind = 'node' | 'pod' | 'pdb'

/** The full-object → slim converters (shared/kube-slim); each throws on an object it cannot read. */
export type SlimConverters = {
  node: (object: unknown) => SlimNode
  pod: (object: unknown) => SlimPod
  pdb: (object: unknown) => SlimPdb
}

export type SinkDeps = {
  cache: SlimCache
  convert: SlimConverters
  metrics: WatcherMetrics
  log: Log
  /** Before the first full sync nothing is marked: the sync itself marks every node. */
  isSynced: () => boolean
  mark: (node: string, cause: ViewCause) => void
}

/** How many distinct bad objects are remembered, so each is logged once without unbounded memory. */
const REJECTED_MEMORY = 10_000

/**
 * createSink turns raw listed/watched objects of one kind into slim cache updates: the full object
 * is converted on receipt and dropped; a change marks the affected nodes' views pending, anything
 * else is counted as absorbed. An object that cannot be read is logged once with its name, counted,
 * and skipped (its previous slim state, if any, stays) — it never stops the watch loop.
 */
export function createSink(kind: ResourceKind, deps: SinkDeps): ResourceSink {
  const rejected = new Set<string>()
  const change = (dirty: string[], cause: ViewCause) => {
    if (dirty.length === 0) deps.metrics.eventsAbsorbed.inc({ resource: kind })
    else if (deps.isSynced()) for (const node of dirty) deps.mark(node, cause)
  }
  const remove = (key: string, rv: string): string[] => {
    rejected.delete(key)
    if (kind === 'node') return deps.cache.deleteNode(key, rv)
    if (kind === 'pod') return deps.cache.deletePod(key, rv)
    return deps.cache.deletePdb(key, rv)
  }
  const reject = (key: string, err: unknown) => {
    deps.metrics.objectsRejected.inc({ resource: kind })
    if (rejected.has(key)) return
    if (rejected.size >= REJECTED_MEMORY) rejected.clear()
    rejected.add(key)
    deps.log.warn('object rejected', { resource: kind, name: key, error: errorText(err) })
  }
  return {
    apply(type, object, phase) {
      deps.metrics.eventsReceived.inc({ resource: kind })
      const meta = metadataOf(object)
      if (!meta) {
        reject('(unnamed)', new Error('object has no metadata.name'))
        return undefined
      }
      const key = kind === 'node' ? meta.name : `${meta.namespace}/${meta.name}`
      const cause: ViewCause = phase === 'list' ? 'relist' : kind
      if (type === 'DELETED') {
        change(remove(key, meta.resourceVersion), cause)
        return key
      }
      try {
        if (kind === 'node')
          change(deps.cache.upsertNodeObject(meta.name, object, meta.resourceVersion, deps.convert.node), cause)
        else if (kind === 'pod')
          change(deps.cache.upsertPod(key, deps.convert.pod(object), meta.resourceVersion), cause)
        else change(deps.cache.upsertPdb(key, deps.convert.pdb(object), meta.resourceVersion), cause)
        rejected.delete(key)
      } catch (err) {
        reject(key, err)
      }
      return key
    },
    keys: () => deps.cache.keys(kind),
    remove: (key, rv) => change(remove(key, rv), 'relist'),
  }
}

function metadataOf(object: unknown): { name: string; namespace: string; resourceVersion: string } | undefined {
  const meta = (object as { metadata?: { name?: unknown; namespace?: unknown; resourceVersion?: unknown } } | null)
    ?.metadata
  if (typeof meta?.name !== 'string' || meta.name === '') return undefined
  return {
    name: meta.name,
    namespace: typeof meta.namespace === 'string' ? meta.namespace : '',
    resourceVersion: typeof meta.resourceVersion === 'string' ? meta.resourceVersion : '',
  }
}

function errorText(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err)
  return text.length > 500 ? `${text.slice(0, 500)}…` : text
}
