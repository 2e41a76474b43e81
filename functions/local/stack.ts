import { randomBytes } from 'node:crypto'
import type { KubeConfig } from '@kubernetes/client-node'
import { loadKubeConfig } from '../../shared/kube/load-kube-config.ts'
import { createLogger, type Log, type LogLevel } from '../../shared/log.ts'
import { type Envelope, type NodeView, parseEnvelope, type Severity } from '../../shared/messages/index.ts'
import type { OutgoingMessage } from '../../shared/sqs/batches.ts'
import { createKubeRest } from '../alert/kube-rest.ts'
import { subscribeLocalReceiver } from '../alert/local-demo.ts'
import { type LocalReceiver, startLocalReceiver } from '../alert/local-receiver.ts'
import { type RunningApi, startApi } from '../api/main.ts'
import { createApiDeps, loadApiConfig } from '../api/wiring.ts'
import { type Emulator, startEmulator } from '../cluster/emulator.ts'
import { type Player, playScenario } from '../cluster/scenario/player.ts'
import type { Scenario } from '../cluster/scenario/schema.ts'
import { seedScenario } from '../cluster/scenario/seed.ts'
import { startWatcher, type Watcher, type WatcherOptions } from '../watcher/watcher.ts'
import { ensureLedger } from '../write/cluster.ts'
import { withMemoryLedger } from './dry-run-ledger.ts'
import { type Pipeline, startPipeline } from './pipeline.ts'
import { realClock, type ScenarioClock, toRealMs, toRealSeconds } from './scenario-clock.ts'
import { countEvents, type StackCounts, type StackEvent, type StackEventInput } from './stack-events.ts'
import { alertFunction, decideFunction, type Emit, type StageOptions, writeFunction } from './stage-functions.ts'

/**
 * The whole pipeline in one process, in small named steps: the cluster (the emulator playing a
 * scenario, or a real cluster through a kubeconfig), embedded SQS with the deployed queue
 * definitions, decide/write/alert on the local Lambda runtime, the watcher, the local webhook
 * receiver and the api. `npm start` prints what it reports; tests assert on the same handles.
 */

export const NAMESPACE = 'nodewarden'
export const LEDGER_NAME = 'nodewarden-writer-ledger'

export type EmbeddedTarget = {
  kind: 'embedded'
  scenario: Scenario
  /** Scenario seconds per real second (default 30); 1 = real time. */
  speed?: number
}
export type KubeconfigTarget = {
  kind: 'kubeconfig'
  kubeconfigPath: string
  context?: string
  /** Apply for real; default: server-side dry run (`dryRun=All`). */
  apply?: boolean
}

export type LocalStackOptions = {
  target: EmbeddedTarget | KubeconfigTarget
  /** A policy document for decide and write (YAML/JSON file); default: the built-in policy. */
  policyFile?: string
  logLevel?: LogLevel
  onEvent?: (event: StackEvent) => void
  /** API bearer token; default: 32 random bytes (hex). */
  apiToken?: string
  /** Extra watcher options (e.g. pressure stats collection), applied over the stack's own. */
  watcher?: Partial<WatcherOptions>
  /** Send one malformed NodeView at start to show bad input landing in the events DLQ (default false). */
  badInput?: boolean
}

export type LocalStack = {
  mode: 'embedded' | 'kubeconfig'
  clock: ScenarioClock
  /** Whether the writer applies (always, against the emulator) or dry-runs. */
  apply: boolean
  kubeconfigPath: string
  kubeConfig: KubeConfig
  emulator?: Emulator
  player?: Player
  /** Scenario time at which the timeline started, and when its last step is due. */
  startedAt: Date
  scenarioEndsAt?: Date
  pipeline: Pipeline
  watcher: Watcher
  receiver?: LocalReceiver & { signingKey: string }
  api?: RunningApi & { token: string }
  /** Every event reported so far, in order. */
  events: StackEvent[]
  /** The last NodeView the watcher forwarded for each node. */
  views: Map<string, NodeView>
  counts: () => StackCounts
  stop: () => Promise<void>
}

/** startLocalStack starts every piece for `options.target` and resolves once the watcher has synced. */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const logLevel = options.logLevel ?? 'ERROR'
  const log = createLogger('local', logLevel)
  const events: StackEvent[] = []
  const views = new Map<string, NodeView>()
  const cleanups: (() => Promise<void> | void)[] = []
  const stopAll = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup()
  }
  try {
    const cluster =
      options.target.kind === 'embedded'
        ? await startEmbeddedCluster(options.target, cleanups)
        : openKubeconfig(options.target)
    const clock = cluster.clock
    const emit = makeEmit(clock, events, options.onEvent)
    const receiver = cluster.emulator ? await subscribeReceiver(cluster.emulator, emit, cleanups) : undefined
    if (cluster.apply) await ensureLedger(cluster.kubeConfig, NAMESPACE, LEDGER_NAME).catch(missingNamespace)
    const pipeline = await startStages({ ...options, logLevel }, cluster, clock, emit, log)
    cleanups.push(() => pipeline.stop())
    if (options.badInput) await pipeline.send('events', [malformedView()])
    const watcher = await startWatcher(watcherOptions(options, cluster, clock, pipeline, views, emit, log))
    cleanups.push(() => watcher.stop())
    await watcher.ready
    const api = cluster.emulator ? await startLocalApi(cluster.emulator, options, log, cleanups) : undefined
    const player = cluster.emulator ? startPlayer(cluster.emulator, options.target as EmbeddedTarget, emit) : undefined
    if (player) cleanups.push(() => player.stop())
    const startedAt = clock.now()
    const lastStep = Math.max(0, ...(cluster.scenario?.timeline.map((s) => s.at) ?? []))
    return {
      mode: options.target.kind,
      clock,
      apply: cluster.apply,
      kubeconfigPath: cluster.kubeconfigPath,
      kubeConfig: cluster.kubeConfig,
      ...(cluster.emulator ? { emulator: cluster.emulator } : {}),
      ...(player ? { player, scenarioEndsAt: new Date(startedAt.getTime() + lastStep) } : {}),
      startedAt,
      pipeline,
      watcher,
      ...(receiver ? { receiver } : {}),
      ...(api ? { api } : {}),
      events,
      views,
      counts: () => countEvents(events),
      stop: stopAll,
    }
  } catch (err) {
    await stopAll()
    throw err
  }
}

type ClusterHandle = {
  clock: ScenarioClock
  apply: boolean
  kubeconfigPath: string
  context?: string
  kubeConfig: KubeConfig
  emulator?: Emulator
  scenario?: Scenario
}

/** startEmbeddedCluster starts the emulator and seeds the scenario's cluster (the timeline plays later). */
async function startEmbeddedCluster(
  target: EmbeddedTarget,
  cleanups: (() => Promise<void> | void)[],
): Promise<ClusterHandle> {
  const emulator = await startEmulator()
  cleanups.push(() => emulator.close())
  seedScenario(emulator, target.scenario)
  const speed = target.speed ?? 30
  return {
    clock: { now: emulator.clock.now, speed },
    apply: true,
    kubeconfigPath: emulator.writeKubeconfig(),
    kubeConfig: emulator.kubeConfig(),
    emulator,
    scenario: target.scenario,
  }
}

/** openKubeconfig loads a real cluster's kubeconfig: real time, dry run unless `apply`. */
function openKubeconfig(target: KubeconfigTarget): ClusterHandle {
  const access = {
    mode: 'kubeconfig-file' as const,
    path: target.kubeconfigPath,
    ...(target.context ? { context: target.context } : {}),
  }
  return {
    clock: realClock,
    apply: target.apply === true,
    kubeconfigPath: target.kubeconfigPath,
    ...(target.context ? { context: target.context } : {}),
    kubeConfig: loadKubeConfig(access, { now: () => new Date() }),
  }
}

/** subscribeReceiver starts the local webhook receiver and subscribes it (CRD, namespace, Secret, AlertSubscription). */
async function subscribeReceiver(
  emulator: Emulator,
  emit: Emit,
  cleanups: (() => Promise<void> | void)[],
): Promise<LocalReceiver & { signingKey: string }> {
  const signingKey = `whsec-local-${randomBytes(16).toString('hex')}`
  const receiver = await startLocalReceiver({
    signingKey,
    onAlert: (received) => {
      const alert = alertOf(received.payload)
      if (alert)
        emit({
          kind: 'alert',
          via: 'receiver',
          status: alert.status,
          severity: alert.severity,
          alertKind: alert.kind,
          subject: alert.subject,
          summary: alert.summary,
          ...(received.verified === undefined ? {} : { verified: received.verified }),
        })
    },
  })
  cleanups.push(() => receiver.close())
  await subscribeLocalReceiver(createKubeRest({ server: emulator.url }), {
    namespace: NAMESPACE,
    url: receiver.url,
    signingKey,
  })
  return { ...receiver, signingKey }
}

/** startStages starts embedded SQS and decide, write and alert on the local runtime. */
async function startStages(
  options: LocalStackOptions & { logLevel: LogLevel },
  cluster: ClusterHandle,
  clock: ScenarioClock,
  emit: Emit,
  log: Log,
): Promise<Pipeline> {
  return startPipeline({
    log,
    // Visibility timeouts as infra/queues.yml declares them, in scenario time.
    visibilityTimeoutSeconds: (_queue, definition) => toRealSeconds(clock, definition.visibilityTimeoutSeconds),
    functions: async (env, sqs) => {
      const stage: StageOptions = {
        env,
        sqs,
        clock,
        logLevel: options.logLevel,
        emit,
        ...(options.policyFile ? { policyFile: options.policyFile } : {}),
      }
      const write = writeFunction(stage, {
        kubeconfigPath: cluster.kubeconfigPath,
        ...(cluster.context ? { context: cluster.context } : {}),
        apply: cluster.apply,
        namespace: NAMESPACE,
        ledgerName: LEDGER_NAME,
        ...(cluster.apply ? {} : { adaptCluster: withMemoryLedger }),
      })
      const functions = [decideFunction(stage), write]
      // Against a real cluster alerts are printed from the queue: no subscription objects are created there.
      if (cluster.emulator)
        functions.push(alertFunction(stage, { server: cluster.emulator.url, namespace: NAMESPACE }, log))
      return functions
    },
    onEvent: (e) => {
      if (e.kind === 'dead-lettered')
        emit({
          kind: 'dlq',
          queue: queueOfFunction(e.function),
          messageId: e.messageId,
          reason: e.error ?? 'maxReceiveCount reached',
        })
      else if (e.kind === 'failed')
        emit({
          kind: 'retry',
          function: e.function,
          messageId: e.messageId,
          receiveCount: e.receiveCount,
          ...(e.error ? { error: e.error } : {}),
        })
    },
    onSinkMessage: (queue, envelope) => {
      if (queue !== 'alerts') return
      const alert = (envelope as Envelope<'io.nodewarden.alert.v1'>).data
      emit({
        kind: 'alert',
        via: 'queue',
        status: alert.status,
        severity: alert.severity,
        alertKind: alert.kind,
        subject: subjectName(alert.subject),
        summary: alert.summary,
      })
    },
  })
}

/** watcherOptions: one replica; against the emulator it elects itself on a Lease there, in scenario time. */
function watcherOptions(
  options: LocalStackOptions,
  cluster: ClusterHandle,
  clock: ScenarioClock,
  pipeline: Pipeline,
  views: Map<string, NodeView>,
  emit: Emit,
  log: Log,
): WatcherOptions {
  const send = async (messages: OutgoingMessage[]) => {
    await pipeline.send('events', messages)
    for (const m of messages) {
      const view = parseEnvelope(m.body, 'io.nodewarden.nodeview.v1').data
      emit({ kind: 'view', node: view.node.name, cause: view.cause, pods: view.pods.length })
      views.set(view.node.name, view)
    }
  }
  const scaled = (ms: number) => ms * clock.speed
  return {
    kubeConfig: cluster.kubeConfig,
    events: { send },
    identity: 'nodewarden-local',
    // On a real cluster a local trial writes nothing, so no Lease either: this is the only replica.
    leaderElection: cluster.emulator !== undefined,
    leaseNamespace: NAMESPACE,
    // The elector compares Lease times on the scenario clock but sleeps in real time.
    leaseDurationMs: scaled(15_000),
    renewDeadlineMs: scaled(10_000),
    retryPeriodMs: 2_000,
    resyncPeriodMs: toRealMs(clock, 300_000),
    httpPort: 0,
    httpHost: '127.0.0.1',
    now: clock.now,
    log,
    ...options.watcher,
  }
}

/** startLocalApi serves the api on loopback against the emulator, with a generated token unless one is given. */
async function startLocalApi(
  emulator: Emulator,
  options: LocalStackOptions,
  log: Log,
  cleanups: (() => Promise<void> | void)[],
): Promise<RunningApi & { token: string }> {
  const token = options.apiToken ?? randomBytes(32).toString('hex')
  const config = loadApiConfig({
    KUBE_SERVER: emulator.url,
    API_TOKEN: token,
    SUBSCRIPTIONS_NAMESPACE: NAMESPACE,
    CLUSTER_NAME: 'local',
    EGRESS_ALLOW_HTTP: 'true',
    EGRESS_ALLOW_CIDRS: '127.0.0.1/32',
    LOG_LEVEL: options.logLevel ?? 'ERROR',
  })
  const api = await startApi(createApiDeps(config, { log }))
  cleanups.push(() => api.close())
  return { ...api, token }
}

/** startPlayer plays the scenario's timeline on the emulator's clock and reports each step as it is applied. */
function startPlayer(emulator: Emulator, target: EmbeddedTarget, emit: Emit): Player {
  const player = playScenario(emulator, target.scenario, { seed: false, clock: 'virtual', speed: target.speed ?? 30 })
  let reported = 0
  const report = () => {
    for (; reported < player.applied.length; reported++) {
      const step = player.applied[reported]
      if (step) emit({ kind: 'step', action: step.action, detail: step.detail })
    }
  }
  report()
  const remove = emulator.addTicker(report)
  void player.done.then(() => {
    report()
    remove()
  })
  return player
}

function makeEmit(clock: ScenarioClock, events: StackEvent[], onEvent?: (e: StackEvent) => void): Emit {
  const seen = new Set<string>()
  return (partial) => {
    // decide re-proposes an unapplied decision on every view of its node, and the writer handles
    // each copy (idempotently): report each decision, outcome and Event once.
    const key = onceKey(partial)
    if (key !== undefined) {
      if (seen.has(key)) return
      seen.add(key)
    }
    const event = { ...partial, at: clock.now().toISOString() } as StackEvent
    events.push(event)
    onEvent?.(event)
  }
}

function onceKey(e: StackEventInput): string | undefined {
  if (e.kind === 'decision') return `decision:${e.id}`
  if (e.kind === 'outcome' && e.status !== 'deferred') return `outcome:${e.decisionId}:${e.status}:${e.code}`
  if (e.kind === 'k8s-event') return `event:${e.name}`
  return undefined
}

function alertOf(
  payload: unknown,
):
  | { status: 'firing' | 'resolved'; severity: Severity; kind: StackAlertKind; subject: string; summary: string }
  | undefined {
  const data = (payload as { data?: unknown } | null)?.data as
    | {
        status?: 'firing' | 'resolved'
        severity?: Severity
        kind?: StackAlertKind
        subject?: { kind: string; name: string; namespace?: string }
        summary?: string
      }
    | undefined
  if (!data?.status || !data.severity || !data.kind || !data.subject || !data.summary) return undefined
  return {
    status: data.status,
    severity: data.severity,
    kind: data.kind,
    subject: subjectName(data.subject),
    summary: data.summary,
  }
}
type StackAlertKind = Extract<StackEvent, { kind: 'alert' }>['alertKind']

function subjectName(s: { kind: string; name: string; namespace?: string }): string {
  return `${s.kind.toLowerCase()}/${s.namespace ? `${s.namespace}/` : ''}${s.name}`
}

function queueOfFunction(name: string): string {
  return name === 'decide' ? 'events' : name === 'write' ? 'decisions' : name === 'alert' ? 'alerts' : name
}

function malformedView(): OutgoingMessage {
  const body = JSON.stringify({
    specversion: '1.0',
    id: 'local-bad-input',
    source: 'nodewarden/local',
    type: 'io.nodewarden.nodeview.v1',
    data: { node: { name: 'node-x' } },
  })
  return { body, groupId: 'node-x', deduplicationId: 'local-bad-input' }
}

function missingNamespace(err: unknown): never {
  throw new Error(
    `cannot create the writer's budget ledger in namespace ${NAMESPACE} (create the namespace, or apply infra/k8s first)`,
    { cause: err },
  )
}
