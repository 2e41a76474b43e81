import type { Alert } from '../../shared/messages/alert.ts'
import { type Payload, type RenderContext, subjectPath } from './render-context.ts'

/**
 * renderCloudEvent renders a CloudEvents 1.0 structured-mode JSON event (the default format):
 * `id` is the delivery id (stable across retries, so receivers can deduplicate on source + id),
 * `type` carries the status, `data` is the alert.
 * https://github.com/cloudevents/spec/blob/v1.0.2/cloudevents/formats/json-format.md
 */
export function renderCloudEvent(alert: Alert, ctx: RenderContext): Payload {
  const event = {
    specversion: '1.0',
    id: ctx.deliveryId,
    source: `nodewarden/${ctx.cluster}`,
    type: `io.nodewarden.alert.${alert.status}.v1`,
    subject: subjectPath(alert),
    time: ctx.now.toISOString(),
    datacontenttype: 'application/json',
    data: alert,
  }
  return { contentType: 'application/cloudevents+json; charset=utf-8', body: JSON.stringify(event) }
}
