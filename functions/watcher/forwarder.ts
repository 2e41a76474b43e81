import type { Log } from '../../shared/log.ts'
import { MessageError } from '../../shared/messages/envelope.ts'
import type { NodeStats, NodeView, PodUsage } from '../../shared/messages/index.ts'
import type { OutgoingMessage } from '../../shared/sqs/batches.ts'
import { backoffDelayMs, type RetryPolicy } from '../../shared/sqs/retry.ts'
import { SendMessagesError } from '../../shared/sqs/transport.ts'
import { assembleNodeView, type ViewCause, viewDeduplicationId } from './assemble-node-view.ts'
import { fitNodeView, ViewTooLargeError } from './fit-node-view.ts'
import type { WatcherMetrics } from './metrics.ts'
import type { PendingViews } from './pending-views.ts'
import type { SlimCache } from './slim-cache.ts'

export type ForwarderDeps = {
  cache: SlimCache
  pending: PendingViews
  /** Sends to the events FIFO queue (shared/sqs `sendMessages`); throws SendMessagesError naming what it could not send. */
  send: (messages: OutgoingMessage[]) => Promise<void>
  /** Renders a view as a queue body (CloudEvents envelope, compressed when large). */
  render: (view: NodeView, id: string) => string
  now: () => Date
  random: () => number
  sleep: (ms: number, signal: AbortSignal) => Promise<void>
  isLeader: () => boolean
  log: Log
  metrics: WatcherMetrics
  /** The node's latest kubelet stats (pressure relief), attached to its view; absent when not collected. */
  statsOf?: (node: string) => NodeStats | undefined
}

export type ForwarderOptions = {
  /** Views per SendMessageBatch call (SQS allows 10). */
  batchSize: number
  /** Batches in flight at once (each node is in at most one). */
  concurrency: number
  resyncPeriodMs: number
  backoff: RetryPolicy
  maxBytes?: number
}

type Prepared = { node: string; cause: ViewCause; id: string; deleted: boolean; message: OutgoingMessage }

/**
 * Forwarder sends pending views while this replica leads: a few workers each take a batch of
 * pending nodes, assemble their views from the cache (latest state), fit them to the SQS limit,
 * and send them with group = node name and dedup id = node uid + view hash. A view the queue
 * refuses is marked pending again and the worker backs off; nothing here ever throws out of `run`.
 */
export class Forwarder {
  private waiters: (() => void)[] = []
  private readonly lastSent = new Map<string, string>()

  constructor(
    private readonly options: ForwarderOptions,
    private readonly deps: ForwarderDeps,
  ) {}

  /** notify wakes idle workers: views were marked, or leadership changed. */
  notify(): void {
    const waiters = this.waiters
    this.waiters = []
    for (const wake of waiters) wake()
  }

  /** run drives the workers until `signal` aborts, then waits for the sends in flight. */
  async run(signal: AbortSignal): Promise<void> {
    const stop = () => this.notify()
    signal.addEventListener('abort', stop)
    try {
      await Promise.all(Array.from({ length: this.options.concurrency }, () => this.work(signal)))
    } finally {
      signal.removeEventListener('abort', stop)
    }
  }

  /** forgetSent clears what was sent (a new leader term starts from nothing). */
  forgetSent(): void {
    this.lastSent.clear()
  }

  private async work(signal: AbortSignal): Promise<void> {
    let failures = 0
    while (!signal.aborted) {
      this.deps.metrics.pendingViews.set(this.deps.pending.size)
      if (!this.deps.isLeader() || this.deps.pending.ready() === 0) {
        await new Promise<void>((resolve) => this.waiters.push(resolve))
        continue
      }
      const failed = await this.sendBatch(this.deps.pending.take(this.options.batchSize))
      failures = failed ? failures + 1 : 0
      if (failed) await this.deps.sleep(backoffDelayMs(failures, this.deps.random, this.options.backoff), signal)
    }
  }

  /** sendBatch sends one batch; true when some view was refused and must be retried. */
  private async sendBatch(items: { node: string; cause: ViewCause }[]): Promise<boolean> {
    const prepared: Prepared[] = []
    for (const item of items) {
      const p = this.prepare(item.node, item.cause)
      if (p) prepared.push(p)
      else this.deps.pending.settle(item.node)
    }
    if (prepared.length === 0) return false
    let failed = new Set<number>()
    try {
      await this.deps.send(prepared.map((p) => p.message))
    } catch (err) {
      failed = err instanceof SendMessagesError ? new Set(err.failed.map((f) => f.index)) : new Set(prepared.keys())
      this.deps.log.warn('send failed', { views: prepared.length, failed: failed.size, error: (err as Error).message })
    }
    prepared.forEach((p, i) => {
      if (failed.has(i)) {
        this.deps.metrics.sendFailures.inc()
        this.deps.pending.settle(p.node, p.cause)
        return
      }
      this.deps.pending.settle(p.node)
      this.deps.metrics.viewsSent.inc({ cause: p.cause })
      if (p.deleted) {
        this.deps.cache.forgetTombstone(p.node)
        this.lastSent.delete(p.node)
      } else this.lastSent.set(p.node, p.id)
    })
    this.notify()
    return failed.size > 0
  }

  /** prepare assembles and renders one node's view, or returns undefined when there is nothing to send. */
  private prepare(node: string, cause: ViewCause): Prepared | undefined {
    const now = this.deps.now()
    const assembled = assembleNodeView(this.deps.cache, node, cause, now)
    if (!assembled) return undefined
    const stats = assembled.cause === 'deleted' ? undefined : this.deps.statsOf?.(node)
    const view = stats ? { ...assembled, stats: statsForPods(stats, assembled.pods) } : assembled
    const round = cause === 'resync' ? Math.floor(now.getTime() / this.options.resyncPeriodMs) : undefined
    const id = viewDeduplicationId(view, this.deps.cache.changeRvOf(node), round)
    if (this.lastSent.get(node) === id) return undefined
    try {
      const fitted = fitNodeView(view, (v) => this.deps.render(v, id), this.options.maxBytes)
      if (fitted.droppedPods > 0) {
        this.deps.metrics.viewsTruncated.inc()
        this.deps.log.warn('view trimmed to fit', { node, droppedPods: fitted.droppedPods, bytes: fitted.bytes })
      }
      const message = { body: fitted.body, groupId: node, deduplicationId: id }
      return { node, cause: view.cause, id, deleted: view.cause === 'deleted', message }
    } catch (err) {
      // ViewTooLargeError, a MessageError from the schema, or a bug: logged and counted, never thrown.
      const kind = err instanceof ViewTooLargeError || err instanceof MessageError ? err.name : 'Error'
      this.deps.metrics.viewsUnsendable.inc()
      this.deps.log.error('view not sendable', { node, kind, error: (err as Error).message })
      return undefined
    }
  }
}

/**
 * statsForPods keeps the usage of the pods the view carries (a pod gone since the sample is dropped),
 * and of each pod's volumes only those it declares local (`localVolumes`): the rest — secret,
 * projected, memory-backed — never count for disk ranking, so the view does not carry them.
 */
function statsForPods(stats: NodeStats, pods: NodeView['pods']): NodeStats {
  const local = new Map(pods.map((p) => [p.uid, p.localVolumes]))
  const kept: PodUsage[] = []
  for (const usage of stats.pods) {
    if (!local.has(usage.uid)) continue
    if (!usage.volumes) {
      kept.push(usage)
      continue
    }
    const names = local.get(usage.uid)
    const volumes = names ? usage.volumes.filter((v) => names.includes(v.name)) : []
    const { volumes: _all, ...rest } = usage
    kept.push(volumes.length > 0 ? { ...rest, volumes } : rest)
  }
  return { ...stats, pods: kept }
}
