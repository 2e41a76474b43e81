import type { Alert } from '../../shared/messages/alert.ts'
import { type Payload, type RenderContext, subjectPath } from './render-context.ts'

const ICON = { critical: ':red_circle:', warning: ':large_orange_circle:', info: ':large_blue_circle:' } as const

/**
 * renderSlack renders a Slack incoming-webhook message: `text` (the notification and fallback
 * line) plus Block Kit blocks with the summary and the facts. User text is escaped (&, <, >).
 * https://api.slack.com/messaging/webhooks
 */
export function renderSlack(alert: Alert, ctx: RenderContext): Payload {
  const icon = alert.status === 'resolved' ? ':white_check_mark:' : ICON[alert.severity]
  const head = `${icon} [${alert.status.toUpperCase()}:${alert.severity}] ${alert.kind} ${subjectPath(alert)}`
  const facts = [
    `*cluster* ${ctx.cluster}`,
    alert.subject.zone ? `*zone* ${alert.subject.zone}` : undefined,
    alert.subject.node ? `*node* ${alert.subject.node}` : undefined,
    `*since* ${alert.startsAt}`,
    alert.endsAt ? `*until* ${alert.endsAt}` : undefined,
  ].filter((f): f is string => f !== undefined)
  const message = {
    text: escapeMrkdwn(`${head}: ${alert.summary}`),
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*${escapeMrkdwn(head)}*\n${escapeMrkdwn(alert.summary)}` } },
      { type: 'context', elements: facts.map((f) => ({ type: 'mrkdwn', text: escapeMrkdwn(f) })) },
    ],
  }
  return { contentType: 'application/json', body: JSON.stringify(message) }
}

function escapeMrkdwn(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')
}
