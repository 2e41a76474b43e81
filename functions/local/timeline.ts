import type { Envelope } from '../../shared/messages/envelope.ts'
import type { RuntimeEvent } from './lambda-runtime.ts'
import type { StackCounts, StackEvent } from './stack-events.ts'

/** Renders the local runtime's and the local stack's timelines as one readable line per event. */

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

/** The widest a free-text field (reason, summary, note) gets in a timeline line; JSON keeps it whole. */
const TEXT_WIDTH = 150

/** formatStackEvent renders one local-stack event as a timeline line, its time relative to `startedAt` (scenario time). */
export function formatStackEvent(event: StackEvent, startedAt: Date): string {
  const at = clockOffset(new Date(event.at), startedAt)
  const line = (label: string, text: string) => `${at}  ${label.padEnd(9)} ${text}`
  switch (event.kind) {
    case 'step':
      return line('scenario', `${event.detail} (${event.action})`)
    case 'view':
      return line('view', `${event.node} forwarded (${event.cause}, ${event.pods} pods)`)
    case 'decision': {
      const due = event.notBefore ? ` [due ${clockOffset(new Date(event.notBefore), startedAt).trim()}]` : ''
      return line('decision', `${event.action} ${event.target}${due}: ${clip(event.reason)}`)
    }
    case 'outcome': {
      const label = event.dryRun && event.status === 'applied' ? 'would' : event.status
      return line(label, `${event.action} ${event.target} (${event.code}): ${clip(event.reason)}`)
    }
    case 'k8s-event':
      return line(event.recorded ? 'k8s-event' : 'would-log', `${event.reason} on ${event.regarding}`)
    case 'alert': {
      const signed = event.verified === undefined ? '' : event.verified ? ' [signature ok]' : ' [BAD SIGNATURE]'
      const via = event.via === 'queue' ? ' (from the alerts queue)' : ''
      return line(
        'alert',
        `${event.status} ${event.severity} ${event.alertKind} ${event.subject}: ${clip(event.summary)}${signed}${via}`,
      )
    }
    case 'dlq':
      return line('DLQ', `${event.queue}${event.messageId ? ` ${event.messageId.slice(0, 8)}` : ''}: ${event.reason}`)
    case 'retry':
      return line(
        'retry',
        `${event.function} ${event.messageId.slice(0, 8)} failed on receive #${event.receiveCount}${event.error ? `: ${clip(event.error)}` : ''}`,
      )
    case 'status':
      return line('status', formatCounts(event.counts))
  }
}

/** formatCounts renders the running totals as the periodic status line. */
export function formatCounts(c: StackCounts): string {
  return [
    `${c.views} views`,
    `${c.decisions} decisions`,
    `${c.applied} applied`,
    `${c.blocked} blocked`,
    `${c.skipped} skipped`,
    `${c.alerts} alerts`,
    `${c.deadLettered} dead-lettered`,
  ].join(' · ')
}

/** isQuiet tells the events the text timeline leaves to the status line: periodic resync views. */
export function isQuiet(event: StackEvent): boolean {
  return event.kind === 'view' && event.cause === 'resync'
}

function clip(text: string): string {
  return text.length > TEXT_WIDTH ? `${text.slice(0, TEXT_WIDTH - 1)}…` : text
}

/** clockOffset renders `at - startedAt` as `+mm:ss` (or `+h:mm:ss`), negative before the start. */
export function clockOffset(at: Date, startedAt: Date): string {
  const ms = at.getTime() - startedAt.getTime()
  const total = Math.floor(Math.abs(ms) / 1000)
  const h = Math.floor(total / 3600)
  const m = Math.floor((total % 3600) / 60)
  const s = total % 60
  const two = (n: number) => String(n).padStart(2, '0')
  return `${ms < 0 ? '-' : '+'}${h > 0 ? `${h}:${two(m)}` : two(m)}:${two(s)}`.padStart(8)
}
