import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Emulator } from '../../../functions/cluster/emulator.ts'
import type { EmbeddedSqs } from '../../../functions/local/embedded-sqs.ts'
import { startWatcher, type Watcher } from '../../../functions/watcher/watcher.ts'
import { bundleWatcher } from '../../../infra/build.ts'
import { QueueReader, seedNodes, startPeers } from './harness.ts'

/** Short lease so the takeover is observable in a test; the ratio mirrors the 15 s / 10 s / 2 s defaults. */
const LEASE = { LEASE_DURATION: '3s', RENEW_DEADLINE: '2s', RETRY_PERIOD: '250ms' }
const LEASE_MS = 3_000

let emu: Emulator
let sqs: EmbeddedSqs
let close: () => Promise<void>
let queue: QueueReader
let bundleDir: string
let bundle: string
const started: Watcher[] = []
const children: ChildProcess[] = []

type Lease = { spec: { holderIdentity?: string; leaseTransitions?: number; renewTime?: string } }
const holder = () =>
  (emu.store.get('leases', 'nodewarden', 'nodewarden-watcher') as Lease | undefined)?.spec.holderIdentity

/**
 * startChild runs another replica as the container image does: the `npm run build` bundle of
 * main.ts on plain node, no tsx, no node_modules beside it (so the test can SIGKILL it like a dead pod).
 */
function startChild(identity: string): ChildProcess {
  const child = spawn(process.execPath, [bundle], {
    env: {
      ...process.env,
      ...LEASE,
      KUBECONFIG: emu.writeKubeconfig(),
      EVENTS_QUEUE_URL: sqs.queueUrls.events,
      SQS_ENDPOINT: sqs.endpoint,
      AWS_REGION: sqs.region,
      POD_NAME: identity,
      HTTP_PORT: '0',
      LOG_LEVEL: 'WARN',
    },
    stdio: 'ignore',
  })
  children.push(child)
  return child
}

function startReplica(identity: string): Promise<Watcher> {
  return startWatcher({
    kubeConfig: emu.kubeConfig(),
    events: { queueUrl: sqs.queueUrls.events, client: sqs.client },
    identity,
    leaseDurationMs: LEASE_MS,
    renewDeadlineMs: 2_000,
    retryPeriodMs: 250,
  }).then((w) => {
    started.push(w)
    return w
  })
}

async function waitFor(what: string, predicate: () => boolean, timeoutMs = 20_000): Promise<number> {
  const start = Date.now()
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
  return Date.now() - start
}

beforeAll(async () => {
  bundleDir = mkdtempSync(join(tmpdir(), 'nodewarden-watcher-image-'))
  bundle = join(bundleDir, 'index.mjs')
  await bundleWatcher(bundle)
  ;({ emu, sqs, close } = await startPeers())
  seedNodes(emu, 2)
  queue = new QueueReader(sqs)
})

afterAll(async () => {
  for (const c of children) c.kill('SIGKILL')
  await Promise.all(started.map((w) => w.stop()))
  await close?.()
  rmSync(bundleDir, { recursive: true, force: true })
})

describe('two watchers on one Lease', () => {
  it('lets one replica forward while the other stands by, and the standby takes over within the lease duration when the leader dies', async () => {
    const leaderProcess = startChild('replica-a')
    await waitFor('replica-a to lead', () => holder() === 'replica-a')
    const standby = await startReplica('replica-b')
    await standby.ready
    await queue.until((all) => all.length >= 2)
    expect(standby.isLeader()).toBe(false)

    emu.store.patch('nodes', '', 'node-0', { spec: { unschedulable: true } })
    await queue.until((all) => all.some((r) => r.group === 'node-0' && r.view.node.unschedulable))
    expect((await standby.counters()).viewsSent).toBe(0)

    leaderProcess.kill('SIGKILL')
    const tookOverMs = await waitFor('replica-b to take over', () => standby.isLeader())
    // Within the lease duration (+ one retry period and scheduling slack) of the last renewal.
    expect(tookOverMs).toBeLessThanOrEqual(LEASE_MS + 1_000)
    expect(holder()).toBe('replica-b')

    emu.store.patch('nodes', '', 'node-1', { spec: { unschedulable: true } })
    await queue.until((all) => all.some((r) => r.group === 'node-1' && r.view.node.unschedulable))
    await queue.settle(1_000)
    // The new leader resent every node; with no heartbeats in between, its views carry the old leader's
    // resourceVersions and SQS deduplicated them (with heartbeats each node arrives once more, harmlessly).
    const dedupIds = queue.received.map((r) => r.dedupId)
    expect(new Set(dedupIds).size).toBe(dedupIds.length)
    expect(queue.of('node-0').filter((v) => v.node.unschedulable)).toHaveLength(1)
  })

  it('hands the Lease over at once when the leader shuts down gracefully', async () => {
    const leader = started.find((w) => w.isLeader())
    const next = await startReplica('replica-c')
    await next.ready
    expect(next.isLeader()).toBe(false)
    await leader?.stop()
    expect(holder()).toBe('')
    const tookOverMs = await waitFor('replica-c to take over', () => next.isLeader())
    expect(tookOverMs).toBeLessThan(1_000)
  })
})
