import type { Policy } from '../../shared/config/index.ts'
import type { Log } from '../../shared/log.ts'
import { type Envelope, serializeEnvelope, toEnvelope } from '../../shared/messages/index.ts'
import { decide } from '../../shared/policy/index.ts'
import { delaySecondsUntil } from '../../shared/sqs/batches.ts'
import type { Send } from '../../shared/sqs/transport.ts'

/** DecideDeps: everything one NodeView needs besides the view itself. */
export type DecideDeps = { send: Send; now: () => Date; log: Log; policy: Policy; source?: string }

export type DecideOutcome = { decisions: number; alerts: number; held: number; waiting: number }

/**
 * handleNodeView judges one NodeView and sends the outcome: decisions to `decisions` (delayed
 * until their `notBefore`, at most 900 s; the writer re-enqueues longer waits), alerts to `alerts`.
 * Deterministic for a given view, policy and clock; a failed send throws so SQS redelivers the view
 * (decision and alert ids are stable, so resending is harmless).
 */
export async function handleNodeView(
  envelope: Envelope<'io.nodewarden.nodeview.v1'>,
  deps: DecideDeps,
): Promise<DecideOutcome> {
  const now = deps.now()
  const view = envelope.data
  const result = decide(view, deps.policy, now)
  const source = deps.source ?? 'nodewarden/decide'
  const subject = view.node.name
  const decisions = result.decisions.map((d) => ({
    body: serializeEnvelope(toEnvelope('io.nodewarden.decision.v1', d, { source, time: now, id: d.id, subject })),
    ...(d.notBefore ? { delaySeconds: delaySecondsUntil(new Date(d.notBefore), now) } : {}),
  }))
  const alerts = result.alerts.map((a) => ({
    body: serializeEnvelope(toEnvelope('io.nodewarden.alert.v1', a, { source, time: now, subject })),
  }))
  const count = (o: string) => result.verdicts.filter((v) => v.outcome === o).length
  const outcome = { decisions: decisions.length, alerts: alerts.length, held: count('hold'), waiting: count('wait') }
  deps.log.info('node decided', { node: subject, view: envelope.id, cause: view.cause, ...outcome })
  for (const v of result.verdicts) if (v.outcome !== 'none') deps.log.debug('verdict', { node: subject, ...v })
  if (decisions.length > 0) await deps.send('decisions', decisions)
  if (alerts.length > 0) await deps.send('alerts', alerts)
  return outcome
}
