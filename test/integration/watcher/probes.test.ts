import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Emulator } from '../../../functions/cluster/emulator.ts'
import type { EmbeddedSqs } from '../../../functions/local/embedded-sqs.ts'
import { startWatcher, type Watcher, type WatcherOptions } from '../../../functions/watcher/watcher.ts'
import { seedNodes, startPeers } from './harness.ts'

let emu: Emulator
let sqs: EmbeddedSqs
let close: () => Promise<void>
let watcher: Watcher | undefined

beforeEach(async () => {
  ;({ emu, sqs, close } = await startPeers())
  seedNodes(emu, 2)
})

afterEach(async () => {
  await watcher?.stop()
  watcher = undefined
  await close?.()
})

/** The watcher metrics README.md lists under "Operable". */
const README_METRICS = [
  'nodewarden_watcher_events_received_total',
  'nodewarden_watcher_events_absorbed_total',
  'nodewarden_watcher_views_sent_total',
  'nodewarden_watcher_send_failures_total',
  'nodewarden_watcher_watch_restarts_total',
  'nodewarden_watcher_relists_total',
  'nodewarden_watcher_leader',
  'nodewarden_watcher_pending_views',
  'nodewarden_watcher_cached_objects',
]

async function get(path: string): Promise<{ status: number; body: string; type: string }> {
  const res = await fetch(`${watcher?.url}${path}`)
  return { status: res.status, body: await res.text(), type: res.headers.get('content-type') ?? '' }
}

async function waitFor(what: string, predicate: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** startProbedWatcher starts a lone watcher (no leader election, no stats) serving its probes on loopback. */
function startProbedWatcher(extra: Partial<WatcherOptions> = {}): Promise<Watcher> {
  return startWatcher({
    kubeConfig: emu.kubeConfig(),
    events: { queueUrl: sqs.queueUrls.events, client: sqs.client },
    leaderElection: false,
    stats: false,
    httpPort: 0,
    httpHost: '127.0.0.1',
    ...extra,
  })
}

describe('watcher probe server', () => {
  it('answers /readyz 503 until the first full sync, then 200; /metrics is Prometheus text with the listed metrics', async () => {
    const slow = emu.faults.latency(1_000, { verb: 'list' })
    watcher = await startProbedWatcher()
    expect(watcher.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const early = await get('/readyz')
    expect(early.status).toBe(503)
    expect(early.body).toBe('not synced yet')
    expect((await get('/healthz')).status).toBe(200)

    await watcher.ready
    slow()
    expect(await get('/readyz')).toMatchObject({ status: 200, body: 'ok' })

    const metrics = await get('/metrics')
    expect(metrics.status).toBe(200)
    expect(metrics.type).toMatch(/^text\/plain; version=0\.0\.4/)
    for (const name of README_METRICS) expect(metrics.body).toMatch(new RegExp(`^# TYPE ${name} (counter|gauge)$`, 'm'))
    // Values, not just names: the three initial lists and 2 nodes + 4 pods received; this replica leads.
    expect(metrics.body).toMatch(/^nodewarden_watcher_relists_total\{resource="node"\} 1$/m)
    expect(metrics.body).toMatch(/^nodewarden_watcher_events_received_total\{resource="pod"\} 4$/m)
    expect(metrics.body).toMatch(/^nodewarden_watcher_leader 1$/m)
  })
})

describe('watcher /healthz (liveness)', () => {
  it('stays healthy while events and bookmarks flow, fails with a reason once the API server fails for longer than 3 × the watch timeout, and recovers', async () => {
    // Watch timeout 1 s: the liveness bound is 3 s; the emulator sends bookmarks every 500 ms.
    watcher = await startProbedWatcher({ watchTimeoutSeconds: 1, backoff: { baseDelayMs: 50, maxDelayMs: 200 } })
    await watcher.ready

    // Healthy for longer than the bound while only bookmarks (and watch reconnects) arrive…
    const until = Date.now() + 3_500
    while (Date.now() < until) {
      expect(await get('/healthz')).toMatchObject({ status: 200, body: 'ok' })
      await new Promise((r) => setTimeout(r, 250))
    }

    // …unhealthy once every request fails (open watches cut) for longer than the bound…
    const failing = emu.faults.fail(503)
    emu.faults.dropWatches()
    const failedAt = Date.now()
    await waitFor('/healthz to fail', async () => (await get('/healthz')).status === 503, 6_000)
    expect(Date.now() - failedAt).toBeGreaterThanOrEqual(2_500)
    const sick = await get('/healthz')
    expect(sick.body).toMatch(/no successful list, watch event or bookmark for longer than 3 s/)
    expect(sick.body).toMatch(/node \d+\.\d s/)
    // Liveness is not readiness: the cache is still synced.
    expect((await get('/readyz')).status).toBe(200)

    // …and healthy again when the API server answers.
    failing()
    await waitFor('/healthz to recover', async () => (await get('/healthz')).status === 200, 3_000)
  })
})
