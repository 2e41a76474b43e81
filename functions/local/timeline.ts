import type { Envelope } from '../../shared/messages/envelope.ts'
import type { RuntimeEvent } from './lambda-runtime.ts'

/** Renders the local runtime's timeline as one readable line per event. */

const MARKS: Record<RuntimeEvent['kind'], string> = {
  received: '→ received',
  succeeded: '✓ succeeded',
  failed: '✗ failed',
  'dead-lettered': '☠ dead-lettered',
}

/** formatRuntimeEvent renders one runtime event relative to `startedAt`. */
export function formatRuntimeEvent(event: RuntimeEvent, startedAt: Date): string {
  const parts = [
    elapsed(event.at, startedAt),
    event.function.padEnd(15),
    MARKS[event.kind].padEnd(16),
    event.messageId.slice(0, 8),
    `receive#${event.receiveCount}`,
  ]
  if (event.groupId) parts.push(`group=${event.groupId}`)
  if (event.durationMs !== undefined) parts.push(`${event.durationMs}ms`)
  if (event.kind === 'dead-lettered') parts.push('(maxReceiveCount reached: SQS moves it to the DLQ)')
  if (event.error) parts.push(`error: ${event.error}`)
  return parts.join('  ')
}

/** formatDelivery renders a message that reached a queue with no function wired (a sink). */
export function formatDelivery(queue: string, envelope: Envelope, at: Date, startedAt: Date): string {
  return [elapsed(at, startedAt), `[${queue}]`.padEnd(15), summarizeEnvelope(envelope)].join('  ')
}

/** summarizeEnvelope says in one line what a message is about. */
export function summarizeEnvelope(envelope: Envelope): string {
  switch (envelope.type) {
    case 'io.nodewarden.nodeview.v1': {
      const view = (envelope as Envelope<'io.nodewarden.nodeview.v1'>).data
      return `nodeview ${view.node.name} (${view.cause}, ${view.pods.length} pods)`
    }
    case 'io.nodewarden.decision.v1': {
      const d = (envelope as Envelope<'io.nodewarden.decision.v1'>).data
      const due = d.notBefore ? ` not before ${d.notBefore}` : ''
      return `decision ${d.action} ${d.target.kind}/${d.target.name}${due}: ${d.reason}`
    }
    case 'io.nodewarden.alert.v1': {
      const a = (envelope as Envelope<'io.nodewarden.alert.v1'>).data
      return `alert ${a.status} ${a.severity} ${a.kind}: ${a.summary}`
    }
  }
}

function elapsed(at: Date, startedAt: Date): string {
  return `+${((at.getTime() - startedAt.getTime()) / 1000).toFixed(3)}s`.padStart(10)
}
