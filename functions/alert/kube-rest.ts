import http from 'node:http'
import https from 'node:https'

/**
 * A minimal Kubernetes REST client on node:http(s): JSON in, JSON out, bearer token, cluster CA.
 * The alert function and the api read and write a handful of paths; @kubernetes/client-node
 * (~1.5 MB bundled, ECOSYSTEM.md §7) stays out of their bundles.
 */
export type KubeEndpoint = {
  /** `https://…` API server (or the emulator's `http://127.0.0.1:port`). */
  server: string
  /** Base64 PEM of the cluster CA, for https servers not signed by a public CA. */
  caData?: string
  /** Bearer token source (service account, EKS IAM token); undefined sends no Authorization. */
  token?: () => Promise<string | undefined>
  timeoutMs?: number
}

export type KubeResponse = { status: number; body: unknown }
export type KubeRest = (method: string, path: string, body?: unknown, contentType?: string) => Promise<KubeResponse>

/** createKubeRest returns a request function bound to one API server; network failures throw with the path. */
export function createKubeRest(endpoint: KubeEndpoint): KubeRest {
  const base = new URL(endpoint.server)
  const isHttps = base.protocol === 'https:'
  const agent = isHttps
    ? new https.Agent({ keepAlive: true, ...(endpoint.caData ? { ca: Buffer.from(endpoint.caData, 'base64') } : {}) })
    : new http.Agent({ keepAlive: true })
  const timeoutMs = endpoint.timeoutMs ?? 10_000
  return async (method, path, body, contentType = 'application/json') => {
    const token = await endpoint.token?.()
    const payload = body === undefined ? undefined : JSON.stringify(body)
    const headers: Record<string, string> = { accept: 'application/json' }
    if (token) headers.authorization = `Bearer ${token}`
    if (payload !== undefined) headers['content-type'] = contentType
    const url = new URL(path.replace(/^\//, ''), base.href.endsWith('/') ? base.href : `${base.href}/`)
    try {
      return await send(isHttps ? https.request : http.request, url, { method, agent, headers }, payload, timeoutMs)
    } catch (err) {
      throw new Error(`${method} ${path}`, { cause: err })
    }
  }
}

function send(
  request: typeof http.request,
  url: URL,
  options: http.RequestOptions,
  payload: string | undefined,
  timeoutMs: number,
): Promise<KubeResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, options, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('error', reject)
      res.on('end', () => {
        clearTimeout(timer)
        const text = Buffer.concat(chunks).toString('utf8')
        let body: unknown = text
        try {
          body = text ? JSON.parse(text) : undefined
        } catch {
          // a non-JSON body (proxy error page) is kept as text for the caller's message
        }
        resolve({ status: res.statusCode ?? 0, body })
      })
    })
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)
    req.on('error', (err) => {
      clearTimeout(timer)
      reject(err)
    })
    req.end(payload)
  })
}

/** statusMessage extracts a Kubernetes Status `message` (or a short text) for error reports. */
export function statusMessage(response: KubeResponse): string {
  const body = response.body as { message?: unknown } | string | undefined
  if (typeof body === 'object' && body && typeof body.message === 'string') return body.message
  return typeof body === 'string' ? body.slice(0, 200) : `HTTP ${response.status}`
}
