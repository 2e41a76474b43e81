import { randomUUID } from 'node:crypto'
import { type AlertDeps, handleAlertMessage, type QueuedMessage } from '../../../functions/alert/handle-alert.ts'
import type { KubeRest } from '../../../functions/alert/kube-rest.ts'
import { createPostWebhook } from '../../../functions/alert/post-webhook.ts'
import { createSubscriptionSource } from '../../../functions/alert/read-subscriptions.ts'
import { createRecordNotice } from '../../../functions/alert/record-notice.ts'
import { EgressPolicySchema } from '../../../shared/alerts/egress-guard.ts'
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../../../shared/alerts/retry-policy.ts'
import type { Log } from '../../../shared/log.ts'
import { type Alert, type AlertInput, AlertSchema } from '../../../shared/messages/alert.ts'
import { parseEnvelope, serializeEnvelope, toEnvelope } from '../../../shared/messages/envelope.ts'
import { NAMESPACE } from './setup-cluster.ts'

/** A recording logger: every line as JSON text, so tests can assert what was (never) logged. */
export function recordingLog(): { log: Log; lines: string[] } {
  const lines: string[] = []
  const write =
    (level: string) =>
    (message: unknown, ...rest: unknown[]) => {
      lines.push(JSON.stringify({ level, message, rest }))
    }
  return {
    log: { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') } as unknown as Log,
    lines,
  }
}

/** A queued message; `messageId` is SQS's, stable across redeliveries of that message. */
type Due = { body: string; dueAt: number; messageId: string }

/**
 * A virtual-time alerts queue around the real alert flow: the receivers, the API server and the
 * webhook adapter are real; only the queue's delays run on a simulated clock, so ten minutes of
 * backoff take milliseconds. `drain` hands due messages to `handleAlertMessage`, earliest first.
 */
export function createHarness(
  kube: KubeRest,
  options: { start: Date; retry?: Partial<RetryPolicy>; timeoutMs?: number },
) {
  let clock = options.start.getTime()
  const now = () => new Date(clock)
  const queue: Due[] = []
  const deadLetters: string[] = []
  const { log, lines } = recordingLog()
  const subscriptions = createSubscriptionSource({ kube, namespace: NAMESPACE, ttlMs: 0, now })
  const deps: AlertDeps = {
    subscriptions,
    recordNotice: createRecordNotice(kube),
    signingKey: subscriptions.signingKey,
    postWebhook: createPostWebhook({
      egress: EgressPolicySchema.parse({ allowHttp: true, allowCidrs: ['127.0.0.1/32'] }),
      timeoutMs: options.timeoutMs ?? 300,
      now,
    }),
    enqueue: async (messages: QueuedMessage[]) => {
      for (const m of messages)
        queue.push({ body: m.body, dueAt: clock + (m.delaySeconds ?? 0) * 1000, messageId: randomUUID() })
    },
    deadLetter: async (body) => {
      deadLetters.push(body)
    },
    now,
    random: Math.random,
    retry: { ...DEFAULT_RETRY_POLICY, ...options.retry },
    cluster: 'test',
    log,
  }
  const handle = (m: Due) =>
    handleAlertMessage(parseEnvelope(m.body, 'io.nodewarden.alert.v1'), m.body, deps, m.messageId)
  return {
    deps,
    queue,
    deadLetters,
    lines,
    now,
    advance: (ms: number) => {
      clock += ms
    },
    /** publish puts an alert message on the queue, as decide or write would. */
    publish: (alert: Alert) => {
      const body = serializeEnvelope(
        toEnvelope('io.nodewarden.alert.v1', alert, { source: 'nodewarden/decide', time: now() }),
      )
      queue.push({ body, dueAt: clock, messageId: randomUUID() })
    },
    /** drain handles due messages, jumping the clock to the next due one, until the queue is empty. */
    drain: async (maxSteps = 1000) => {
      for (let i = 0; i < maxSteps && queue.length > 0; i++) {
        queue.sort((a, b) => a.dueAt - b.dueAt)
        const next = queue.shift() as Due
        clock = Math.max(clock, next.dueAt)
        await handle(next)
      }
    },
    /** handleDueNow handles every message due now concurrently (like one Lambda batch). */
    handleDueNow: async () => {
      const due = queue.filter((m) => m.dueAt <= clock)
      for (const m of due) queue.splice(queue.indexOf(m), 1)
      return Promise.all(
        due.map(async (m) => {
          const started = performance.now()
          await handle(m)
          return { body: m.body, ms: performance.now() - started }
        }),
      )
    },
  }
}

/** anAlert builds an alert for integration tests. */
export function anAlert(overrides: Partial<AlertInput> = {}): Alert {
  return AlertSchema.parse({
    id: 'alert-node-a-kernel',
    status: 'firing',
    severity: 'warning',
    kind: 'ConditionTainted',
    subject: { kind: 'Node', name: 'node-a', zone: 'eu-west-1a', nodeLabels: { pool: 'general' } },
    summary: 'KernelDeadlock=True for 10m',
    startsAt: '2026-11-22T10:00:00Z',
    groupKey: 'node/node-a',
    ...overrides,
  })
}
