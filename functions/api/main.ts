/**
 * Trigger: `tsx functions/api/main.ts` (or `startApi` from the local runner). Job: serve the api's
 * hono app on loopback with @hono/node-server. Output: an HTTP server until stopped.
 */
import { serve } from '@hono/node-server'
import { createLogger } from '../../shared/log.ts'
import { type ApiDeps, createApp } from './app.ts'
import { createApiDeps, loadApiConfig } from './wiring.ts'

export type RunningApi = { url: string; port: number; close: () => Promise<void> }

/** startApi serves the api on `host:port` (0 picks a free port) and resolves once it listens. */
export function startApi(deps: ApiDeps, options: { port?: number; host?: string } = {}): Promise<RunningApi> {
  const host = options.host ?? '127.0.0.1'
  return new Promise((resolve) => {
    const server = serve({ fetch: createApp(deps).fetch, port: options.port ?? 0, hostname: host }, (info) => {
      resolve({
        url: `http://${host}:${info.port}`,
        port: info.port,
        close: () => new Promise<void>((done) => server.close(() => done())),
      })
    })
  })
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const config = loadApiConfig(process.env)
  const log = createLogger('api', config.LOG_LEVEL)
  const api = await startApi(createApiDeps(config, { log }), { port: config.PORT })
  log.info('api listening', { url: api.url })
}
