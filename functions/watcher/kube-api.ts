import { type KubeConfig, Watch } from '@kubernetes/client-node'
import fetch, { type RequestInit } from 'node-fetch'

/**
 * The watcher's Kubernetes adapter. Authentication, TLS and the server come from client-node's
 * KubeConfig (in-cluster, kubeconfig or EKS, via `shared/kube`); watches use client-node's
 * `Watch`. Lists and Lease calls go through the same node-fetch stack as `Watch`, as raw JSON,
 * so list items and watch events share one shape (timestamps stay strings; client-node's typed
 * API would turn them into Dates) and every request carries a timeout.
 */

export type ListPage = { items: unknown[]; resourceVersion: string; continueToken: string | undefined }
export type WatchEnd = { kind: 'closed' } | { kind: 'failed'; error: Error & { statusCode?: number } }
export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR'

/** KubeApiError is a non-2xx answer; `status` lets callers branch on 404, 409 and 410. */
export class KubeApiError extends Error {
  override name = 'KubeApiError'
  constructor(
    message: string,
    readonly status: number,
    readonly reason?: string,
  ) {
    super(message)
  }
}

export type KubeApi = {
  listPage(path: string, options: { limit: number; continueToken?: string }, signal: AbortSignal): Promise<ListPage>
  watch(
    path: string,
    params: { resourceVersion: string; timeoutSeconds: number },
    onEvent: (type: WatchEventType, object: unknown) => void,
    signal: AbortSignal,
  ): Promise<WatchEnd>
  request(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<unknown>
}

/** createKubeApi binds the adapter to a KubeConfig; `timeoutMs` bounds every list page and Lease call. */
export function createKubeApi(kc: KubeConfig, timeoutMs = 30_000): KubeApi {
  const server = () => {
    const cluster = kc.getCurrentCluster()
    if (!cluster) throw new Error('kubeconfig has no current cluster')
    return cluster.server.replace(/\/$/, '')
  }
  async function request(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<unknown> {
    const init = (await kc.applyToFetchOptions({ method })) as RequestInit
    const timeout = AbortSignal.timeout(timeoutMs)
    init.signal = signal ? AbortSignal.any([signal, timeout]) : timeout
    if (body !== undefined) {
      init.body = JSON.stringify(body)
      ;(init.headers as unknown as Headers).set('content-type', 'application/json')
    }
    let res: Awaited<ReturnType<typeof fetch>>
    try {
      res = await fetch(`${server()}${path}`, init)
    } catch (err) {
      throw new Error(`${method} ${path}`, { cause: err })
    }
    const text = await res.text()
    if (res.status < 200 || res.status > 299) {
      const status = parseStatus(text)
      throw new KubeApiError(
        `${method} ${path}: ${res.status} ${status.message ?? res.statusText}`,
        res.status,
        status.reason,
      )
    }
    return text === '' ? undefined : JSON.parse(text)
  }
  return {
    request: (method, path, body) => request(method, path, body),
    async listPage(path, options, signal) {
      const query = new URLSearchParams({ limit: String(options.limit) })
      if (options.continueToken) query.set('continue', options.continueToken)
      const list = (await request('GET', `${path}?${query}`, undefined, signal)) as {
        items?: unknown[]
        metadata?: { resourceVersion?: string; continue?: string }
      }
      return {
        items: list.items ?? [],
        resourceVersion: list.metadata?.resourceVersion ?? '',
        continueToken: list.metadata?.continue || undefined,
      }
    },
    watch: (path, params, onEvent, signal) => watchOnce(kc, path, params, onEvent, signal),
  }
}

/** watchOnce runs one watch request until the server closes it, it fails, or `signal` aborts it. */
function watchOnce(
  kc: KubeConfig,
  path: string,
  params: { resourceVersion: string; timeoutSeconds: number },
  onEvent: (type: WatchEventType, object: unknown) => void,
  signal: AbortSignal,
): Promise<WatchEnd> {
  return new Promise((resolve) => {
    let settled = false
    const finish = (end: WatchEnd) => {
      if (settled) return
      settled = true
      signal.removeEventListener('abort', onAbort)
      resolve(end)
    }
    let controller: AbortController | undefined
    // client-node only hands out its AbortController once response headers arrived; until then an
    // abort resolves at once and the late controller is aborted as soon as it shows up.
    const onAbort = () => {
      controller?.abort()
      finish({ kind: 'closed' })
    }
    signal.addEventListener('abort', onAbort)
    const query = {
      resourceVersion: params.resourceVersion,
      allowWatchBookmarks: true,
      timeoutSeconds: params.timeoutSeconds,
    }
    new Watch(kc)
      .watch(
        path,
        query,
        (type, object) => {
          if (!settled) onEvent(type as WatchEventType, object)
        },
        (err: unknown) => {
          if (err == null || signal.aborted || (err as Error).name === 'AbortError') finish({ kind: 'closed' })
          else finish({ kind: 'failed', error: err as Error & { statusCode?: number } })
        },
      )
      .then(
        (c) => {
          controller = c
          if (signal.aborted) c.abort()
        },
        (err: unknown) => finish({ kind: 'failed', error: err as Error }),
      )
  })
}

function parseStatus(text: string): { message?: string; reason?: string } {
  try {
    const status = JSON.parse(text) as { message?: unknown; reason?: unknown }
    return {
      ...(typeof status.message === 'string' ? { message: status.message } : {}),
      ...(typeof status.reason === 'string' ? { reason: status.reason } : {}),
    }
  } catch {
    return {}
  }
}
