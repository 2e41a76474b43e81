import { createHash } from 'node:crypto'
import type { Alert } from '../../shared/messages/alert.ts'
import type { Payload, RenderContext } from './render-context.ts'

/** Alertmanager's zero time: `endsAt` of a firing alert. */
const ZERO_TIME = '0001-01-01T00:00:00Z'

/**
 * renderAlertmanager renders the Prometheus Alertmanager webhook payload, version 4, holding this
 * one alert, so existing Alertmanager receivers work unchanged.
 * https://prometheus.io/docs/alerting/latest/configuration/#webhook_config
 */
export function renderAlertmanager(alert: Alert, ctx: RenderContext): Payload {
  const labels = alertLabels(alert, ctx.cluster)
  const annotations: Record<string, string> = { summary: alert.summary, description: JSON.stringify(alert.details) }
  const payload = {
    version: '4',
    groupKey: `{}:{groupKey="${alert.groupKey}"}`,
    truncatedAlerts: 0,
    status: alert.status,
    receiver: ctx.receiver,
    groupLabels: { alertname: alert.kind },
    commonLabels: labels,
    commonAnnotations: annotations,
    externalURL: `nodewarden://${ctx.cluster}`,
    alerts: [
      {
        status: alert.status,
        labels,
        annotations,
        startsAt: alert.startsAt,
        endsAt: alert.endsAt ?? (alert.status === 'resolved' ? ctx.now.toISOString() : ZERO_TIME),
        generatorURL: '',
        fingerprint: createHash('sha256').update(alert.id).digest('hex').slice(0, 16),
      },
    ],
  }
  return { contentType: 'application/json', body: JSON.stringify(payload) }
}

function alertLabels(alert: Alert, cluster: string): Record<string, string> {
  const s = alert.subject
  const labels: Record<string, string | undefined> = {
    alertname: alert.kind,
    severity: alert.severity,
    cluster,
    subject_kind: s.kind,
    node: s.kind === 'Node' ? s.name : s.node,
    namespace: s.namespace,
    pod: s.kind === 'Pod' ? s.name : undefined,
    zone: s.kind === 'Zone' ? (s.zone ?? s.name) : s.zone,
    alert_id: alert.id,
  }
  return Object.fromEntries(Object.entries(labels).filter((e): e is [string, string] => e[1] !== undefined))
}
