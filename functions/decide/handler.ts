/**
 * Trigger: the `events` SQS FIFO queue (NodeView envelopes from the watcher). Job: judge each
 * node under the policy document, purely. Output: decision envelopes on `decisions` (delayed to
 * their notBefore) and alert envelopes on `alerts`.
 */
import { readFileSync } from 'node:fs'
import * as z from 'zod'
import { defaultPolicy, loadPolicyText, type Policy } from '../../shared/config/index.ts'
import { makeSqsHandler, type SqsHandler } from '../../shared/lambda/sqs-handler.ts'
import { createLogger } from '../../shared/log.ts'
import { createSqsClient } from '../../shared/sqs/client.ts'
import { realSleep } from '../../shared/sqs/retry.ts'
import { sendMessages } from '../../shared/sqs/transport.ts'
import { type DecideDeps, handleNodeView } from './handle-node-view.ts'

const EnvSchema = z.object({
  AWS_REGION: z.string().min(1).default('us-east-1'),
  SQS_ENDPOINT: z.url().optional(),
  DECISIONS_QUEUE_URL: z.url(),
  ALERTS_QUEUE_URL: z.url(),
  /** The policy document inline (YAML or JSON); wins over NODEWARDEN_POLICY_FILE. */
  NODEWARDEN_POLICY: z.string().min(1).optional(),
  /** A policy file packaged with the function; neither set → the built-in defaults. */
  NODEWARDEN_POLICY_FILE: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT']).default('INFO'),
})
export type DecideConfig = z.infer<typeof EnvSchema>

/** loadConfig reads the decide function's environment, naming every bad variable (never its value). */
export function loadConfig(env: Record<string, string | undefined>): DecideConfig {
  const result = EnvSchema.safeParse(env)
  if (!result.success)
    throw new Error(
      `invalid decide configuration: ${result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    )
  return result.data
}

/** loadDecidePolicy validates the deployed policy document (inline, file, or defaults); a bad one fails the cold start. */
export function loadDecidePolicy(config: Pick<DecideConfig, 'NODEWARDEN_POLICY' | 'NODEWARDEN_POLICY_FILE'>): Policy {
  if (config.NODEWARDEN_POLICY) return loadPolicyText(config.NODEWARDEN_POLICY, 'NODEWARDEN_POLICY')
  if (config.NODEWARDEN_POLICY_FILE)
    return loadPolicyText(readFileSync(config.NODEWARDEN_POLICY_FILE, 'utf8'), config.NODEWARDEN_POLICY_FILE)
  return defaultPolicy()
}

/** createDecideDeps wires the SQS transport, clock, logger and policy. */
export function createDecideDeps(config: DecideConfig): DecideDeps {
  const client = createSqsClient({
    region: config.AWS_REGION,
    ...(config.SQS_ENDPOINT ? { endpoint: config.SQS_ENDPOINT } : {}),
  })
  const sqs = { client, sleep: realSleep, random: Math.random }
  const urls = { decisions: config.DECISIONS_QUEUE_URL, alerts: config.ALERTS_QUEUE_URL } as const
  return {
    send: (queue, messages) => {
      if (queue !== 'decisions' && queue !== 'alerts') throw new Error(`decide does not send to ${queue}`)
      return sendMessages(sqs, urls[queue], messages)
    },
    now: () => new Date(),
    log: createLogger('decide', config.LOG_LEVEL),
    policy: loadDecidePolicy(config),
  }
}

/** createDecideHandler returns the Lambda SQS handler for the events queue. */
export function createDecideHandler(deps: DecideDeps): SqsHandler {
  return makeSqsHandler({
    queue: 'events',
    type: 'io.nodewarden.nodeview.v1',
    log: deps.log,
    handle: async (envelope) => {
      await handleNodeView(envelope, deps)
    },
  })
}

let wired: SqsHandler | undefined
/** handler is the Lambda entry point; it wires (and validates env and policy) on the cold start's first event. */
export const handler: SqsHandler = (event, context) => {
  wired ??= createDecideHandler(createDecideDeps(loadConfig(process.env)))
  return wired(event, context)
}
