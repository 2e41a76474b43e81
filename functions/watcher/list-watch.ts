import type { Log } from '../../shared/log.ts'
import { backoffDelayMs, type RetryPolicy } from '../../shared/sqs/retry.ts'
import { type KubeApi, KubeApiError, type WatchEnd, type WatchEventType } from './kube-api.ts'

/** Where listed and watched objects go; `apply` returns the object's cache key (undefined when it has none). */
export type ResourceSink = {
  apply(type: 'ADDED' | 'MODIFIED' | 'DELETED', object: unknown, phase: 'list' | 'watch'): string | undefined
  keys(): string[]
  /** remove deletes what a relist no longer returned: the deletions that happened while we were away. */
  remove(key: string, resourceVersion: string): void
}

export type ListWatchOptions = {
  resource: string
  path: string
  pageSize: number
  /** Server-side watch timeout; each watch picks a value in [t, 2t) so replicas do not reconnect in step. */
  watchTimeoutSeconds: number
  /** A watch silent this long (no event, no bookmark) is presumed dead and reopened. */
  idleTimeoutMs: number
  /** A watch that ends sooner than this without events counts as a failure for backoff (no hot loop). */
  minHealthyWatchMs: number
  backoff: RetryPolicy
}

export type ListWatchDeps = {
  api: Pick<KubeApi, 'listPage' | 'watch'>
  sink: ResourceSink
  log: Log
  now: () => number
  random: () => number
  sleep: (ms: number, signal: AbortSignal) => Promise<void>
  onRelist: (resource: string) => void
  onWatchEnd: (resource: string, reason: 'closed' | 'expired' | 'failed') => void
  /** Called on every list page and every watch event or bookmark read: the loop is making progress (liveness). */
  onProgress?: (resource: string) => void
}

/**
 * runListWatch is a reflector: list (paginated) and diff, then watch from the list's
 * resourceVersion with bookmarks, resume from the last resourceVersion seen after a close, relist
 * and diff on 410 Gone, and back off exponentially with full jitter after failures — including
 * watches that end at once, since client-node 1.4.0 has no backoff of its own. Resolves after
 * `signal` aborts; calls `onSynced` once, after the first complete list.
 */
export async function runListWatch(
  options: ListWatchOptions,
  deps: ListWatchDeps,
  signal: AbortSignal,
  onSynced: () => void,
): Promise<void> {
  let resourceVersion: string | undefined
  let failures = 0
  let synced = false
  const pause = async (reason: string, err?: unknown) => {
    failures++
    const ms = backoffDelayMs(failures, deps.random, options.backoff)
    deps.log.warn('watch backing off', {
      resource: options.resource,
      reason,
      failures,
      delayMs: ms,
      error: describe(err),
    })
    await deps.sleep(ms, signal)
  }
  while (!signal.aborted) {
    if (resourceVersion === undefined) {
      try {
        resourceVersion = await relist(options, deps, signal)
      } catch (err) {
        if (!signal.aborted) await pause('list failed', err)
        continue
      }
      deps.onRelist(options.resource)
      if (!synced) {
        synced = true
        onSynced()
      }
    }
    const started = deps.now()
    const { end, events, lastVersion } = await watchFrom(options, deps, resourceVersion, signal)
    if (signal.aborted) break
    resourceVersion = lastVersion
    const reason = end.kind === 'failed' && end.error.statusCode === 410 ? 'expired' : end.kind
    deps.onWatchEnd(options.resource, reason)
    if (reason === 'expired') resourceVersion = undefined
    const healthy = events > 0 || deps.now() - started >= options.minHealthyWatchMs
    if (reason === 'closed' && healthy) failures = 0
    else if (reason !== 'expired' || !healthy)
      await pause(`watch ${reason}`, end.kind === 'failed' ? end.error : undefined)
  }
}

/** relist reads every page and applies it; keys the list no longer has are removed. Returns the list's resourceVersion. */
async function relist(options: ListWatchOptions, deps: ListWatchDeps, signal: AbortSignal): Promise<string> {
  for (let restarts = 0; ; restarts++) {
    const seen = new Set<string>()
    let continueToken: string | undefined
    let listVersion: string | undefined
    try {
      do {
        const page = await deps.api.listPage(
          options.path,
          { limit: options.pageSize, ...(continueToken ? { continueToken } : {}) },
          signal,
        )
        listVersion ??= page.resourceVersion
        deps.onProgress?.(options.resource)
        for (const item of page.items) {
          const key = deps.sink.apply('ADDED', item, 'list')
          if (key !== undefined) seen.add(key)
        }
        continueToken = page.continueToken
      } while (continueToken !== undefined && !signal.aborted)
    } catch (err) {
      // An expired continue token (410) means the snapshot is gone: start the list again, once or twice.
      if (err instanceof KubeApiError && err.status === 410 && continueToken !== undefined && restarts < 2) continue
      throw new Error(`list ${options.path}`, { cause: err })
    }
    if (signal.aborted) return listVersion ?? ''
    for (const key of deps.sink.keys()) if (!seen.has(key)) deps.sink.remove(key, listVersion ?? '')
    return listVersion ?? ''
  }
}

/** watchFrom runs one watch from `resourceVersion`, ending it on an in-stream ERROR or a silent stream. */
async function watchFrom(
  options: ListWatchOptions,
  deps: ListWatchDeps,
  resourceVersion: string,
  signal: AbortSignal,
): Promise<{ end: WatchEnd; events: number; lastVersion: string }> {
  const local = new AbortController()
  const both = AbortSignal.any([signal, local.signal])
  let stop: WatchEnd | undefined
  let events = 0
  let lastVersion = resourceVersion
  // The idle timer runs on the real clock like the stream it guards. It is not re-armed per event
  // (hundreds a second): when it fires it checks the time of the last event and waits out the rest.
  let lastEventAt = performance.now()
  let idle: NodeJS.Timeout | undefined
  const check = () => {
    const quietMs = performance.now() - lastEventAt
    if (quietMs < options.idleTimeoutMs) {
      idle = setTimeout(check, options.idleTimeoutMs - quietMs)
      return
    }
    stop ??= { kind: 'failed', error: new Error(`no event or bookmark for ${options.idleTimeoutMs} ms`) }
    local.abort()
  }
  const onEvent = (type: WatchEventType, object: unknown) => {
    lastEventAt = performance.now()
    if (stop) return
    if (type !== 'ERROR') deps.onProgress?.(options.resource)
    if (type === 'ERROR') {
      const status = object as { code?: number; message?: string }
      const error = Object.assign(new Error(`watch error: ${status.message ?? 'unknown'}`), {
        statusCode: status.code ?? 500,
      })
      stop = { kind: 'failed', error }
      local.abort()
      return
    }
    const version = (object as { metadata?: { resourceVersion?: string } } | null)?.metadata?.resourceVersion
    if (type !== 'BOOKMARK') {
      events++
      deps.sink.apply(type, object, 'watch')
    }
    if (version) lastVersion = version
  }
  idle = setTimeout(check, options.idleTimeoutMs)
  const timeoutSeconds = Math.floor(options.watchTimeoutSeconds * (1 + deps.random()))
  try {
    const end = await deps.api.watch(options.path, { resourceVersion, timeoutSeconds }, onEvent, both)
    return { end: stop ?? end, events, lastVersion }
  } finally {
    clearTimeout(idle)
  }
}

function describe(err: unknown): string | undefined {
  if (err === undefined) return undefined
  const parts: string[] = []
  for (let e: unknown = err; e instanceof Error && parts.length < 4; e = e.cause) parts.push(e.message)
  return parts.length > 0 ? parts.join(': ') : String(err)
}
