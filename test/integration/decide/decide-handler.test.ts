import type { SQSClient } from '@aws-sdk/client-sqs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createDecideDeps,
  createDecideHandler,
  loadConfig,
  loadDecidePolicy,
} from '../../../functions/decide/handler.ts'
import type { EmbeddedSqs } from '../../../functions/local/embedded-sqs.ts'
import { toSqsEvent } from '../../../functions/local/sqs-event.ts'
import { type NodeCondition, parseEnvelope, serializeEnvelope, toEnvelope } from '../../../shared/messages/index.ts'
import { queueEnvironment } from '../../../shared/sqs/config.ts'
import { receiveMessages, sendMessages } from '../../../shared/sqs/transport.ts'
import { aNode, aNodeView, aPod } from '../../fixtures/builders.ts'
import { depsFor, drain, queueDepth, startQueues } from '../sqs/harness.ts'

// The decide handler against the embedded SQS server: NodeView in on `events`, decisions (delayed
// to notBefore) out on `decisions`, alerts on `alerts`, through the real transport and batch handler.
let sqs: EmbeddedSqs
beforeAll(async () => {
  sqs = await startQueues()
})
afterAll(async () => {
  await sqs?.close()
})

const NOW = new Date('2026-11-22T10:30:00Z')
const cond = (type: string, status: 'True' | 'False', since: string): NodeCondition => ({
  type,
  status,
  lastTransitionTime: since,
  lastHeartbeatTime: '2026-11-22T10:29:00Z',
})

async function receiveEvents(client: SQSClient) {
  const messages = await receiveMessages(depsFor(client), sqs.queueUrls.events, { waitTimeSeconds: 1 })
  return toSqsEvent(messages, sqs.queueArns.events)
}

describe('decide handler on embedded SQS', () => {
  it('turns a NodeView into a delayed taint decision and an alert, and fails only the malformed record', async () => {
    const env = { ...queueEnvironment(sqs.queueUrls, sqs.endpoint), AWS_REGION: sqs.region, LOG_LEVEL: 'SILENT' }
    const deps = { ...createDecideDeps(loadConfig(env)), now: () => NOW }
    const handler = createDecideHandler(deps)
    const view = aNodeView({
      node: aNode({
        conditions: [
          cond('Ready', 'True', '2026-11-01T00:00:00Z'),
          cond('KernelDeadlock', 'True', '2026-11-22T10:26:00Z'),
        ],
      }),
      pods: [aPod({ tolerations: [] })],
    })
    const body = serializeEnvelope(toEnvelope('io.nodewarden.nodeview.v1', view, { source: 'test', time: NOW }))
    await sendMessages(depsFor(sqs.client), sqs.queueUrls.events, [
      { body, groupId: 'node-a' },
      { body: '{"not":"an envelope"}', groupId: 'node-z' },
    ])
    const event = await receiveEvents(sqs.client)
    expect(event.Records).toHaveLength(2)
    const response = await handler(event)
    const bad = event.Records.find((r) => r.body.startsWith('{"not"'))
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: bad?.messageId }])

    // The taint is due at 10:36: the decision waits in the queue (DelaySeconds 360), invisible for now.
    expect(await receiveMessages(depsFor(sqs.client), sqs.queueUrls.decisions, { waitTimeSeconds: 0 })).toEqual([])
    expect(await queueDepth(sqs.client, sqs.queueUrls.decisions)).toBe(1)
    const alerts = (await drain(sqs.client, sqs.queueUrls.alerts)).map(
      (b) => parseEnvelope(b, 'io.nodewarden.alert.v1').data,
    )
    expect(alerts.map((a) => [a.kind, a.status, a.subject.name])).toEqual([
      ['MissingDefaultTolerations', 'firing', 'node-a'],
    ])
  })

  it('loadConfig names every bad variable, never its value', () => {
    expect(() => loadConfig({ DECISIONS_QUEUE_URL: 'not a url', LOG_LEVEL: 'LOUD' })).toThrow(
      /DECISIONS_QUEUE_URL.*ALERTS_QUEUE_URL.*LOG_LEVEL/s,
    )
    expect(() => loadConfig({ DECISIONS_QUEUE_URL: 'secret-ish' })).not.toThrow(/secret-ish/)
  })

  it('a bad policy document fails the cold start naming the field', () => {
    expect(() => loadDecidePolicy({ NODEWARDEN_POLICY: 'drain: {onDeadline: force}' })).toThrow(
      'drain.onDeadline: Invalid option: expected one of "alert"|"delete"',
    )
    expect(loadDecidePolicy({}).conditionRules).toHaveLength(7)
  })
})
