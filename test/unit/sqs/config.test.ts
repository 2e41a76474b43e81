import { describe, expect, it } from 'vitest'
import { isFifoQueueUrl, loadQueueConfig, queueEnvironment } from '../../../shared/sqs/config.ts'

const url = (name: string) => `https://sqs.eu-west-1.amazonaws.com/123456789012/nodewarden-dev-${name}`

describe('loadQueueConfig', () => {
  it('reads the URLs of the queues asked for, the region and no endpoint on AWS', () => {
    const env = { AWS_REGION: 'eu-west-1', DECISIONS_QUEUE_URL: url('decisions'), ALERTS_QUEUE_URL: url('alerts') }
    expect(loadQueueConfig(env, ['decisions', 'alerts'])).toEqual({
      region: 'eu-west-1',
      queueUrls: { decisions: url('decisions'), alerts: url('alerts') },
    })
  })

  it('carries SQS_ENDPOINT for local runs', () => {
    const env = { SQS_ENDPOINT: 'http://127.0.0.1:4566', ALERTS_QUEUE_URL: 'http://127.0.0.1:4566/000000000000/alerts' }
    expect(loadQueueConfig(env, ['alerts'])).toMatchObject({ region: 'us-east-1', endpoint: 'http://127.0.0.1:4566' })
  })

  it.each([
    { name: 'a missing queue URL', env: { DECISIONS_QUEUE_URL: url('decisions') }, variable: 'ALERTS_QUEUE_URL' },
    {
      name: 'a queue URL that is not a URL',
      env: { DECISIONS_QUEUE_URL: 'decisions', ALERTS_QUEUE_URL: url('alerts') },
      variable: 'DECISIONS_QUEUE_URL',
    },
    {
      name: 'an endpoint that is not http(s)',
      env: { SQS_ENDPOINT: 'ftp://x', DECISIONS_QUEUE_URL: url('decisions'), ALERTS_QUEUE_URL: url('alerts') },
      variable: 'SQS_ENDPOINT',
    },
    {
      name: 'an empty region',
      env: { AWS_REGION: '', DECISIONS_QUEUE_URL: url('decisions'), ALERTS_QUEUE_URL: url('alerts') },
      variable: 'AWS_REGION',
    },
  ])('fails on $name, naming $variable', ({ env, variable }) => {
    expect(() => loadQueueConfig(env, ['decisions', 'alerts'])).toThrow(
      new RegExp(`invalid queue configuration: .*${variable}`),
    )
  })

  it('does not ask for queues the function does not use', () => {
    expect(() => loadQueueConfig({ ALERTS_QUEUE_URL: url('alerts') }, ['alerts'])).not.toThrow()
  })

  it('reads back what queueEnvironment writes', () => {
    const queueUrls = { events: url('events.fifo'), decisions: url('decisions'), alerts: url('alerts') }
    const env = queueEnvironment(queueUrls, 'http://127.0.0.1:9')
    expect(loadQueueConfig(env, ['events', 'decisions', 'alerts'])).toEqual({
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:9',
      queueUrls,
    })
  })
})

describe('isFifoQueueUrl', () => {
  it.each([
    { queueUrl: url('events.fifo'), want: true },
    { queueUrl: url('decisions'), want: false },
  ])('$queueUrl → $want', ({ queueUrl, want }) => {
    expect(isFifoQueueUrl(queueUrl)).toBe(want)
  })
})
