import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { stringify } from 'yaml'
import {
  dlqNameOf,
  loadQueueDefinitions,
  parseQueueDefinitions,
  queueAttributes,
  queueNameOf,
  renderQueueResources,
} from '../../../infra/queues.ts'

const definitions = loadQueueDefinitions()
const withChange = (change: (d: Record<string, Record<string, unknown>>) => void) => {
  const copy = structuredClone(definitions) as unknown as Record<string, Record<string, unknown>>
  change(copy)
  return stringify(copy)
}

describe('infra/queues.yml', () => {
  it('defines events as FIFO without content-based deduplication, decisions and alerts as standard', () => {
    expect(definitions.events).toMatchObject({ fifo: true, contentBasedDeduplication: false })
    expect(definitions.decisions.fifo).toBe(false)
    expect(definitions.alerts.fifo).toBe(false)
  })

  it.each(Object.entries(definitions).map(([name, d]) => ({ name, d })))(
    '$name keeps its visibility timeout at least 6 × its consumer timeout',
    ({ d }) => {
      expect(d.visibilityTimeoutSeconds).toBeGreaterThanOrEqual(6 * d.consumer.timeoutSeconds)
    },
  )
})

describe('parseQueueDefinitions', () => {
  it.each([
    {
      name: 'a visibility timeout under 6 × the function timeout',
      text: withChange((d) => {
        d.decisions!.visibilityTimeoutSeconds = 59
      }),
      path: 'decisions.visibilityTimeoutSeconds',
    },
    {
      name: 'a FIFO batch over 10',
      text: withChange((d) => {
        ;(d.events!.consumer as Record<string, unknown>).batchSize = 11
      }),
      path: 'events.consumer.batchSize',
    },
    {
      name: 'a missing queue',
      text: withChange((d) => {
        delete d.alerts
      }),
      path: 'alerts',
    },
    {
      name: 'a queue the code does not know',
      text: withChange((d) => {
        d.audits = d.alerts!
      }),
      path: 'audits',
    },
    {
      name: 'a zero maxReceiveCount',
      text: withChange((d) => {
        d.events!.maxReceiveCount = 0
      }),
      path: 'events.maxReceiveCount',
    },
  ])('rejects $name, naming $path', ({ text, path }) => {
    expect(() => parseQueueDefinitions(text)).toThrow(
      new RegExp(`invalid queue definitions: .*${path.replace('.', '\\.')}`),
    )
  })

  it('reads the shipped file unchanged', () => {
    const text = readFileSync(new URL('../../../infra/queues.yml', import.meta.url), 'utf8')
    expect(parseQueueDefinitions(text)).toEqual(definitions)
  })
})

describe('rendering', () => {
  it.each([
    { name: 'events' as const, queue: 'events.fifo', dlq: 'events-dlq.fifo' },
    { name: 'decisions' as const, queue: 'decisions', dlq: 'decisions-dlq' },
  ])('names $name $queue with DLQ $dlq', ({ name, queue, dlq }) => {
    expect(queueNameOf(name, definitions[name])).toBe(queue)
    expect(dlqNameOf(name, definitions[name])).toBe(dlq)
  })

  it('gives the embedded server the same redrive policy CloudFormation gets', () => {
    const local = queueAttributes(definitions.events, 'arn:aws:sqs:us-east-1:000000000000:events-dlq.fifo')
    const cloud = renderQueueResources(definitions).Resources.EventsQueue?.Properties
    expect(local).toMatchObject({ FifoQueue: 'true', ContentBasedDeduplication: 'false', VisibilityTimeout: '180' })
    expect(cloud).toMatchObject({ FifoQueue: true, ContentBasedDeduplication: false, VisibilityTimeout: 180 })
    expect(JSON.parse(local.RedrivePolicy ?? '').maxReceiveCount).toBe(
      (cloud?.RedrivePolicy as { maxReceiveCount?: number } | undefined)?.maxReceiveCount,
    )
  })
})
