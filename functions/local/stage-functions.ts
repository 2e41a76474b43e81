import { makeSqsHandler } from '../../shared/lambda/sqs-handler.ts'
import type { Log, LogLevel } from '../../shared/log.ts'
import { type Decision, parseEnvelope } from '../../shared/messages/index.ts'
import type { Send } from '../../shared/sqs/transport.ts'
import { createAlertDeps, createAlertHandler, loadConfig as loadAlertConfig } from '../alert/handler.ts'
import { createDecideDeps, createDecideHandler, loadConfig as loadDecideConfig } from '../decide/handler.ts'
import { loadConfig as loadWriteConfig } from '../write/config.ts'
import { handleDecision, type WriteDeps } from '../write/handle-decision.ts'
import { createWriteDeps } from '../write/handler.ts'
import { renderEvent } from '../write/render-outcome.ts'
import type { EmbeddedSqs } from './embedded-sqs.ts'
import type { PipelineFunction } from './pipeline.ts'
import { type ScenarioClock, toRealSeconds } from './scenario-clock.ts'
import type { StackEventInput } from './stack-events.ts'

/**
 * The three SQS-triggered functions as the local stack runs them: the same deps factories and
 * flows as their Lambda handlers, with two local changes — the clock is the scenario clock (SQS
 * delays shortened by its speed), and each stage reports what it did as StackEvents.
 */

export type Emit = (event: StackEventInput) => void

export type StageOptions = {
  env: Record<string, string>
  sqs: EmbeddedSqs
  clock: ScenarioClock
  logLevel: LogLevel
  emit: Emit
  /** NODEWARDEN_POLICY_FILE for decide and write; unset = the built-in defaults. */
  policyFile?: string
}

/** decideFunction wires decide on the events queue, reporting every decision it sends. */
export function decideFunction(options: StageOptions): PipelineFunction {
  const config = loadDecideConfig({ ...options.env, ...policyEnv(options), LOG_LEVEL: options.logLevel })
  const deps = createDecideDeps(config)
  const send: Send = async (queue, messages) => {
    if (queue === 'decisions')
      for (const m of messages) {
        const d = parseEnvelope(m.body, 'io.nodewarden.decision.v1').data
        options.emit({
          kind: 'decision',
          id: d.id,
          action: d.action,
          target: targetName(d),
          reason: d.reason,
          ...due(d),
        })
      }
    await deps.send(
      queue,
      messages.map((m) =>
        m.delaySeconds === undefined ? m : { ...m, delaySeconds: toRealSeconds(options.clock, m.delaySeconds) },
      ),
    )
  }
  return { name: 'decide', queue: 'events', handler: createDecideHandler({ ...deps, send, now: options.clock.now }) }
}

export type WriteAccess = {
  kubeconfigPath: string
  context?: string
  apply: boolean
  namespace: string
  ledgerName: string
  /** Replaces the cluster adapters (e.g. an in-memory ledger for dry runs against a real cluster). */
  adaptCluster?: (cluster: WriteDeps['cluster']) => WriteDeps['cluster']
}

/** writeFunction wires write on the decisions queue, reporting each outcome and each Event. */
export function writeFunction(options: StageOptions, access: WriteAccess): PipelineFunction {
  const config = loadWriteConfig({
    ...options.env,
    ...policyEnv(options),
    KUBE_ACCESS: 'kubeconfig-file',
    KUBECONFIG: access.kubeconfigPath,
    ...(access.context ? { KUBE_CONTEXT: access.context } : {}),
    APPLY: String(access.apply),
    NODEWARDEN_NAMESPACE: access.namespace,
    LEDGER_NAME: access.ledgerName,
    WRITER_ID: 'nodewarden-local',
    LOG_LEVEL: options.logLevel,
  })
  const base = createWriteDeps(config)
  const cluster = access.adaptCluster ? access.adaptCluster(base.cluster) : base.cluster
  const deps: WriteDeps = {
    ...base,
    now: options.clock.now,
    requeue: (decision, delaySeconds) => base.requeue(decision, toRealSeconds(options.clock, delaySeconds)),
    cluster: {
      ...cluster,
      recordEvent: async (event, now) => {
        await cluster.recordEvent(event, now)
        options.emit({
          kind: 'k8s-event',
          name: event.name,
          reason: event.reason,
          regarding: regardingName(event.regarding),
          note: event.note,
          recorded: true,
        })
      },
    },
  }
  const handler = makeSqsHandler({
    queue: 'decisions',
    type: 'io.nodewarden.decision.v1',
    log: deps.log,
    handle: async (envelope) => {
      const decision = envelope.data
      const result = await handleDecision(decision, deps)
      const fields = { decisionId: decision.id, action: decision.action, target: targetName(decision) }
      if (result.status === 'deferred') {
        options.emit({
          kind: 'outcome',
          ...fields,
          status: 'deferred',
          code: 'notBefore',
          reason: result.reason,
          dryRun: deps.dryRun,
        })
        return
      }
      options.emit({
        kind: 'outcome',
        ...fields,
        status: result.status,
        code: result.code,
        reason: result.reason,
        dryRun: result.dryRun,
      })
      // In a dry run the writer only logs the Event it would record: show it the same way.
      const event = deps.dryRun ? renderEvent(decision, result) : undefined
      if (event)
        options.emit({
          kind: 'k8s-event',
          name: event.name,
          reason: event.reason,
          regarding: regardingName(event.regarding),
          note: event.note,
          recorded: false,
        })
    },
  })
  return { name: 'write', queue: 'decisions', handler }
}

export type AlertAccess = { server: string; namespace: string }

/** alertFunction wires alert on the alerts queue (real time: webhook signatures carry wall-clock timestamps). */
export function alertFunction(options: StageOptions, access: AlertAccess, log: Log): PipelineFunction {
  const config = loadAlertConfig({
    ...options.env,
    ALERTS_DLQ_URL: options.sqs.dlqUrls.alerts,
    KUBE_SERVER: access.server,
    SUBSCRIPTIONS_NAMESPACE: access.namespace,
    CLUSTER_NAME: 'local',
    // The local demo's receiver listens on loopback over http: allowed here by configuration only.
    EGRESS_ALLOW_HTTP: 'true',
    EGRESS_ALLOW_CIDRS: '127.0.0.1/32',
    // No subscription cache: concurrent deliveries in one batch each remember the subscription they
    // read, so a cached copy can lose the other's status.notified record and re-send its alert.
    SUBSCRIPTION_CACHE_SECONDS: '0',
    LOG_LEVEL: options.logLevel,
  })
  const deps = createAlertDeps(config, { client: options.sqs.client, log })
  const deadLetter = async (body: string) => {
    await deps.deadLetter(body)
    options.emit({ kind: 'dlq', queue: 'alerts', reason: deadReason(body) })
  }
  return { name: 'alert', queue: 'alerts', handler: createAlertHandler({ ...deps, deadLetter }) }
}

function policyEnv(options: StageOptions): Record<string, string> {
  return options.policyFile ? { NODEWARDEN_POLICY_FILE: options.policyFile } : {}
}

/** targetName renders a decision's target as `node-a` or `namespace/pod`. */
export function targetName(d: Decision): string {
  return d.target.kind === 'Node' ? d.target.name : `${d.target.namespace}/${d.target.name}`
}

function due(d: Decision): { notBefore?: string } {
  return d.notBefore ? { notBefore: d.notBefore } : {}
}

function regardingName(r: { kind: string; name: string; namespace?: string }): string {
  return r.namespace ? `${r.kind.toLowerCase()}/${r.namespace}/${r.name}` : `${r.kind.toLowerCase()}/${r.name}`
}

function deadReason(body: string): string {
  try {
    const parsed = JSON.parse(body) as { nwdeadreason?: unknown }
    return typeof parsed.nwdeadreason === 'string' ? parsed.nwdeadreason : 'dead-lettered'
  } catch {
    return 'dead-lettered'
  }
}
