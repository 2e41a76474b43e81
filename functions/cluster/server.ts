/**
 * The HTTP face of the emulator (node:http, no framework: watch streams and pre-serialised lists need
 * direct control of the response). Every failure becomes a Kubernetes `Status` with its code.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { parse as parseYaml } from 'yaml'
import {
  aggregatedDiscovery,
  aggregatedVersionFromAccept,
  apiGroup,
  legacyApiVersions,
  legacyGroupList,
  resourceList,
  SERVER_VERSION,
} from './discovery.ts'
import { evictPod } from './eviction.ts'
import type { Faults, Verb } from './faults.ts'
import { reasonFor } from './faults.ts'
import { renderSummary } from './kubelet-summary.ts'
import type { DeleteOptions, WriteOptions } from './operations.ts'
import { toPatchType } from './patch.ts'
import type { RequestLog, RequestRecord } from './request-log.ts'
import { apiVersionOf, resourceKey } from './resources.ts'
import { notFoundPath, parseResourcePath, type ResourceRoute } from './routes.ts'
import { checkFieldSelector, parseFieldSelector, parseLabelSelector } from './selectors.ts'
import type { EmulatorState } from './state.ts'
import { ApiError, badRequest, failureStatus, toApiError } from './status.ts'
import { type Entry, entryLine, type Filter, type KubeObject } from './store.ts'
import { hasTable, renderTable, wantsTable } from './table.ts'

export type ServerDeps = { state: EmulatorState; faults: Faults; requests: RequestLog; bookmarkIntervalMs: number }

type Ctx = {
  req: IncomingMessage
  res: ServerResponse
  url: URL
  query: URLSearchParams
  body: Buffer
  record: RequestRecord
}

const JSON_TYPE = 'application/json'

function send(ctx: Ctx, code: number, body: string, contentType = JSON_TYPE, headers: Record<string, string> = {}) {
  ctx.record.status = code
  if (ctx.res.headersSent) {
    ctx.res.end()
    return
  }
  ctx.res.writeHead(code, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body), ...headers })
  ctx.res.end(body)
}

function sendError(ctx: Ctx, err: unknown) {
  const apiErr = toApiError(err)
  send(ctx, apiErr.code, JSON.stringify(apiErr.toStatus()))
}

/** createRequestHandler returns the node:http handler for one emulator. */
export function createRequestHandler(deps: ServerDeps) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('error', () => res.destroy())
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://emulator')
      const query: Record<string, string> = {}
      for (const [k, v] of url.searchParams) query[k] = v
      const record: RequestRecord = {
        at: deps.state.now().toISOString(),
        method: req.method ?? 'GET',
        path: url.pathname,
        query,
        resource: url.pathname,
        verb: (req.method ?? 'GET').toLowerCase(),
        status: 0,
        ...(req.headers['content-type'] ? { contentType: req.headers['content-type'] } : {}),
        ...(req.headers['user-agent'] ? { userAgent: req.headers['user-agent'] } : {}),
      }
      deps.requests.add(record)
      const ctx: Ctx = { req, res, url, query: url.searchParams, body: Buffer.concat(chunks), record }
      handle(deps, ctx).catch((err) => {
        try {
          sendError(ctx, err)
        } catch {
          res.destroy()
        }
      })
    })
  }
}

async function handle(deps: ServerDeps, ctx: Ctx): Promise<void> {
  const path = ctx.url.pathname
  const method = ctx.record.method
  let route: ResourceRoute | undefined
  try {
    route = parseResourcePath(deps.state.store, path)
  } catch (err) {
    return sendError(ctx, err)
  }
  if (!route) return handleNonResource(deps, ctx, path)
  const verb = verbOf(method, route, ctx.query)
  const key = resourceKey(route.def)
  Object.assign(ctx.record, {
    resource: route.subresource ? `${key}/${route.subresource}` : key,
    verb,
    ...(route.namespace ? { namespace: route.namespace } : {}),
    ...(route.name ? { name: route.name } : {}),
  })
  const fault = deps.faults.decide({
    resource: key,
    ...(route.subresource ? { subresource: route.subresource } : {}),
    verb,
  })
  if (fault.latencyMs > 0) await new Promise((r) => setTimeout(r, fault.latencyMs))
  if (fault.code !== undefined) {
    const message = fault.message ?? `injected fault: ${fault.code} for ${verb} ${ctx.record.resource}`
    return send(ctx, fault.code, JSON.stringify(failureStatus(fault.code, reasonFor(fault.code), message)))
  }
  try {
    const body = decodeBody(ctx, method)
    ctx.record.body = body
    await serveResource(deps, ctx, route, verb, body)
  } catch (err) {
    sendError(ctx, err)
  }
}

function verbOf(method: string, route: ResourceRoute, query: URLSearchParams): Verb {
  if (route.subresource === 'proxy') return 'proxy'
  if (route.subresource === 'eviction') return 'create'
  const watch = query.get('watch') === 'true' || query.get('watch') === '1'
  switch (method) {
    case 'GET':
      return route.name ? 'get' : watch ? 'watch' : 'list'
    case 'POST':
      return 'create'
    case 'PUT':
      return 'update'
    case 'PATCH':
      return 'patch'
    case 'DELETE':
      return route.name ? 'delete' : 'deletecollection'
    default:
      throw new ApiError(405, 'MethodNotAllowed', `the server does not allow this method on the requested resource`)
  }
}

function decodeBody(ctx: Ctx, method: string): unknown {
  if (ctx.body.length === 0 || method === 'GET') return undefined
  // kubectl's drain fallback DELETE sends a protobuf DeleteOptions ("k8s\0" magic): tolerate, ignore.
  if (ctx.body.subarray(0, 4).equals(Buffer.from('k8s\0'))) {
    if (method === 'DELETE') return undefined
    throw new ApiError(415, 'UnsupportedMediaType', 'the emulator accepts JSON bodies only (got protobuf)')
  }
  const text = ctx.body.toString('utf8')
  const type = (ctx.req.headers['content-type'] ?? '').toLowerCase()
  try {
    if (type.startsWith('application/apply-patch+yaml') || type.includes('yaml')) return parseYaml(text)
    return JSON.parse(text)
  } catch (err) {
    throw badRequest(`the request body is not valid JSON: ${(err as Error).message}`)
  }
}

function writeOptions(ctx: Ctx): WriteOptions & { warnings: string[] } {
  const dryRun = ctx.query.getAll('dryRun')
  for (const d of dryRun)
    if (d !== 'All') throw badRequest(`dryRun: Unsupported value: "${d}": supported values: "All"`)
  const fv = ctx.query.get('fieldValidation') ?? undefined
  if (fv && !['Strict', 'Warn', 'Ignore'].includes(fv))
    throw badRequest(`fieldValidation: Unsupported value: "${fv}": supported values: "Ignore", "Strict", "Warn"`)
  return { dryRun: dryRun.includes('All'), warnings: [], ...(fv ? { fieldValidation: fv } : {}) }
}

function filterOf(route: ResourceRoute, query: URLSearchParams): Filter {
  const filter: Filter = {}
  if (route.namespace) filter.namespace = route.namespace
  const ls = query.get('labelSelector')
  if (ls) filter.labels = parseLabelSelector(ls)
  const fs = query.get('fieldSelector')
  if (fs) {
    filter.fields = parseFieldSelector(fs)
    checkFieldSelector(resourceKey(route.def), filter.fields)
  }
  return filter
}

function sendObject(ctx: Ctx, code: number, entry: Entry, warnings: string[] = []) {
  const headers: Record<string, string> = {}
  if (warnings.length > 0) headers.Warning = warnings.map((w) => `299 - "${w.replace(/"/g, "'")}"`).join(', ')
  send(ctx, code, entry.json, JSON_TYPE, headers)
}

function sendMaybeTable(deps: ServerDeps, ctx: Ctx, route: ResourceRoute, entry: Entry) {
  const key = resourceKey(route.def)
  if (wantsTable(ctx.req.headers.accept) && hasTable(key)) {
    const table = renderTable(key, [entry.obj], String(entry.rv), deps.state.now())
    return send(ctx, 200, JSON.stringify(table), 'application/json;as=Table;v=v1;g=meta.k8s.io')
  }
  sendObject(ctx, 200, entry)
}

async function serveResource(deps: ServerDeps, ctx: Ctx, route: ResourceRoute, verb: Verb, body: unknown) {
  const { state } = deps
  const { def, namespace } = route
  const name = route.name ?? ''
  if (def.group === 'policy' || route.subresource === 'eviction') state.pdbs.reconcile()
  switch (verb) {
    case 'list':
      return serveList(deps, ctx, route)
    case 'watch':
      return serveWatch(deps, ctx, route)
    case 'get':
      if (route.subresource && route.subresource !== 'status') throw notFoundPath()
      return sendMaybeTable(deps, ctx, route, state.store.mustGet(def, namespace, name))
    case 'proxy':
      return serveProxy(deps, ctx, route)
    case 'create': {
      if (route.subresource === 'eviction') {
        const status = evictPod(state.ops, state.pdbs, namespace, name, body, writeOptions(ctx).dryRun ?? false)
        state.pdbs.reconcile()
        return send(ctx, 201, JSON.stringify(status))
      }
      if (route.name)
        throw new ApiError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource')
      const opts = writeOptions(ctx)
      const entry = state.ops.create(def, namespace, body, opts)
      return sendObject(ctx, 201, entry, opts.warnings)
    }
    case 'update': {
      const opts = writeOptions(ctx)
      const entry = state.ops.update(def, namespace, name, body, opts, route.subresource)
      return sendObject(ctx, 200, entry, opts.warnings)
    }
    case 'patch': {
      const opts = writeOptions(ctx)
      const type = toPatchType(ctx.req.headers['content-type'])
      if (body === undefined) throw badRequest('the patch body is empty')
      const entry = state.ops.patch(def, namespace, name, body, type, opts, route.subresource)
      return sendObject(ctx, 200, entry, opts.warnings)
    }
    case 'delete': {
      const options = deleteOptionsOf(ctx, body)
      const dryRun = writeOptions(ctx).dryRun ?? false
      const entry = state.ops.delete(def, namespace, name, options, dryRun)
      return sendObject(ctx, 200, entry)
    }
    case 'deletecollection': {
      const options = deleteOptionsOf(ctx, body)
      const dryRun = writeOptions(ctx).dryRun ?? false
      const listed = state.store.listEntries(def, filterOf(route, ctx.query)).items
      const deleted = listed.map((e) =>
        state.ops.delete(def, e.obj.metadata.namespace ?? '', e.obj.metadata.name, options, dryRun),
      )
      return send(ctx, 200, listBody(route, deleted, String(state.store.currentRv)))
    }
  }
}

function deleteOptionsOf(ctx: Ctx, body: unknown): DeleteOptions {
  const options: DeleteOptions = body && typeof body === 'object' ? { ...(body as DeleteOptions) } : {}
  const grace = ctx.query.get('gracePeriodSeconds')
  if (grace !== null) {
    const n = Number(grace)
    if (!Number.isInteger(n)) throw badRequest(`gracePeriodSeconds: invalid value "${grace}"`)
    options.gracePeriodSeconds = n
  }
  if (options.gracePeriodSeconds !== undefined && typeof options.gracePeriodSeconds !== 'number')
    throw badRequest('gracePeriodSeconds must be an integer')
  return options
}

function listBody(route: ResourceRoute, items: Entry[], rv: string, cont?: string, remaining?: number): string {
  const meta = JSON.stringify({
    resourceVersion: rv,
    ...(cont ? { continue: cont } : {}),
    ...(remaining !== undefined ? { remainingItemCount: remaining } : {}),
  })
  const head = `{"kind":"${route.def.listKind}","apiVersion":"${apiVersionOf(route.def)}","metadata":${meta},"items":[`
  return `${head}${items.map((e) => e.json).join(',')}]}`
}

function serveList(deps: ServerDeps, ctx: Ctx, route: ResourceRoute) {
  const filter = filterOf(route, ctx.query)
  const limitText = ctx.query.get('limit')
  const limit = limitText ? Number(limitText) : undefined
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 0))
    throw badRequest(`limit: invalid value "${limitText}"`)
  const cont = ctx.query.get('continue') ?? undefined
  const result = deps.state.store.listEntries(route.def, {
    ...filter,
    ...(limit ? { limit } : {}),
    ...(cont ? { continue: cont } : {}),
  })
  const key = resourceKey(route.def)
  if (wantsTable(ctx.req.headers.accept) && hasTable(key)) {
    const table = renderTable(
      key,
      result.items.map((e) => e.obj),
      result.resourceVersion,
      deps.state.now(),
      result.continue,
    )
    return send(ctx, 200, JSON.stringify(table), 'application/json;as=Table;v=v1;g=meta.k8s.io')
  }
  send(ctx, 200, listBody(route, result.items, result.resourceVersion, result.continue))
}

function serveWatch(deps: ServerDeps, ctx: Ctx, route: ResourceRoute) {
  const { res, req, query } = ctx
  const { store } = deps.state
  const filter = filterOf(route, query)
  const key = resourceKey(route.def)
  const table = wantsTable(req.headers.accept) && hasTable(key)
  const bookmarks = query.get('allowWatchBookmarks') === 'true'
  const timeoutSeconds = Number(query.get('timeoutSeconds') ?? '0')
  const fromRv = query.get('resourceVersion') ?? undefined
  ctx.record.status = 200
  res.writeHead(200, { 'Content-Type': JSON_TYPE, 'Transfer-Encoding': 'chunked', 'Cache-Control': 'no-cache' })
  res.flushHeaders()
  let closed = false
  const timers: NodeJS.Timeout[] = []
  let unsubscribe = () => {}
  const live = {
    resource: key,
    drop: () => close(),
    expire: () => {
      writeGone(`too old resource version: ${fromRv ?? 0} (${store.currentRv})`)
      close()
    },
  }
  const close = () => {
    if (closed) return
    closed = true
    unsubscribe()
    for (const t of timers) clearTimeout(t)
    deps.faults.liveWatches.delete(live)
    res.end()
  }
  const writeGone = (message: string) => {
    if (!closed) res.write(`${JSON.stringify({ type: 'ERROR', object: failureStatus(410, 'Expired', message) })}\n`)
  }
  res.on('close', close)
  if (deps.faults.takeGone(key)) {
    writeGone(`too old resource version: ${fromRv ?? 0} (${store.currentRv}) (injected)`)
    return close()
  }
  try {
    unsubscribe = store.subscribe(route.def, filter, fromRv, (event, type) => {
      if (closed) return
      if (table) {
        const t = renderTable(key, [event.entry.obj], String(event.rv), deps.state.now())
        res.write(`{"type":"${type}","object":${JSON.stringify(t)}}\n`)
      } else if (type === event.type) {
        event.line ??= entryLine(type, event.entry.json)
        res.write(event.line)
      } else res.write(entryLine(type, event.entry.json))
    })
  } catch (err) {
    const apiErr = toApiError(err)
    res.write(`${JSON.stringify({ type: 'ERROR', object: apiErr.toStatus() })}\n`)
    return close()
  }
  deps.faults.liveWatches.add(live)
  if (timeoutSeconds > 0) timers.push(setTimeout(close, timeoutSeconds * 1000))
  if (bookmarks) {
    const tick = () => {
      if (closed) return
      const bookmark = {
        type: 'BOOKMARK',
        object: {
          kind: route.def.kind,
          apiVersion: apiVersionOf(route.def),
          metadata: { resourceVersion: String(store.currentRv) },
        },
      }
      res.write(`${JSON.stringify(bookmark)}\n`)
      timers.push(setTimeout(tick, deps.bookmarkIntervalMs).unref())
    }
    timers.push(setTimeout(tick, deps.bookmarkIntervalMs).unref())
  }
}

function serveProxy(deps: ServerDeps, ctx: Ctx, route: ResourceRoute) {
  const { state } = deps
  const node = state.store.mustGet(route.def, '', route.name ?? '').obj as KubeObject
  if (ctx.record.method !== 'GET' || route.rest.join('/') !== 'stats/summary') throw notFoundPath()
  if (state.silentNodes.has(node.metadata.name)) {
    const ip =
      (node.status?.addresses ?? []).find((a: { type: string }) => a.type === 'InternalIP')?.address ??
      node.metadata.name
    throw new ApiError(
      503,
      'ServiceUnavailable',
      `error trying to reach service: dial tcp ${ip}:10250: connect: connection refused`,
    )
  }
  const pods = state.store.podsOnNode(node.metadata.name).map((e) => e.obj)
  const summary = renderSummary(node, pods, state.nodeStats.get(node.metadata.name) ?? {}, state.now())
  send(ctx, 200, JSON.stringify(summary))
}

function handleNonResource(deps: ServerDeps, ctx: Ctx, path: string) {
  const defs = deps.state.store.defs()
  const accept = ctx.req.headers.accept
  const host = ctx.req.headers.host ?? '127.0.0.1'
  const json = (body: unknown) => send(ctx, 200, JSON.stringify(body))
  const aggregated = aggregatedVersionFromAccept(accept)
  const trimmed = path.replace(/\/+$/, '') || '/'
  if (trimmed === '/version') return json(SERVER_VERSION)
  if (trimmed === '/healthz' || trimmed === '/livez' || trimmed === '/readyz') return send(ctx, 200, 'ok', 'text/plain')
  if (trimmed === '/openapi/v2') return send(ctx, 200, '', 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf')
  if (trimmed === '/api' || trimmed === '/apis') {
    if (aggregated) {
      const body = aggregatedDiscovery(defs, trimmed === '/api', aggregated)
      return send(
        ctx,
        200,
        JSON.stringify(body),
        `application/json;g=apidiscovery.k8s.io;v=${aggregated};as=APIGroupDiscoveryList`,
      )
    }
    return json(trimmed === '/api' ? legacyApiVersions(host) : legacyGroupList(defs))
  }
  const parts = trimmed.split('/').filter((p) => p !== '')
  if (parts[0] === 'api' && parts.length === 2) {
    const list = resourceList(defs, '', parts[1] as string)
    if (list) return json(list)
  }
  if (parts[0] === 'apis' && parts.length === 2) {
    const group = apiGroup(defs, parts[1] as string)
    if (group) return json(group)
  }
  if (parts[0] === 'apis' && parts.length === 3) {
    const list = resourceList(defs, parts[1] as string, parts[2] as string)
    if (list) return json(list)
  }
  return sendError(ctx, notFoundPath())
}
