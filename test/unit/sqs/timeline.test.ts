import { describe, expect, it } from 'vitest'
import { formatRuntimeEvent, summarizeEnvelope } from '../../../functions/local/timeline.ts'
import { toEnvelope } from '../../../shared/messages/index.ts'
import { aNodeView } from '../../fixtures/builders.ts'

const T0 = new Date('2026-11-22T10:00:00Z')
const at = (ms: number) => new Date(T0.getTime() + ms)
const base = { function: 'decide', messageId: '7f3a2b1c-0000', receiveCount: 1 }

describe('formatRuntimeEvent', () => {
  it.each([
    {
      name: 'a received FIFO record shows its group',
      event: { ...base, at: at(1_234), kind: 'received' as const, groupId: 'node-a' },
      parts: ['+1.234s', 'decide', '→ received', '7f3a2b1c', 'receive#1', 'group=node-a'],
    },
    {
      name: 'a failure shows its duration and the invocation error',
      event: { ...base, at: at(50), kind: 'failed' as const, receiveCount: 2, durationMs: 12, error: 'boom' },
      parts: ['✗ failed', 'receive#2', '12ms', 'error: boom'],
    },
    {
      name: 'a dead-lettered record says SQS moves it',
      event: { ...base, at: at(0), kind: 'dead-lettered' as const, receiveCount: 5 },
      parts: ['☠ dead-lettered', 'receive#5', 'SQS moves it to the DLQ'],
    },
  ])('$name', ({ event, parts }) => {
    const line = formatRuntimeEvent(event, T0)
    for (const part of parts) expect(line).toContain(part)
  })
})

describe('summarizeEnvelope', () => {
  it.each([
    {
      name: 'a NodeView by node, cause and pod count',
      envelope: toEnvelope('io.nodewarden.nodeview.v1', aNodeView(), { source: 't', time: T0 }),
      want: 'nodeview node-a (node, 1 pods)',
    },
    {
      name: 'an alert by status, severity, kind and summary',
      envelope: toEnvelope(
        'io.nodewarden.alert.v1',
        {
          id: 'alert-0001',
          status: 'resolved',
          severity: 'critical',
          kind: 'ConditionTainted',
          subject: { kind: 'Node', name: 'node-b' },
          summary: 'node-b healed',
          startsAt: T0.toISOString(),
          groupKey: 'node-b',
        },
        { source: 't', time: T0 },
      ),
      want: 'alert resolved critical ConditionTainted: node-b healed',
    },
  ])('says $name', ({ envelope, want }) => {
    expect(summarizeEnvelope(envelope)).toBe(want)
  })
})
