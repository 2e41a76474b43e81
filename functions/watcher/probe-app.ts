import { Hono } from 'hono'
import type { Registry } from 'prom-client'

export type Probe = {
  /** The process's loops are running (liveness). */
  isHealthy: () => boolean
  /** The first full list of nodes, pods and PDBs is done (readiness). */
  isReady: () => boolean
  registry: Registry
}

/** createProbeApp serves `/healthz`, `/readyz` and `/metrics` (Prometheus text format). */
export function createProbeApp(probe: Probe): Hono {
  const app = new Hono()
  app.get('/healthz', (c) => (probe.isHealthy() ? c.text('ok') : c.text('stopped', 503)))
  app.get('/readyz', (c) => (probe.isReady() ? c.text('ok') : c.text('not synced yet', 503)))
  app.get('/metrics', async (c) =>
    c.body(await probe.registry.metrics(), 200, { 'content-type': probe.registry.contentType }),
  )
  return app
}
