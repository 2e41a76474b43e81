/**
 * startEmulator: an HTTP server speaking the Kubernetes REST API faithfully enough for the unmodified
 * @kubernetes/client-node and kubectl, with direct store access, fault injection and a request log.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { KubeConfig } from '@kubernetes/client-node'
import type { Log } from '../../shared/log.ts'
import { createClock, type EmulatorClock } from './clock.ts'
import { Faults } from './faults.ts'
import { toKubeConfig, writeKubeconfigFile } from './kubeconfig.ts'
import { type NodeStats, NodeStatsSchema } from './kubelet-summary.ts'
import { Operations } from './operations.ts'
import { PdbController } from './pdb-controller.ts'
import { RequestLog } from './request-log.ts'
import { createRequestHandler } from './server.ts'
import type { EmulatorState } from './state.ts'
import { ObjectStore } from './store.ts'
import { EmulatorStore } from './store-facade.ts'

export type EmulatorOptions = {
  /** TCP port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number
  /** how many watch events stay replayable; older resourceVersions get 410 Gone (default 100,000). */
  historyLimit?: number
  /** the clock; by default real time, which `clock.setSpeed`/`clock.advance` can turn virtual. */
  now?: () => Date
  log?: Log
  /** how often watches with allowWatchBookmarks=true receive a BOOKMARK (default 5,000 ms). */
  bookmarkIntervalMs?: number
  /** how often the emulator's controllers run (graceful deletion, PDB status, tickers); default 100 ms. */
  tickMs?: number
  /** random source for fault rates (default Math.random). */
  random?: () => number
}

export type Ticker = (now: Date) => void

export type Emulator = {
  url: string
  port: number
  clock: EmulatorClock
  store: EmulatorStore
  faults: Faults
  requests: RequestLog
  state: EmulatorState
  /** writeKubeconfig writes a kubeconfig (http + insecure-skip-tls-verify) into `dir` or a temp dir; returns its path. */
  writeKubeconfig: (dir?: string) => string
  /** kubeConfig returns a loaded client-node KubeConfig for this emulator. */
  kubeConfig: () => KubeConfig
  /** tick runs the controllers once at the clock's now (graceful deletions, PDB status, tickers). */
  tick: () => void
  /** addTicker registers work to run on every tick (kubelet heartbeats, scenario steps); returns a remover. */
  addTicker: (ticker: Ticker) => () => void
  close: () => Promise<void>
}

const DEFAULT_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease']

/** startEmulator starts an emulator on 127.0.0.1 and resolves once it accepts connections. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const clock = options.now ? offsetClock(options.now) : createClock()
  const now = clock.now
  const store = new ObjectStore({ historyLimit: options.historyLimit ?? 100_000, now })
  const ops = new Operations(store, now)
  const pdbs = new PdbController(store, now)
  const state: EmulatorState = { store, ops, pdbs, now, nodeStats: new Map(), silentNodes: new Set() }
  registerCustomResources(store)
  const nsDef = store.resolve('namespaces')
  for (const name of DEFAULT_NAMESPACES) ops.create(nsDef, '', { metadata: { name } }, { privileged: true })

  const faults = new Faults(options.random)
  const requests = new RequestLog()
  const tickers = new Set<Ticker>()
  const tick = () => {
    const at = now()
    ops.removeDue(at.getTime())
    for (const t of tickers) {
      try {
        t(at)
      } catch (err) {
        options.log?.warn('emulator ticker failed', { error: (err as Error).message })
      }
    }
    pdbs.reconcile()
  }
  const server: Server = createServer(
    createRequestHandler({ state, faults, requests, bookmarkIntervalMs: options.bookmarkIntervalMs ?? 5000 }),
  )
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  const url = `http://127.0.0.1:${port}`
  const interval = setInterval(tick, options.tickMs ?? 100)
  interval.unref()
  options.log?.info('emulator listening', { url })
  return {
    url,
    port,
    clock: {
      ...clock,
      now,
      setSpeed: clock.setSpeed,
      advance: (ms: number) => {
        clock.advance(ms)
        tick()
      },
      get speed() {
        return clock.speed
      },
    },
    store: new EmulatorStore(state, NodeStatsSchema),
    faults,
    requests,
    state,
    writeKubeconfig: (dir?: string) => writeKubeconfigFile(url, dir),
    kubeConfig: () => toKubeConfig(url),
    tick,
    addTicker: (ticker: Ticker) => {
      tickers.add(ticker)
      return () => tickers.delete(ticker)
    },
    close: async () => {
      clearInterval(interval)
      faults.dropWatches()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

function offsetClock(base: () => Date): EmulatorClock {
  let offset = 0
  return {
    now: () => new Date(base().getTime() + offset),
    setSpeed: () => {},
    advance: (ms: number) => {
      offset += ms
    },
    speed: 1,
  }
}

/** registerCustomResources serves (and stops serving) the types CRDs define, as the apiextensions server does. */
function registerCustomResources(store: ObjectStore): void {
  store.afterWrite.push((event) => {
    if (event.resource !== 'customresourcedefinitions.apiextensions.k8s.io') return
    const defs = store.customDefsFor(event.entry.obj)
    if (event.type === 'DELETED') store.unregister(defs)
    else for (const def of defs) store.register(def)
  })
}

export type { NodeStats }
