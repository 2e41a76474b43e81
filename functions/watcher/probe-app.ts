import { Hono } from 'hono'
import type { Registry } from 'prom-client'

export type Probe = {
  /** Liveness: undefined while the process's loops make progress, else why they do not (answered with 503). */
  unhealthyReason: () => string | undefined
  /** The first full list of nodes, pods and PDBs is done (readiness). */
  isReady: () => boolean
  registry: Registry
}

/** createProbeApp serves `/healthz`, `/readyz` and `/metrics` (Prometheus text format). */
export function createProbeApp(probe: Probe): Hono {
  const app = new Hono()
  app.get('/healthz', (c) => {
    const reason = probe.unhealthyReason()
    return reason === undefined ? c.text('ok') : c.text(reason, 503)
  })
  app.get('/readyz', (c) => (probe.isReady() ? c.text('ok') : c.text('not synced yet', 503)))
  app.get('/metrics', async (c) =>
    c.body(await probe.registry.metrics(), 200, { 'content-type': probe.registry.contentType }),
  )
  return app
}
