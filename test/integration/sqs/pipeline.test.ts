import { afterEach, describe, expect, it } from 'vitest'
import { demoMessages } from '../../../functions/local/demo-views.ts'
import type { RuntimeEvent } from '../../../functions/local/lambda-runtime.ts'
import { type Pipeline, startPipeline } from '../../../functions/local/pipeline.ts'
import { makeSqsHandler } from '../../../shared/lambda/sqs-handler.ts'
import { silentLog } from '../../../shared/log.ts'
import { type Envelope, serializeEnvelope, toEnvelope } from '../../../shared/messages/index.ts'
import { createSqsClient } from '../../../shared/sqs/client.ts'
import { loadQueueConfig } from '../../../shared/sqs/config.ts'
import { createSend } from '../../../shared/sqs/transport.ts'
import { queueDepth, waitFor } from './harness.ts'

let pipeline: Pipeline | undefined
afterEach(async () => {
  await pipeline?.stop()
  pipeline = undefined
})

describe('startPipeline', () => {
  it('hands functions an environment they can load, runs them, and sinks the queues nobody consumes', async () => {
    const delivered: { queue: string; envelope: Envelope }[] = []
    const timeline: RuntimeEvent[] = []
    pipeline = await startPipeline({
      log: silentLog,
      visibilityTimeoutSeconds: 1,
      onEvent: (e) => timeline.push(e),
      onSinkMessage: (queue, envelope) => delivered.push({ queue, envelope }),
      // A stand-in decide: for every NodeView it sends one alert, through the configuration a handler would load.
      functions: async (env) => {
        const config = loadQueueConfig(env, ['alerts'])
        const send = createSend({ client: createSqsClient(config), queueUrls: config.queueUrls })
        const handler = makeSqsHandler({
          queue: 'events',
          type: 'io.nodewarden.nodeview.v1',
          log: silentLog,
          handle: async (view) => {
            const alert = toEnvelope(
              'io.nodewarden.alert.v1',
              {
                id: `alert-${view.data.node.name}`,
                status: 'firing',
                severity: 'info',
                kind: 'ConditionTainted',
                subject: { kind: 'Node', name: view.data.node.name },
                summary: `saw ${view.data.node.name}`,
                startsAt: view.data.observedAt,
                groupKey: view.data.node.name,
              },
              { source: 'test', time: new Date(view.data.observedAt) },
            )
            await send('alerts', [{ body: serializeEnvelope(alert) }])
          },
        })
        return [{ name: 'decide', queue: 'events', handler }]
      },
    })
    expect(pipeline.sinks).toEqual(['decisions', 'alerts'])
    await pipeline.send('events', demoMessages(new Date('2026-11-22T10:00:00Z')))

    await waitFor('three alerts delivered', () => delivered.length === 3)
    expect(delivered.map((d) => d.envelope.type)).toEqual(Array(3).fill('io.nodewarden.alert.v1'))
    await waitFor(
      'the malformed demo record dead-lettered',
      async () => (await queueDepth(pipeline!.sqs.client, pipeline!.sqs.dlqUrls.events)) === 1,
    )
    const deadLettered = timeline.filter((e) => e.kind === 'dead-lettered')
    expect(deadLettered).toMatchObject([{ function: 'decide', groupId: 'node-x', receiveCount: 5 }])
  })
})
