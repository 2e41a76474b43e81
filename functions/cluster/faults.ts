/**
 * Per-test fault injection: added latency, error rates per route and verb, dropped watch connections,
 * forced 410 Gone on watches. Routes are resource keys (`pods`, `leases.coordination.k8s.io`) optionally
 * with a subresource (`pods/eviction`); a rule on `pods` also covers its subresources.
 */

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection' | 'proxy'

export type FaultRule = {
  /** `pods`, `nodes/status`, `pods/eviction`, `leases.coordination.k8s.io`; absent = every route. */
  resource?: string
  /** absent = every verb. */
  verb?: Verb
  /** HTTP status to answer with (500, 429, 409, 503, 410…); absent = latency only. */
  code?: number
  /** probability in [0,1] that a matching request is hit; default 1. */
  rate?: number
  /** stop after this many hits; default unlimited. */
  times?: number
  /** delay before answering (applies to every matching request, hit or not). */
  latencyMs?: number
  message?: string
}

export type Route = { resource: string; subresource?: string; verb: Verb }
export type LiveWatch = { resource: string; drop: () => void; expire: () => void }

const REASONS: Record<number, string> = {
  409: 'Conflict',
  410: 'Expired',
  429: 'TooManyRequests',
  500: 'InternalError',
  503: 'ServiceUnavailable',
  504: 'Timeout',
}

/** reasonFor returns the Status reason upstream uses for an HTTP code. */
export function reasonFor(code: number): string {
  return REASONS[code] ?? 'Unknown'
}

/** Faults holds the active rules and the live watch streams they can cut. */
export class Faults {
  private rules: Array<FaultRule & { hits: number }> = []
  private goneBudget = new Map<string, number>()
  readonly liveWatches = new Set<LiveWatch>()

  constructor(private readonly random: () => number = Math.random) {}

  /** inject adds a rule; returns a function that removes it. */
  inject(rule: FaultRule): () => void {
    const r = { ...rule, hits: 0 }
    this.rules.push(r)
    return () => {
      this.rules = this.rules.filter((x) => x !== r)
    }
  }

  /** latency adds `ms` of delay to matching requests. */
  latency(ms: number, match: Omit<FaultRule, 'latencyMs' | 'code'> = {}): () => void {
    return this.inject({ ...match, latencyMs: ms })
  }

  /** fail answers matching requests with `code` at `rate` (default 1), at most `times` times. */
  fail(code: number, match: Omit<FaultRule, 'code'> = {}): () => void {
    return this.inject({ ...match, code })
  }

  /** dropWatches closes every open watch stream (of one resource, or all) without an error event. */
  dropWatches(resource?: string): number {
    let n = 0
    for (const w of [...this.liveWatches]) {
      if (resource && w.resource !== resource) continue
      w.drop()
      n++
    }
    return n
  }

  /**
   * forceGone sends an ERROR 410 Expired event on every open watch (of one resource, or all) and ends it,
   * and answers the next `times` watch requests (default 1) with 410 too, as after an etcd compaction.
   */
  forceGone(resource = '*', times = 1): number {
    this.goneBudget.set(resource, (this.goneBudget.get(resource) ?? 0) + times)
    let n = 0
    for (const w of [...this.liveWatches]) {
      if (resource !== '*' && w.resource !== resource) continue
      w.expire()
      n++
    }
    return n
  }

  /** takeGone reports (and consumes) a forced 410 for a new watch on `resource`. */
  takeGone(resource: string): boolean {
    for (const key of [resource, '*']) {
      const left = this.goneBudget.get(key) ?? 0
      if (left > 0) {
        this.goneBudget.set(key, left - 1)
        return true
      }
    }
    return false
  }

  /** decide returns the latency and the error (if any) for one request. */
  decide(route: Route): { latencyMs: number; code?: number; message?: string } {
    let latencyMs = 0
    for (const r of this.rules) {
      if (!matchesRoute(r, route)) continue
      if (r.latencyMs) latencyMs += r.latencyMs
      if (r.code === undefined) continue
      if (r.times !== undefined && r.hits >= r.times) continue
      if (this.random() >= (r.rate ?? 1)) continue
      r.hits++
      return { latencyMs, code: r.code, ...(r.message ? { message: r.message } : {}) }
    }
    return { latencyMs }
  }

  /** clear removes every rule and pending forced 410. */
  clear(): void {
    this.rules = []
    this.goneBudget.clear()
  }
}

function matchesRoute(rule: FaultRule, route: Route): boolean {
  if (rule.verb && rule.verb !== route.verb) return false
  if (!rule.resource) return true
  const full = route.subresource ? `${route.resource}/${route.subresource}` : route.resource
  return rule.resource === full || rule.resource === route.resource
}
