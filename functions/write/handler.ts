/**
 * Trigger: the `decisions` SQS queue (decision envelopes from decide, and the writer's own re-enqueues).
 * Job: re-check each decision on live cluster state, within budgets, and apply it (dry-run unless APPLY=true).
 * Output: cluster writes, Kubernetes Events, `ActionOutcome` alerts on `alerts`, re-enqueued decisions.
 */
import { readFileSync } from 'node:fs'
import { fromNodeProviderChain } from '@aws-sdk/credential-providers'
import { defaultPolicy, loadPolicyText, type Policy } from '../../shared/config/index.ts'
import { loadKubeConfig } from '../../shared/kube/load-kube-config.ts'
import { makeSqsHandler, type SqsHandler } from '../../shared/lambda/sqs-handler.ts'
import { createLogger } from '../../shared/log.ts'
import { serializeEnvelope, toEnvelope } from '../../shared/messages/index.ts'
import { createSqsClient } from '../../shared/sqs/client.ts'
import { realSleep } from '../../shared/sqs/retry.ts'
import { sendMessages } from '../../shared/sqs/transport.ts'
import { budgetLimitsFromPolicy } from './budget-ledger.ts'
import { makeCluster } from './cluster.ts'
import { loadConfig, type WriteConfig } from './config.ts'
import { handleDecision, type WriteDeps } from './handle-decision.ts'

const SOURCE = 'nodewarden/write'

/** loadWriterPolicy reads the deployed policy document (inline, file, or defaults) for its budgets. */
export function loadWriterPolicy(config: Pick<WriteConfig, 'NODEWARDEN_POLICY' | 'NODEWARDEN_POLICY_FILE'>): Policy {
  if (config.NODEWARDEN_POLICY) return loadPolicyText(config.NODEWARDEN_POLICY, 'NODEWARDEN_POLICY')
  if (config.NODEWARDEN_POLICY_FILE)
    return loadPolicyText(readFileSync(config.NODEWARDEN_POLICY_FILE, 'utf8'), config.NODEWARDEN_POLICY_FILE)
  return defaultPolicy()
}

/** createWriteDeps wires the cluster adapters, SQS transport, clock, logger and budgets. */
export function createWriteDeps(config: WriteConfig): WriteDeps {
  const now = () => new Date()
  const kubeConfig = loadKubeConfig(config.access, { now, awsCredentials: fromNodeProviderChain() })
  const client = createSqsClient({
    region: config.AWS_REGION,
    ...(config.SQS_ENDPOINT ? { endpoint: config.SQS_ENDPOINT } : {}),
  })
  const sqs = { client, sleep: realSleep, random: Math.random }
  return {
    cluster: makeCluster({
      kubeConfig,
      namespace: config.NODEWARDEN_NAMESPACE,
      ledgerName: config.LEDGER_NAME,
      reportingInstance: config.writerId,
      timeoutMs: config.KUBE_TIMEOUT_MS,
    }),
    now,
    dryRun: !config.APPLY,
    limits: budgetLimitsFromPolicy(loadWriterPolicy(config)),
    requeue: async (decision, delaySeconds) => {
      const body = serializeEnvelope(toEnvelope('io.nodewarden.decision.v1', decision, { source: SOURCE, time: now() }))
      await sendMessages(sqs, config.DECISIONS_QUEUE_URL, [{ body, delaySeconds }])
    },
    sendAlert: async (alert) => {
      // The envelope id is the alert's deterministic id: a redelivered decision re-sends the same message.
      const envelope = toEnvelope('io.nodewarden.alert.v1', alert, { source: SOURCE, time: now(), id: alert.id })
      await sendMessages(sqs, config.ALERTS_QUEUE_URL, [{ body: serializeEnvelope(envelope) }])
    },
    log: createLogger('write', config.LOG_LEVEL),
    maxConflictRetries: 5,
    maxBlockedAttempts: 12,
  }
}

/** createWriteHandler returns the Lambda SQS handler for the decisions queue. */
export function createWriteHandler(deps: WriteDeps): SqsHandler {
  return makeSqsHandler({
    queue: 'decisions',
    type: 'io.nodewarden.decision.v1',
    log: deps.log,
    handle: async (envelope) => {
      await handleDecision(envelope.data, deps)
    },
  })
}

let wired: SqsHandler | undefined
/** handler is the Lambda entry point; it wires (validating env, policy and cluster access) on the first event. */
export const handler: SqsHandler = (event, context) => {
  if (!wired) {
    const config = loadConfig(process.env)
    const deps = createWriteDeps(config)
    deps.log.info('writer ready', {
      mode: config.access.mode,
      apply: config.APPLY,
      namespace: config.NODEWARDEN_NAMESPACE,
    })
    wired = createWriteHandler(deps)
  }
  return wired(event, context)
}
