import type { Format } from '../../shared/alerts/subscription.ts'
import type { Alert } from '../../shared/messages/alert.ts'
import { renderAlertmanager } from './render-alertmanager.ts'
import { renderCloudEvent } from './render-cloudevent.ts'
import { renderSlack } from './render-slack.ts'

/** What every payload format may use besides the alert itself. */
export type RenderContext = {
  /** The idempotency key of this notice (also the CloudEvent id). */
  deliveryId: string
  now: Date
  /** The cluster's name, in CloudEvent `source` and Alertmanager labels. */
  cluster: string
  /** The AlertSubscription's name (Alertmanager `receiver`). */
  receiver: string
}

export type Payload = { contentType: string; body: string }

/** renderPayload renders an alert in a subscription's format. */
export function renderPayload(format: Format, alert: Alert, ctx: RenderContext): Payload {
  switch (format) {
    case 'cloudevents':
      return renderCloudEvent(alert, ctx)
    case 'slack':
      return renderSlack(alert, ctx)
    case 'alertmanager':
      return renderAlertmanager(alert, ctx)
  }
}

/** subjectPath names an alert's subject as `node/a`, `pod/ns/name`, `zone/z` or `cluster/c`. */
export function subjectPath(alert: Alert): string {
  const s = alert.subject
  return s.kind === 'Pod' ? `pod/${s.namespace ?? ''}/${s.name}` : `${s.kind.toLowerCase()}/${s.name}`
}
