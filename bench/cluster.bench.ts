/**
 * cluster: the emulator's list throughput for 150,000 pods (one full list, and pages of 500) and its
 * watch fan-out (events/s delivered to 2 watchers), each beside a plain node:http server that serves
 * the same bytes in the same process.
 */
import { createServer, get, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { startEmulator } from '../functions/cluster/emulator.ts'
import { toPod } from '../functions/cluster/scenario/objects.ts'

export const name = 'cluster'

const NODES = 5000
const PODS_PER_NODE = 30
const WATCH_EVENTS = 20_000

function fetchText(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
      res.on('error', reject)
    }).on('error', reject)
  })
}

async function listAll(base: string, limit?: number): Promise<{ items: number; bytes: number; pages: string[] }> {
  let cont = ''
  let items = 0
  let bytes = 0
  const pages: string[] = []
  do {
    const q = limit ? `?limit=${limit}${cont ? `&continue=${encodeURIComponent(cont)}` : ''}` : ''
    const text = await fetchText(`${base}/api/v1/pods${q}`)
    pages.push(text)
    bytes += text.length
    const body = JSON.parse(text) as { items: unknown[]; metadata: { continue?: string } }
    items += body.items.length
    cont = body.metadata.continue ?? ''
  } while (cont)
  return { items, bytes, pages }
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  )
}

/** watchCount opens a watch and resolves with a counter of received lines. */
function openWatch(url: string): Promise<{ count: () => number; close: () => void }> {
  return new Promise((resolve) => {
    let lines = 0
    const req = get(url, (res) => {
      res.on('data', (c: Buffer) => {
        for (const b of c) if (b === 10) lines++
      })
      resolve({ count: () => lines, close: () => req.destroy() })
    })
    req.on('error', () => {})
  })
}

async function waitFor(check: () => boolean) {
  while (!check()) await new Promise((r) => setImmediate(r))
}

export async function run(): Promise<Record<string, unknown>> {
  const emu = await startEmulator({ historyLimit: 50_000 })
  const podDef = emu.state.store.resolve('pods')
  const nodeDef = emu.state.store.resolve('nodes')
  const nowIso = emu.state.store.nowIso()
  const seedStart = performance.now()
  for (let n = 0; n < NODES; n++) {
    const node = `node-${n}`
    for (let p = 0; p < PODS_PER_NODE; p++) {
      const pod = toPod(
        {
          name: `app-${n}-${p}`,
          namespace: `team-${p % 20}`,
          node,
          qos: 'Burstable',
          phase: 'Running',
          defaultTolerations: true,
          labels: { app: `app-${p}` },
        },
        undefined,
        nowIso,
      )
      emu.state.ops.create(podDef, pod.metadata.namespace, pod, { privileged: true })
    }
  }
  const seedMs = performance.now() - seedStart

  // Full list and paginated list from the emulator, then the same bytes from a plain server.
  let t = performance.now()
  const full = await listAll(emu.url)
  const fullMs = performance.now() - t
  t = performance.now()
  const paged = await listAll(emu.url, 500)
  const pagedMs = performance.now() - t
  const baselineServer = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    const page = url.searchParams.has('limit')
      ? paged.pages[Number(url.searchParams.get('continue') ?? 0)]
      : full.pages[0]
    const body = page ?? ''
    // the baseline hands out page indexes as continue tokens; bytes per page are the emulator's own
    const next = Number(url.searchParams.get('continue') ?? 0) + 1
    const patched = url.searchParams.has('limit')
      ? body.replace(/"continue":"[^"]*"/, next < paged.pages.length ? `"continue":"${next}"` : '"continue":""')
      : body
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(patched) })
    res.end(patched)
  })
  const baseUrl = await listen(baselineServer)
  t = performance.now()
  await listAll(baseUrl)
  const baseFullMs = performance.now() - t
  t = performance.now()
  await listAll(baseUrl, 500)
  const basePagedMs = performance.now() - t
  baselineServer.close()

  // Watch fan-out: node heartbeats written to the store, delivered to 2 watchers.
  for (let n = 0; n < 100; n++)
    emu.state.ops.create(
      nodeDef,
      '',
      { metadata: { name: `node-${n}` }, status: { conditions: [{ type: 'Ready', status: 'True' }] } },
      { privileged: true },
    )
  const rv = emu.store.resourceVersion()
  const watchers = await Promise.all(
    [0, 1].map(() => openWatch(`${emu.url}/api/v1/nodes?watch=true&resourceVersion=${rv}`)),
  )
  const lines: string[] = []
  t = performance.now()
  for (let i = 0; i < WATCH_EVENTS; i++) {
    const entry = emu.state.store.mustGet(nodeDef, '', `node-${i % 100}`)
    const node = JSON.parse(entry.json)
    node.status.conditions[0].lastHeartbeatTime = new Date(Date.now() + i).toISOString()
    const stored = emu.state.store.replace(nodeDef, node)
    lines.push(`{"type":"MODIFIED","object":${stored.json}}\n`)
    if (i % 1000 === 999) await new Promise((r) => setImmediate(r))
  }
  await waitFor(() => watchers.every((w) => w.count() >= WATCH_EVENTS))
  const watchMs = performance.now() - t
  for (const w of watchers) w.close()
  const fanServer = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' })
    void (async () => {
      for (let i = 0; i < lines.length; i++) {
        res.write(lines[i] as string)
        if (i % 1000 === 999) await new Promise((r) => setImmediate(r))
      }
    })()
  })
  const fanUrl = await listen(fanServer)
  t = performance.now()
  const baseWatchers = await Promise.all([0, 1].map(() => openWatch(fanUrl)))
  await waitFor(() => baseWatchers.every((w) => w.count() >= WATCH_EVENTS))
  const baseWatchMs = performance.now() - t
  for (const w of baseWatchers) w.close()
  fanServer.closeAllConnections()
  fanServer.close()
  await emu.close()

  const perSec = (n: number, ms: number) => Math.round((n * 1000) / ms)
  return {
    pods: full.items,
    seedMs: Math.round(seedMs),
    listFull: { ms: Math.round(fullMs), podsPerSec: perSec(full.items, fullMs), mbytes: Math.round(full.bytes / 1e6) },
    listFullBaseline: { ms: Math.round(baseFullMs), podsPerSec: perSec(full.items, baseFullMs) },
    listFullRatio: Number((baseFullMs / fullMs).toFixed(2)),
    listPaged500: { ms: Math.round(pagedMs), pages: paged.pages.length, podsPerSec: perSec(paged.items, pagedMs) },
    listPaged500Baseline: { ms: Math.round(basePagedMs), podsPerSec: perSec(paged.items, basePagedMs) },
    listPagedRatio: Number((basePagedMs / pagedMs).toFixed(2)),
    watchFanOut: {
      watchers: 2,
      events: WATCH_EVENTS,
      deliveredPerSec: perSec(2 * WATCH_EVENTS, watchMs),
      ms: Math.round(watchMs),
    },
    watchFanOutBaseline: { deliveredPerSec: perSec(2 * WATCH_EVENTS, baseWatchMs), ms: Math.round(baseWatchMs) },
    watchRatio: Number((baseWatchMs / watchMs).toFixed(2)),
    note: 'ratios are baseline time / emulator time (1.0 = as fast as a plain node:http server sending the same bytes)',
  }
}
