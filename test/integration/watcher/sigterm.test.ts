import { type ChildProcess, spawn } from 'node:child_process'
import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Emulator } from '../../../functions/cluster/emulator.ts'
import type { EmbeddedSqs } from '../../../functions/local/embedded-sqs.ts'
import { QueueReader, seedNodes, startPeers } from './harness.ts'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const IDENTITY = 'sigterm-replica'

let emu: Emulator
let sqs: EmbeddedSqs
let close: () => Promise<void>
let proxy: DelayingProxy
let child: ChildProcess | undefined

type Lease = { spec: { holderIdentity?: string } }
const holder = () =>
  (emu.store.get('leases', 'nodewarden', 'nodewarden-watcher') as Lease | undefined)?.spec.holderIdentity

beforeAll(async () => {
  ;({ emu, sqs, close } = await startPeers())
  seedNodes(emu, 2)
  proxy = await startDelayingProxy(sqs.endpoint)
})

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  await proxy?.close()
  await close?.()
})

const stepTaint = (i: number) => ({ key: 'nodewarden.io/step', value: `step-${i}`, effect: 'NoSchedule' })

describe('watcher process on SIGTERM', () => {
  it('flushes the view still pending, releases the Lease and exits 0', async () => {
    child = spawn(process.execPath, ['--import', 'tsx', 'functions/watcher/main.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        KUBECONFIG: emu.writeKubeconfig(),
        EVENTS_QUEUE_URL: sqs.queueUrls.events,
        SQS_ENDPOINT: proxy.url, // the real queue behind a proxy that can slow sends down
        AWS_REGION: sqs.region,
        POD_NAME: IDENTITY,
        HTTP_PORT: '0',
        STATS_COLLECTION: 'false',
        LOG_LEVEL: 'INFO',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout?.on('data', (d) => {
      output += d
    })
    child.stderr?.on('data', (d) => {
      output += d
    })
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
      child?.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })),
    )
    const context = () => `child output:\n${output}`

    await waitFor('the child to hold the Lease', () => holder() === IDENTITY, 15_000, context)
    const url = /"message":"watcher started".*?"url":"([^"]+)"/.exec(output)?.[1]
    expect(url, context()).toBeDefined()
    const queue = new QueueReader(sqs)
    await queue.until((all) => all.length >= 2, 10_000)
    const nodeEvents = async () => {
      const text = await (await fetch(`${url}/metrics`)).text()
      return Number(/^nodewarden_watcher_events_received_total\{resource="node"\} (\d+)$/m.exec(text)?.[1] ?? 0)
    }

    // Sends now take 800 ms. Step 1's view goes in flight; step 2 arrives while it is, so node-0's
    // step-2 view is pending (a node is never in two sends at once) when SIGTERM comes.
    proxy.delayMs = 800
    const seen = await nodeEvents()
    emu.store.patch('nodes', '', 'node-0', { spec: { taints: [stepTaint(1)] } })
    await waitFor('step 1 to be in flight', () => proxy.held > 0, 5_000, context)
    emu.store.patch('nodes', '', 'node-0', { spec: { taints: [stepTaint(2)] } })
    await waitForAsync('the child to see step 2', async () => (await nodeEvents()) >= seen + 2, 5_000)

    const signalledAt = Date.now()
    child.kill('SIGTERM')
    const exit = await Promise.race([
      exited,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`no exit within 8 s; ${context()}`)), 8_000).unref(),
      ),
    ])
    expect(exit, context()).toMatchObject({ code: 0, signal: null })
    expect(exit.at - signalledAt).toBeLessThan(8_000)
    expect(holder()).toBe('')

    // The pending step-2 view was sent during shutdown, after the step-1 send ended.
    await queue.until(
      (all) => all.some((r) => r.group === 'node-0' && r.view.node.taints[0]?.value === 'step-2'),
      5_000,
    )
    expect(queue.of('node-0').map((v) => v.node.taints[0]?.value ?? 'none')).toEqual(['none', 'step-1', 'step-2'])
  })
})

async function waitFor(what: string, predicate: () => boolean, timeoutMs: number, context = () => '') {
  await waitForAsync(what, async () => predicate(), timeoutMs, context)
}

async function waitForAsync(what: string, predicate: () => Promise<boolean>, timeoutMs: number, context = () => '') {
  const deadline = Date.now() + timeoutMs
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; ${context()}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

type DelayingProxy = { url: string; delayMs: number; held: number; close: () => Promise<void> }

/** startDelayingProxy forwards HTTP requests to `target`, holding each for `delayMs` first. */
async function startDelayingProxy(target: string): Promise<DelayingProxy> {
  const state = { delayMs: 0, held: 0 }
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', async () => {
      state.held++
      if (state.delayMs > 0) await new Promise((r) => setTimeout(r, state.delayMs))
      state.held--
      const upstream = request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers)
        up.pipe(res)
      })
      upstream.on('error', () => res.destroy())
      upstream.end(Buffer.concat(chunks))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const proxy: DelayingProxy = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get delayMs() {
      return state.delayMs
    },
    set delayMs(ms: number) {
      state.delayMs = ms
    },
    get held() {
      return state.held
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
  return proxy
}
