import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import type { LookupFunction } from 'node:net'
import { checkAddress, checkTargetUrl, type EgressPolicy } from '../../shared/alerts/egress-guard.ts'
import { classifyStatus, type DeliveryOutcome } from '../../shared/alerts/retry-policy.ts'

export type WebhookRequest = { url: string; headers: Record<string, string>; body: string }
/** PostWebhook posts one signed body and says how it went; it never throws for a receiver's fault. */
export type PostWebhook = (request: WebhookRequest) => Promise<DeliveryOutcome>

export type PostWebhookOptions = {
  egress: EgressPolicy
  /** The whole exchange (DNS, connect, TLS, response headers) must finish within this: 5 s by default. */
  timeoutMs?: number
  /** Reads `Retry-After` dates against this clock. */
  now?: () => Date
  /** Keep-alive sockets per receiver. */
  maxSockets?: number
}

const BLOCKED = 'ENODEWARDENBLOCKED'

/**
 * createPostWebhook returns the webhook adapter: node:http(s) with keep-alive, no redirects
 * followed, a hard timeout, and the SSRF guard applied to the address actually connected to — the
 * DNS lookup filters resolved addresses through the egress policy, so a name that rebinds to
 * 169.254.169.254 or 127.0.0.1 between subscription and delivery is still refused.
 */
export function createPostWebhook(options: PostWebhookOptions): PostWebhook {
  const timeoutMs = options.timeoutMs ?? 5000
  const now = options.now ?? (() => new Date())
  const lookup = guardedLookup(options.egress)
  const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? 16, lookup }
  const agents = { 'http:': new http.Agent(agentOptions), 'https:': new https.Agent(agentOptions) }
  return (request) => {
    const url = new URL(request.url)
    const verdict = checkTargetUrl(url, options.egress)
    if (!verdict.allowed) return Promise.resolve({ kind: 'permanent', reason: `target refused: ${verdict.reason}` })
    const agent = agents[url.protocol as keyof typeof agents]
    const send = url.protocol === 'https:' ? https.request : http.request
    return new Promise<DeliveryOutcome>((resolve) => {
      let settled = false
      const settle = (outcome: DeliveryOutcome) => {
        if (!settled) resolve(outcome)
        settled = true
      }
      const req = send(url, {
        method: 'POST',
        agent,
        headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
      })
      // The timer also bounds a body that never ends: the socket is destroyed, never left to stall the function.
      const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)
      req.on('response', (res) => {
        settle(classifyStatus(res.statusCode ?? 0, retryAfterSeconds(res.headers['retry-after'], now())))
        res.on('error', () => undefined)
        res.on('end', () => clearTimeout(timer))
        res.resume() // the body is not read, only drained so the keep-alive socket is reused
      })
      req.on('error', (err: NodeJS.ErrnoException) => {
        clearTimeout(timer)
        if (err.code === BLOCKED) settle({ kind: 'permanent', reason: `target refused: ${err.message}` })
        else settle({ kind: 'retryable', reason: `request failed: ${err.code ?? err.message}` })
      })
      req.end(request.body)
    })
  }
}

/** guardedLookup resolves a host and keeps only the addresses the egress policy allows. */
function guardedLookup(policy: EgressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0)
      const refused: string[] = []
      const allowed = addresses.filter((a) => {
        const verdict = checkAddress(a.address, policy)
        if (!verdict.allowed) refused.push(verdict.reason)
        return verdict.allowed
      })
      const first = allowed[0]
      if (first === undefined) {
        const blocked: NodeJS.ErrnoException = new Error(refused.join('; ') || 'no address')
        blocked.code = BLOCKED
        return callback(blocked, '', 0)
      }
      if ((options as { all?: boolean }).all) return (callback as (e: null, a: LookupAddress[]) => void)(null, allowed)
      callback(null, first.address, first.family)
    })
  }
}

/** retryAfterSeconds reads a Retry-After header given in seconds or as an HTTP date. */
function retryAfterSeconds(header: string | undefined, now: Date): number | undefined {
  if (header === undefined) return undefined
  if (/^\d+$/.test(header.trim())) return Number(header)
  const at = Date.parse(header)
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now.getTime()) / 1000))
}
