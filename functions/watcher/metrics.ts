import { Counter, Gauge, Registry } from 'prom-client'

/**
 * The watcher's Prometheus metrics, on a registry of its own (two watchers in one process, as the
 * tests and `npm start` run them, must not share counters).
 */
export type WatcherMetrics = ReturnType<typeof createWatcherMetrics>

/** createWatcherMetrics registers every watcher metric on a fresh registry. */
export function createWatcherMetrics() {
  const registry = new Registry()
  const resource = ['resource'] as const
  const make = <T extends string>(name: string, help: string, labelNames: readonly T[] = []) =>
    new Counter({ name: `nodewarden_watcher_${name}`, help, labelNames, registers: [registry] })
  return {
    registry,
    eventsReceived: make('events_received_total', 'Objects received from lists and watches.', resource),
    eventsAbsorbed: make('events_absorbed_total', 'Objects received that changed nothing policy reads.', resource),
    objectsRejected: make(
      'objects_rejected_total',
      'Objects that could not be read (logged once per object).',
      resource,
    ),
    viewsSent: make('views_sent_total', 'NodeViews accepted by the events queue.', ['cause']),
    viewsTruncated: make('views_truncated_total', 'NodeViews trimmed to fit the SQS size limit.'),
    viewsUnsendable: make('views_unsendable_total', 'NodeViews that could not be rendered at all (logged as errors).'),
    sendFailures: make('send_failures_total', 'NodeViews the queue refused after retries (they are sent again).'),
    watchRestarts: make('watch_restarts_total', 'Watch streams that ended and were reopened.', ['resource', 'reason']),
    relists: make('relists_total', 'Complete lists (initial sync and after 410 Gone).', resource),
    leader: new Gauge({
      name: 'nodewarden_watcher_leader',
      help: '1 while this replica holds the Lease.',
      registers: [registry],
    }),
    pendingViews: new Gauge({
      name: 'nodewarden_watcher_pending_views',
      help: 'Nodes waiting for a view to be sent.',
      registers: [registry],
    }),
    cachedObjects: new Gauge({
      name: 'nodewarden_watcher_cached_objects',
      help: 'Slim objects in memory.',
      labelNames: resource,
      registers: [registry],
    }),
  }
}

/** counterValue reads a counter's total over all label values (for tests and `startWatcher().counters()`). */
export async function counterValue(counter: Counter<string>): Promise<number> {
  return (await counter.get()).values.reduce((sum, v) => sum + v.value, 0)
}
