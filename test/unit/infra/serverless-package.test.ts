import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LAMBDA_FUNCTIONS } from '../../../infra/build.ts'
import { loadQueueDefinitions, logicalIdOf } from '../../../infra/queues.ts'
import { QUEUE_NAMES, type QueueName } from '../../../shared/sqs/config.ts'

/**
 * Runs `npm run package` for real — infra/build.ts, then `serverless package` (osls) — with an empty
 * HOME and no AWS credentials, and checks the CloudFormation template it renders.
 */

const ROOT = join(import.meta.dirname, '../../..')
const run = promisify(execFile)
type Resource = { Type: string; Properties: Record<string, unknown>; DependsOn?: unknown }
type Statement = { Effect: string; Action: string | string[]; Resource: unknown }

let out: string
let resources: Record<string, Resource>
const definitions = loadQueueDefinitions()

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'nodewarden-package-'))
  const env = { PATH: process.env.PATH ?? '', HOME: out, SLS_TELEMETRY_DISABLED: '1', CI: '1' }
  await run(join(ROOT, 'node_modules/.bin/tsx'), ['infra/build.ts'], { cwd: ROOT, env })
  await run(join(ROOT, 'node_modules/.bin/serverless'), ['package', '--stage', 'dev', '--package', join(out, 'pkg')], {
    cwd: ROOT,
    env,
  })
  const template = JSON.parse(readFileSync(join(out, 'pkg/cloudformation-template-update-stack.json'), 'utf8'))
  resources = template.Resources
}, 120_000)
afterAll(() => rmSync(out, { recursive: true, force: true }))

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type)
const functionOf = (fn: string) => resources[`${fn[0]?.toUpperCase()}${fn.slice(1)}LambdaFunction`]
const consumerOf = (queue: QueueName) => definitions[queue].consumer.function
const getAtt = (id: string) => ({ 'Fn::GetAtt': [id, 'Arn'] })

/** permissions flattens a function role's Allow statements into `action on resource-id` strings. */
function permissions(fn: string): string[] {
  const role = resources[`${fn[0]?.toUpperCase()}${fn.slice(1)}Role`]
  const policies = (role?.Properties.Policies ?? []) as { PolicyDocument: { Statement: Statement[] } }[]
  return policies.flatMap((p) =>
    p.PolicyDocument.Statement.flatMap((s) => {
      const actions = ([] as string[]).concat(s.Action)
      const targets = ([] as unknown[]).concat(s.Resource).map((r) => {
        const att = (r as { 'Fn::GetAtt'?: string[] })['Fn::GetAtt']
        return att ? att[0] : JSON.stringify(r)
      })
      return actions.flatMap((a) => targets.map((t) => `${a} on ${t}`))
    }),
  )
}

describe('npm run package', () => {
  it('declares exactly the queues and DLQs of infra/queues.yml', () => {
    const expected = QUEUE_NAMES.flatMap((q) => [logicalIdOf(q, 'Queue'), logicalIdOf(q, 'Dlq')]).sort()
    expect(
      ofType('AWS::SQS::Queue')
        .map(([id]) => id)
        .sort(),
    ).toEqual(expected)
  })

  it.each(QUEUE_NAMES.map((queue) => ({ queue })))('gives $queue its attributes and a redrive policy', ({ queue }) => {
    const d = definitions[queue]
    const props = resources[logicalIdOf(queue, 'Queue')]?.Properties ?? {}
    const dlq = resources[logicalIdOf(queue, 'Dlq')]?.Properties ?? {}
    expect(Boolean(props.FifoQueue)).toBe(d.fifo)
    expect(Boolean(dlq.FifoQueue)).toBe(d.fifo)
    expect(props.VisibilityTimeout).toBe(d.visibilityTimeoutSeconds)
    expect(props.RedrivePolicy).toEqual({
      deadLetterTargetArn: getAtt(logicalIdOf(queue, 'Dlq')),
      maxReceiveCount: d.maxReceiveCount,
    })
    if (d.fifo) expect(props.ContentBasedDeduplication).toBe(false)
  })

  it.each(QUEUE_NAMES.map((queue) => ({ queue })))(
    'triggers the consumer of $queue with ReportBatchItemFailures, its batch size and a visibility ≥ 6 × its timeout',
    ({ queue }) => {
      const fn = consumerOf(queue)
      const mappings = ofType('AWS::Lambda::EventSourceMapping').filter(
        ([, r]) => JSON.stringify(r.Properties.EventSourceArn) === JSON.stringify(getAtt(logicalIdOf(queue, 'Queue'))),
      )
      expect(mappings).toHaveLength(1)
      const props = mappings[0]?.[1].Properties
      expect(props).toMatchObject({
        FunctionName: getAtt(`${fn[0]?.toUpperCase()}${fn.slice(1)}LambdaFunction`),
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        BatchSize: definitions[queue].consumer.batchSize,
      })
      const timeout = functionOf(fn)?.Properties.Timeout as number
      expect(timeout).toBe(definitions[queue].consumer.timeoutSeconds)
      expect(definitions[queue].visibilityTimeoutSeconds).toBeGreaterThanOrEqual(6 * timeout)
    },
  )

  it.each(Object.keys(LAMBDA_FUNCTIONS).map((fn) => ({ fn })))(
    'runs $fn on nodejs22.x arm64 from its own bundle, with explicit memory and timeout',
    ({ fn }) => {
      expect(functionOf(fn)?.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: `dist/${fn}/index.handler`,
        MemorySize: expect.any(Number),
        Timeout: expect.any(Number),
        Role: getAtt(`${fn[0]?.toUpperCase()}${fn.slice(1)}Role`),
      })
    },
  )

  it('puts the api behind an HTTP API', () => {
    expect(ofType('AWS::ApiGatewayV2::Api')).toHaveLength(1)
    expect(ofType('AWS::Lambda::Permission').map(([id]) => id)).toContain('ApiLambdaPermissionHttpApi')
  })

  const consume = (queue: string) =>
    ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:GetQueueAttributes'].map((a) => `${a} on ${queue}`)
  it.each([
    {
      fn: 'decide',
      sqs: [...consume('EventsQueue'), 'sqs:SendMessage on DecisionsQueue', 'sqs:SendMessage on AlertsQueue'],
    },
    {
      fn: 'write',
      sqs: [...consume('DecisionsQueue'), 'sqs:SendMessage on DecisionsQueue', 'sqs:SendMessage on AlertsQueue'],
    },
    {
      fn: 'alert',
      sqs: [
        ...consume('AlertsQueue'),
        'sqs:ChangeMessageVisibility on AlertsQueue',
        'sqs:SendMessage on AlertsQueue',
        'sqs:SendMessage on AlertsDlq',
      ],
    },
    { fn: 'api', sqs: [] },
  ])('lets $fn touch only its own queues and its own log group', ({ fn, sqs }) => {
    const granted = permissions(fn)
    expect(granted.filter((p) => p.startsWith('sqs:')).sort()).toEqual([...sqs].sort())
    const logGroup = `${fn[0]?.toUpperCase()}${fn.slice(1)}LogGroup`
    expect(granted.filter((p) => p.startsWith('logs:')).sort()).toEqual([
      `logs:CreateLogStream on ${logGroup}`,
      `logs:PutLogEvents on ${logGroup}`,
    ])
    expect(granted.every((p) => !p.includes('*'))).toBe(true)
  })

  it.each([
    { fn: 'decide', vars: ['ALERTS_QUEUE_URL', 'DECISIONS_QUEUE_URL'] },
    { fn: 'write', vars: ['ALERTS_QUEUE_URL', 'DECISIONS_QUEUE_URL'] },
    { fn: 'alert', vars: ['ALERTS_DLQ_URL', 'ALERTS_QUEUE_URL'] },
    { fn: 'api', vars: [] },
  ])('hands $fn the URLs of the queues it sends to', ({ fn, vars }) => {
    const env = (functionOf(fn)?.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)
      ?.Variables
    expect(
      Object.keys(env ?? {})
        .filter((k) => k.endsWith('_URL'))
        .sort(),
    ).toEqual(vars)
  })
})
