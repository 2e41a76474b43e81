import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { renderPayload } from '../../../functions/alert/render-context.ts'
import { anAlert } from './fixtures.ts'

const ctx = {
  deliveryId: 'alert-node-a-kernel:firing:0',
  now: new Date('2026-11-22T10:01:00Z'),
  cluster: 'prod-eu',
  receiver: 'ops',
}

/** Written from the CloudEvents 1.0 JSON format spec: required context attributes and their types. */
const CloudEventSchema = z.object({
  specversion: z.literal('1.0'),
  id: z.string().min(1),
  source: z.string().min(1),
  type: z.string().min(1),
  subject: z.string().optional(),
  time: z.iso.datetime(),
  datacontenttype: z.literal('application/json'),
  data: z.record(z.string(), z.unknown()),
})

/** Written from Alertmanager's webhook_config documentation (payload version 4). */
const AlertmanagerSchema = z.strictObject({
  version: z.literal('4'),
  groupKey: z.string(),
  truncatedAlerts: z.number().int(),
  status: z.enum(['firing', 'resolved']),
  receiver: z.string(),
  groupLabels: z.record(z.string(), z.string()),
  commonLabels: z.record(z.string(), z.string()),
  commonAnnotations: z.record(z.string(), z.string()),
  externalURL: z.string(),
  alerts: z.array(
    z.strictObject({
      status: z.enum(['firing', 'resolved']),
      labels: z.record(z.string(), z.string()),
      annotations: z.record(z.string(), z.string()),
      startsAt: z.string(),
      endsAt: z.string(),
      generatorURL: z.string(),
      fingerprint: z.string(),
    }),
  ),
})

describe('renderPayload', () => {
  it('renders a CloudEvents 1.0 structured event whose id is the delivery id and whose data is the alert', () => {
    const p = renderPayload('cloudevents', anAlert(), ctx)
    expect(p.contentType).toMatch(/^application\/cloudevents\+json/)
    const event = CloudEventSchema.parse(JSON.parse(p.body))
    expect(event).toMatchObject({
      id: ctx.deliveryId,
      source: 'nodewarden/prod-eu',
      type: 'io.nodewarden.alert.firing.v1',
      subject: 'node/node-a',
    })
    expect(event.data).toEqual(anAlert())
  })

  it.each([
    { status: 'firing' as const, endsAt: '0001-01-01T00:00:00Z' },
    { status: 'resolved' as const, endsAt: '2026-11-22T11:00:00Z' },
  ])('renders an Alertmanager v4 payload for a $status alert', ({ status, endsAt }) => {
    const alert = anAlert(status === 'resolved' ? { status, endsAt } : {})
    const payload = AlertmanagerSchema.parse(JSON.parse(renderPayload('alertmanager', alert, ctx).body))
    expect(payload.status).toBe(status)
    expect(payload.receiver).toBe('ops')
    expect(payload.alerts[0]).toMatchObject({
      status,
      startsAt: alert.startsAt,
      endsAt,
      labels: {
        alertname: 'ConditionTainted',
        severity: 'warning',
        node: 'node-a',
        zone: 'eu-west-1a',
        cluster: 'prod-eu',
      },
      annotations: { summary: alert.summary },
    })
    expect(payload.alerts[0]?.fingerprint).toMatch(/^[0-9a-f]{16}$/)
  })

  it('renders a Slack message with a text line and blocks, escaping user text', () => {
    const alert = anAlert({ summary: 'pod <web> & friends', severity: 'critical' })
    const msg = JSON.parse(renderPayload('slack', alert, ctx).body) as { text: string; blocks: { type: string }[] }
    expect(msg.text).toBe(':red_circle: [FIRING:critical] ConditionTainted node/node-a: pod &lt;web&gt; &amp; friends')
    expect(msg.blocks.map((b) => b.type)).toEqual(['section', 'context'])
  })

  it('marks a resolved Slack message as resolved', () => {
    const msg = JSON.parse(renderPayload('slack', anAlert({ status: 'resolved' }), ctx).body) as { text: string }
    expect(msg.text).toMatch(/^:white_check_mark: \[RESOLVED:warning\]/)
  })
})
