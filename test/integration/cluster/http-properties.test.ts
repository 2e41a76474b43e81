/**
 * The emulator over real HTTP under random requests: valid and invalid paths, selectors, query
 * parameters, bodies and patch types. Every answer is a JSON object (2xx) or a Kubernetes `Status`
 * with the HTTP code; a rejected request writes nothing; versions only increase; watches opened
 * before the hammering replay to the lists; every stored object stays well formed.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type Emulator, startEmulator } from '../../../functions/cluster/emulator.ts'
import type { KubeObject } from '../../../functions/cluster/store.ts'

type Json = ReturnType<typeof JSON.parse>
type WatchEvent = { type: string; rv: number; key: string }
type Watched = { path: string; initial: Map<string, number>; events: WatchEvent[]; seenRv: number; stop: () => void }

const WATCHED = ['/api/v1/pods', '/api/v1/configmaps', '/api/v1/nodes', '/apis/policy/v1/poddisruptionbudgets']

let emu: Emulator
const watches: Watched[] = []
let lastWriteRv = 0

const ready = [{ type: 'Ready', status: 'True' }]
const node = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { zone: 'a' } },
  spec: {},
  status: { conditions: ready },
})
const pod = (name: string, nodeName = 'n1') => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default', labels: { app: 'web' } },
  spec: { nodeName, terminationGracePeriodSeconds: 30, containers: [{ name: 'c', image: 'x' }] },
  status: { phase: 'Running', conditions: ready },
})
const configMap = (name: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'default', labels: { app: 'web' } },
  data: { k: 'v' },
})
const pdb = (name: string) => ({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name, namespace: 'default' },
  spec: { maxUnavailable: 1, selector: { matchLabels: { app: 'web' } } },
})
const lease = (name: string) => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name, namespace: 'default' },
  spec: { holderIdentity: 'h', leaseDurationSeconds: 40 },
})
const TEMPLATES: Record<string, (name: string) => KubeObject> = {
  pods: pod,
  nodes: node,
  configmaps: configMap,
  poddisruptionbudgets: pdb,
  leases: lease,
  namespaces: (name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }),
  secrets: (name) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name }, stringData: { a: 'b' } }),
}

// ---- generators ------------------------------------------------------------------------------

const RESOURCES = [
  { prefix: '/api/v1', resource: 'pods', namespaced: true, names: ['p0', 'p1', 'p2'] },
  { prefix: '/api/v1', resource: 'configmaps', namespaced: true, names: ['cm0', 'cm1'] },
  { prefix: '/api/v1', resource: 'nodes', namespaced: false, names: ['n1', 'n2'] },
  { prefix: '/apis/policy/v1', resource: 'poddisruptionbudgets', namespaced: true, names: ['pdb-web', 'pdb-b'] },
  { prefix: '/apis/coordination.k8s.io/v1', resource: 'leases', namespaced: true, names: ['l0'] },
  { prefix: '/api/v1', resource: 'namespaces', namespaced: false, names: ['ns-a'] },
  { prefix: '/api/v1', resource: 'secrets', namespaced: true, names: ['s0'] },
]
const UNKNOWN = [
  { prefix: '/api/v1', resource: 'widgets', namespaced: true, names: ['w'] },
  { prefix: '/apis/nope.example.com/v1', resource: 'things', namespaced: false, names: ['t'] },
  { prefix: '/api/v2', resource: 'pods', namespaced: true, names: ['p0'] },
]
const resourceArb = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(...RESOURCES.slice(0, 4)) },
  { weight: 3, arbitrary: fc.constantFrom(...RESOURCES.slice(4)) },
  { weight: 1, arbitrary: fc.constantFrom(...UNKNOWN) },
)
const subresources = fc.oneof(
  { weight: 12, arbitrary: fc.constant(undefined) },
  { weight: 3, arbitrary: fc.constantFrom('status', 'eviction') },
  { weight: 1, arbitrary: fc.constantFrom('proxy', 'proxy/stats/summary', 'bogus', 'status/extra') },
)

const pathArb = fc
  .record({
    res: resourceArb,
    // right: the namespace the resource lives in (or none for cluster-scoped); else a wrong or missing one
    ns: fc.oneof(
      { weight: 10, arbitrary: fc.constant('right') },
      { weight: 2, arbitrary: fc.constant('all') },
      { weight: 1, arbitrary: fc.constantFrom('kube-system', 'missing', 'default') },
    ),
    name: fc.oneof(
      { weight: 6, arbitrary: fc.constant('existing') },
      { weight: 3, arbitrary: fc.constant(null) },
      { weight: 2, arbitrary: fc.constantFrom('new-a', 'new-b', 'a%2Fb', 'UPPER', 'x') },
    ),
    pick: fc.nat(9),
    sub: subresources,
  })
  .map(({ res, ns, name, pick, sub }) => {
    let path = res.prefix
    if (ns === 'right' && res.namespaced) path += '/namespaces/default'
    else if (ns !== 'right' && ns !== 'all') path += `/namespaces/${ns}`
    path += `/${res.resource}`
    const n = name === 'existing' ? (res.names[pick % res.names.length] as string) : name
    if (n !== null) path += `/${n}${sub ? `/${sub}` : ''}`
    return { path, resource: res.resource, name: n }
  })

const QUERY_VALUES = {
  labelSelector: ['app=web', 'app in (web,db)', '!app', 'app!=x', 'zone', '=', 'a b c', '((', 'a=(', '%', 'x/y/z=1'],
  fieldSelector: [
    'spec.nodeName=n1',
    'metadata.name=p0',
    'status.phase!=Running',
    'metadata.namespace==default',
    'bogus=1',
    'spec.nodeName',
    '=',
    ',,,',
    'spec.unschedulable=true',
  ],
  limit: ['1', '2', '0', '-1', 'abc', '1.5', '99999999999999999999'],
  continue: ['garbage', '%%%', Buffer.from('{"rv":"x"}').toString('base64url'), 'eyJydiI6MSwic3RhcnQiOjF9'],
  resourceVersion: ['0', '1', 'abc', '-1', '999999999'],
  dryRun: ['All', 'All', 'bogus'],
  fieldValidation: ['Strict', 'Warn', 'Ignore', 'Loose'],
  gracePeriodSeconds: ['0', '5', 'x', '-1'],
}
const queryParam = fc.oneof(
  ...Object.entries(QUERY_VALUES).map(([k, vs]) => fc.constantFrom(...vs).map((v) => [k, v] as const)),
)
const queryArb = fc
  .oneof({ weight: 3, arbitrary: fc.constant([]) }, { weight: 2, arbitrary: fc.array(queryParam, { maxLength: 2 }) })
  .map((params) => new URLSearchParams(params as Array<[string, string]>).toString())

/** a field path and a random replacement: wrong types where the emulator reads fields. */
const FIELD_PATHS = [
  ['metadata'],
  ['metadata', 'name'],
  ['metadata', 'namespace'],
  ['metadata', 'labels'],
  ['metadata', 'labels', 'app'],
  ['metadata', 'annotations'],
  ['metadata', 'finalizers'],
  ['metadata', 'resourceVersion'],
  ['metadata', 'generateName'],
  ['metadata', 'bogus'],
  ['spec'],
  ['spec', 'bogus'],
  ['spec', 'nodeName'],
  ['spec', 'containers'],
  ['spec', 'tolerations'],
  ['spec', 'taints'],
  ['spec', 'unschedulable'],
  ['spec', 'selector'],
  ['spec', 'selector', 'matchLabels'],
  ['spec', 'selector', 'matchExpressions'],
  ['spec', 'minAvailable'],
  ['spec', 'maxUnavailable'],
  ['spec', 'terminationGracePeriodSeconds'],
  ['status'],
  ['status', 'phase'],
  ['status', 'conditions'],
  ['status', 'disruptedPods'],
  ['data'],
  ['kind'],
  ['apiVersion'],
  ['bogus'],
]
const weird = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(
    [{ key: 'k', effect: 'NoSchedule' }],
    [{ key: 'k', effect: 'Bogus' }],
    [{ key: 'app', operator: 'In', values: ['web'] }],
    [{ key: 'app', operator: 'Bad' }],
    [{ type: 'Ready', status: 'False' }],
    { app: 'db' },
    '50%',
    'x%',
    ['f'],
  ),
)
const mutation = fc.record({ path: fc.constantFrom(...FIELD_PATHS), value: weird, remove: fc.boolean() })

function mutate(obj: KubeObject, muts: ReadonlyArray<{ path: string[]; value: Json; remove: boolean }>): KubeObject {
  const out = structuredClone(obj)
  for (const m of muts) {
    let cur: Json = out
    for (const p of m.path.slice(0, -1)) {
      if (cur[p] === null || typeof cur[p] !== 'object') cur[p] = {}
      cur = cur[p]
    }
    const last = m.path[m.path.length - 1] as string
    if (m.remove) delete cur[last]
    else cur[last] = m.value
  }
  return out
}

const CONTENT_TYPES = [
  'application/json',
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
  'text/plain',
  undefined,
]

const jsonPatchOp = fc.record({
  op: fc.constantFrom('add', 'replace', 'remove', 'test', 'move', 'copy', 'bogus'),
  path: fc.constantFrom(
    '/metadata/labels/app',
    '/metadata/name',
    '/metadata/resourceVersion',
    '/spec/taints',
    '/spec/taints/-',
    '/spec/containers/0/image',
    '/status/conditions',
    '/status/phase',
    '/data/k',
    '/nope/deep',
    '',
    'no-slash',
  ),
  value: weird,
  from: fc.constantFrom('/metadata/labels', '/spec', '/missing'),
})

type BodyFor = { kind: 'object'; value: Json } | { kind: 'text'; value: string } | { kind: 'none' }

/** body picks a payload for a request on `resource`/`name`; `rv` is that object's current resourceVersion. */
const bodyArb = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      tag: fc.constant('template' as const),
      muts: fc.oneof({ weight: 3, arbitrary: fc.constant([]) }, fc.array(mutation, { minLength: 1, maxLength: 2 })),
      rv: fc.constantFrom('none', 'none', 'current', 'current', 'stale', 'garbage'),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      tag: fc.constant('other-template' as const),
      kind: fc.constantFrom(...Object.keys(TEMPLATES)),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ tag: fc.constant('jsonpatch' as const), ops: fc.array(jsonPatchOp, { maxLength: 3 }) }),
  },
  { weight: 1, arbitrary: fc.record({ tag: fc.constant('json' as const), value: fc.jsonValue({ maxDepth: 3 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      tag: fc.constant('text' as const),
      value: fc.oneof(
        fc.constantFrom('{', '{"metadata":', 'nul', '[1,2', '{"a":1}}', 'k8s\u0000xx', ': - [', '"'),
        fc.string(),
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      tag: fc.constant('eviction' as const),
      opts: fc.jsonValue({ maxDepth: 2 }),
      rv: fc.constantFrom('none', 'current', 'stale'),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ tag: 'none' as const }) },
)

const PATCH_TYPES = CONTENT_TYPES.slice(1, 5)
const requestArb = fc
  .record({
    method: fc.constantFrom(
      'GET',
      'GET',
      'POST',
      'POST',
      'PUT',
      'PUT',
      'PATCH',
      'PATCH',
      'PATCH',
      'DELETE',
      'DELETE',
      'OPTIONS',
    ),
    target: pathArb,
    query: queryArb,
    body: bodyArb,
    // the usual content type for the method, sometimes any (or none)
    usualType: fc.nat(3),
    contentType: fc.oneof({ weight: 4, arbitrary: fc.constant('usual') }, fc.constantFrom(...CONTENT_TYPES)),
    watch: fc.boolean(),
  })
  .map(({ usualType, contentType, ...r }) => ({
    ...r,
    // mostly POST to collections, and delete single objects rather than whole collections
    target: retarget(r.method, r.target, usualType),
    contentType:
      contentType !== 'usual'
        ? contentType
        : r.method === 'PATCH'
          ? r.body.tag === 'jsonpatch'
            ? 'application/json-patch+json'
            : PATCH_TYPES[1 + (usualType % 3)]
          : 'application/json',
  }))
function retarget(method: string, target: { path: string; resource: string; name: string | null }, pick: number) {
  const segments = target.path.split('/')
  const last = segments[segments.length - 1] as string
  if (method === 'POST' && target.name !== null && last === target.name && pick > 0)
    return { ...target, path: segments.slice(0, -1).join('/'), name: null }
  if (method === 'DELETE' && target.name === null && pick > 0) {
    const res = RESOURCES.find((r) => r.resource === target.resource && target.path.endsWith(`/${r.resource}`))
    const name = res?.names[pick % res.names.length]
    if (name) return { ...target, path: `${target.path}/${name}`, name }
  }
  return target
}
type Req = typeof requestArb extends fc.Arbitrary<infer T> ? T : never

// ---- helpers ---------------------------------------------------------------------------------

/** stored reads the object a request addresses (in `default` for namespaced types), if it exists. */
function stored(resource: string, name: string | null): KubeObject | undefined {
  if (!name) return undefined
  for (const def of emu.state.store.defs()) {
    if (def.resource !== resource || !/^(|policy|coordination\.k8s\.io)$/.test(def.group)) continue
    const json = emu.state.store.getEntry(def, 'default', name)?.json
    return json ? JSON.parse(json) : undefined
  }
  return undefined
}

function renderBody(req: Req): BodyFor {
  const { body, target } = req
  const name = target.name ?? 'new-a'
  const current = stored(target.resource, target.name)
  const rv = current?.metadata.resourceVersion
  const withRv = (obj: KubeObject, mode: string) => {
    if (mode === 'current' && rv) obj.metadata.resourceVersion = rv
    if (mode === 'stale') obj.metadata.resourceVersion = '1'
    if (mode === 'garbage') obj.metadata.resourceVersion = 'x1'
    return obj
  }
  switch (body.tag) {
    case 'template': {
      const base = current ?? (TEMPLATES[target.resource] ?? configMap)(name)
      delete base.metadata.resourceVersion
      return { kind: 'object', value: mutate(withRv(base, body.rv), body.muts) }
    }
    case 'other-template':
      return { kind: 'object', value: (TEMPLATES[body.kind] as (n: string) => KubeObject)(name) }
    case 'jsonpatch':
      return { kind: 'object', value: body.ops }
    case 'json':
      return { kind: 'object', value: body.value }
    case 'text':
      return { kind: 'text', value: body.value }
    case 'eviction': {
      const opts = body.opts !== null && typeof body.opts === 'object' ? body.opts : { gracePeriodSeconds: body.opts }
      const pre = body.rv === 'current' ? rv : body.rv === 'stale' ? '1' : undefined
      return {
        kind: 'object',
        value: {
          apiVersion: 'policy/v1',
          kind: 'Eviction',
          metadata: { name },
          deleteOptions: pre ? { ...opts, preconditions: { resourceVersion: pre } } : opts,
        },
      }
    }
    case 'none':
      return { kind: 'none' }
  }
}

function isObject(v: unknown): v is Record<string, Json> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** expectStatus checks a failure body is a Kubernetes Status carrying the HTTP code. */
function expectStatus(status: number, text: string, what: string) {
  let body: Json
  try {
    body = JSON.parse(text)
  } catch {
    throw new Error(`${what}: ${status} with a non-JSON body: ${text.slice(0, 200)}`)
  }
  expect(body, what).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code: status })
  expect(typeof body.message === 'string' && body.message.length > 0, `${what}: message`).toBe(true)
  expect(typeof body.reason === 'string' && body.reason.length > 0, `${what}: reason`).toBe(true)
  if (status >= 500) {
    // the one legitimate 5xx these requests can reach: an eviction of a pod under several PDBs
    expect(body.message, `${what}: unexpected ${status}`).toBe(
      'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
    )
  }
  expect(body.message, what).not.toMatch(/^Internal error occurred/)
}

/** readStream reads a watch response for at most `ms` and returns its lines. */
async function readStream(res: Response, ms: number): Promise<string[]> {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  let text = ''
  const timer = setTimeout(() => void reader.cancel(), ms)
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      text += decoder.decode(value, { stream: true })
    }
  } catch {
    // cancelled
  } finally {
    clearTimeout(timer)
  }
  return text.split('\n').filter((l) => l.trim() !== '')
}

async function send(req: Req): Promise<void> {
  const body = renderBody(req)
  const watch = req.method === 'GET' && req.watch && req.target.name === null
  const query = watch ? `watch=1&timeoutSeconds=0.05&${req.query}` : req.query
  const url = `${emu.url}${req.target.path}${query ? `?${query}` : ''}`
  const headers: Record<string, string> = {}
  if (req.contentType) headers['Content-Type'] = req.contentType
  const init: RequestInit = { method: req.method, headers }
  if (req.method !== 'GET' && body.kind !== 'none')
    init.body = body.kind === 'text' ? body.value : JSON.stringify(body.value)
  const what = `${req.method} ${req.target.path}?${query} [${req.contentType}] ${String(init.body ?? '').slice(0, 300)}`

  // Settle the PDB controller first so that any write during the request is the request's own.
  emu.state.pdbs.reconcile()
  const rvBefore = emu.state.store.currentRv
  const res = await fetch(url, init)
  const dryRun = new URLSearchParams(query).getAll('dryRun').includes('All')

  if (watch && res.status === 200) {
    for (const line of await readStream(res, 1000)) {
      const event = JSON.parse(line)
      expect(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR'], what).toContain(event.type)
      if (event.type === 'ERROR') expectStatus(event.object.code, JSON.stringify(event.object), `${what} (stream)`)
      else expect(isObject(event.object), what).toBe(true)
    }
    return
  }
  const text = await res.text()
  if (res.status >= 200 && res.status < 300) {
    const parsed = JSON.parse(text)
    expect(isObject(parsed), what).toBe(true)
    const rv = Number(parsed.metadata?.resourceVersion)
    const write = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(req.method)
    if (write && !dryRun && parsed.kind !== 'Status' && !String(parsed.kind).endsWith('List')) {
      // a write answers with the new version, newer than every version seen before
      expect(rv, what).toBeGreaterThan(lastWriteRv)
      expect(rv, what).toBeLessThanOrEqual(emu.state.store.currentRv)
      lastWriteRv = rv
    }
    if (write && dryRun) expect(emu.state.store.currentRv, `${what}: dry run wrote`).toBe(rvBefore)
  } else {
    expectStatus(res.status, text, what)
    // a rejected request changes nothing
    expect(emu.state.store.currentRv, `${what}: rejected with ${res.status} but wrote`).toBe(rvBefore)
  }
  lastWriteRv = Math.max(lastWriteRv, emu.state.store.currentRv)
}

async function openWatch(path: string): Promise<Watched> {
  const list: Json = await (await fetch(`${emu.url}${path}`)).json()
  const rv = list.metadata.resourceVersion as string
  const initial = new Map<string, number>(
    list.items.map((o: KubeObject) => [key(o), Number(o.metadata.resourceVersion)] as const),
  )
  const abort = new AbortController()
  const res = await fetch(`${emu.url}${path}?watch=1&allowWatchBookmarks=true&resourceVersion=${rv}`, {
    signal: abort.signal,
  })
  const w: Watched = { path, initial, events: [], seenRv: Number(rv), stop: () => abort.abort() }
  void (async () => {
    const decoder = new TextDecoder()
    let buf = ''
    try {
      for await (const chunk of res.body as ReadableStream<Uint8Array>) {
        buf += decoder.decode(chunk, { stream: true })
        let nl = buf.indexOf('\n')
        while (nl >= 0) {
          const event = JSON.parse(buf.slice(0, nl))
          buf = buf.slice(nl + 1)
          nl = buf.indexOf('\n')
          const evRv = Number(event.object.metadata.resourceVersion)
          if (event.type !== 'BOOKMARK') w.events.push({ type: event.type, rv: evRv, key: key(event.object) })
          w.seenRv = Math.max(w.seenRv, evRv)
        }
      }
    } catch {
      // aborted at the end
    }
  })()
  return w
}

function key(o: KubeObject): string {
  return `${o.metadata.namespace ?? ''}/${o.metadata.name}`
}

async function until(check: () => boolean, ms = 3000) {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 5))
  }
}

/** checkInvariants compares fresh lists with the watch-replayed state and checks every stored object. */
async function checkInvariants() {
  const seen = new Set<number>()
  for (const w of watches) {
    const list: Json = await (await fetch(`${emu.url}${w.path}`)).json()
    const listRv = Number(list.metadata.resourceVersion)
    const listed = new Map<string, number>()
    for (const o of list.items as KubeObject[]) {
      const rv = Number(o.metadata.resourceVersion)
      expect(Number.isInteger(rv) && rv > 0 && rv <= listRv, `${w.path} ${key(o)} rv ${rv} ≤ ${listRv}`).toBe(true)
      expect(seen.has(rv), `rv ${rv} used twice`).toBe(false)
      seen.add(rv)
      listed.set(key(o), rv)
    }
    await until(() => w.seenRv >= listRv)
    const replayed = new Map(w.initial)
    let prev = 0
    for (const e of w.events) {
      if (e.rv > listRv) break
      expect(e.rv, `${w.path}: watch versions increase`).toBeGreaterThan(prev)
      prev = e.rv
      if (e.type === 'DELETED') replayed.delete(e.key)
      else replayed.set(e.key, e.rv)
    }
    expect(new Map([...replayed].sort()), `${w.path}: list equals the replayed watch`).toEqual(
      new Map([...listed].sort()),
    )
  }
  // every stored object is well formed and its bytes are its object
  const { store } = emu.state
  for (const def of store.defs()) {
    store.forEachEntry(def, (e) => {
      expect(JSON.parse(e.json), e.key).toEqual(e.obj)
      const meta = e.obj.metadata
      expect(e.obj.kind, e.key).toBe(def.kind)
      expect(typeof meta.name === 'string' && meta.name !== '', e.key).toBe(true)
      expect(e.key, e.key).toBe(`${def.namespaced ? meta.namespace : ''}/${meta.name}`)
      expect(meta.resourceVersion, e.key).toBe(String(e.rv))
      expect(e.rv, e.key).toBeLessThanOrEqual(store.currentRv)
      for (const field of ['labels', 'annotations'])
        if (meta[field] !== undefined)
          for (const v of Object.values(meta[field] as object)) expect(typeof v, `${e.key} ${field}`).toBe('string')
    })
  }
}

// ---- the property ----------------------------------------------------------------------------

/** setUp starts a fresh emulator per run (runs are independent, so a shrunk counterexample replays). */
async function setUp() {
  // No background ticks: every write is a request's own (PDB status is reconciled on demand).
  emu = await startEmulator({ tickMs: 3_600_000, bookmarkIntervalMs: 20 })
  emu.store.create(node('n1'))
  emu.store.create(node('n2'))
  for (let i = 0; i < 3; i++) emu.store.create(pod(`p${i}`, i % 2 ? 'n2' : 'n1'))
  emu.store.create(configMap('cm0'))
  emu.store.create(configMap('cm1'))
  emu.store.create(pdb('pdb-web'))
  emu.state.pdbs.reconcile()
  lastWriteRv = emu.state.store.currentRv
  watches.length = 0
  for (const path of WATCHED) watches.push(await openWatch(path))
}
async function tearDown() {
  for (const w of watches) w.stop()
  await emu?.close()
}

describe('emulator over HTTP under random requests', () => {
  it('answers JSON or a Status, writes nothing on failure, and lists match watches', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(requestArb, { minLength: 1, maxLength: 25 }), async (requests) => {
        await setUp()
        try {
          for (const req of requests) {
            await send(req)
            const api = await fetch(`${emu.url}/api`)
            expect(api.status).toBe(200)
            await api.text()
          }
          await checkInvariants()
        } finally {
          await tearDown()
        }
      }),
      { numRuns: 100 },
    )
  })
})
