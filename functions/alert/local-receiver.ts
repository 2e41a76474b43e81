import { createHmac, timingSafeEqual } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

/** What the local receiver saw in one request. */
export type ReceivedAlert = {
  /** Parsed JSON body (CloudEvent, Slack message or Alertmanager payload). */
  payload: unknown
  headers: Record<string, string>
  /** true/false when a signing key was given, undefined otherwise. */
  verified: boolean | undefined
  receivedAt: Date
}

export type LocalReceiverOptions = {
  /** 0 picks a free port. */
  port?: number
  host?: string
  /** Verifies X-Nodewarden-Signature with this key when set. */
  signingKey?: string
  onAlert: (alert: ReceivedAlert) => void
}

export type LocalReceiver = { url: string; port: number; received: ReceivedAlert[]; close: () => Promise<void> }

/**
 * startLocalReceiver starts the local demo's webhook receiver on loopback: it answers 204 to every
 * POST, checks the signature when given the key, and hands each alert to `onAlert` (which prints it).
 */
export function startLocalReceiver(options: LocalReceiverOptions): Promise<LocalReceiver> {
  const received: ReceivedAlert[] = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]))
      let payload: unknown = raw
      try {
        payload = JSON.parse(raw)
      } catch {
        // not JSON: kept as text, still shown
      }
      const verified = options.signingKey === undefined ? undefined : verify(raw, headers, options.signingKey)
      const alert = { payload, headers, verified, receivedAt: new Date() }
      received.push(alert)
      res.writeHead(verified === false ? 401 : 204).end()
      options.onAlert(alert)
    })
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      resolve({
        url: `http://${options.host ?? '127.0.0.1'}:${port}/alerts`,
        port,
        received,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections()
            server.close(() => done())
          }),
      })
    })
  })
}

function verify(raw: string, headers: Record<string, string>, key: string): boolean {
  const timestamp = headers['x-nodewarden-timestamp'] ?? ''
  const given = Buffer.from(headers['x-nodewarden-signature'] ?? '')
  const want = Buffer.from(`sha256=${createHmac('sha256', key).update(`${timestamp}.${raw}`).digest('hex')}`)
  return given.length === want.length && timingSafeEqual(given, want)
}
