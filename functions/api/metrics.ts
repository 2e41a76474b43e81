import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client'

export type ApiMetrics = {
  registry: Registry
  requests: Counter<'method' | 'route' | 'status'>
  duration: Histogram<'method' | 'route'>
  testDeliveries: Counter<'outcome'>
}

/** createApiMetrics builds a private Prometheus registry (never the global one, so tests and apps stay apart). */
export function createApiMetrics(options: { defaults?: boolean } = {}): ApiMetrics {
  const registry = new Registry()
  if (options.defaults ?? true) collectDefaultMetrics({ register: registry, prefix: 'nodewarden_api_' })
  return {
    registry,
    requests: new Counter({
      name: 'nodewarden_api_requests_total',
      help: 'API requests by method, route template and status.',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'nodewarden_api_request_duration_seconds',
      help: 'API request duration by method and route template.',
      labelNames: ['method', 'route'],
      buckets: [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
      registers: [registry],
    }),
    testDeliveries: new Counter({
      name: 'nodewarden_api_test_deliveries_total',
      help: 'Test alerts sent through POST /subscriptions/{id}/test, by outcome.',
      labelNames: ['outcome'],
      registers: [registry],
    }),
  }
}
