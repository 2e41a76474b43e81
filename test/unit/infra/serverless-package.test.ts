import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig as loadAlertConfig } from '../../../functions/alert/handler.ts'
import { loadApiConfig } from '../../../functions/api/wiring.ts'
import { loadConfig as loadDecideConfig } from '../../../functions/decide/handler.ts'
import { loadConfig as loadWriteConfig } from '../../../functions/write/config.ts'
import { LAMBDA_FUNCTIONS, type LambdaFunction } from '../../../infra/build.ts'
import { loadQueueDefinitions, logicalIdOf } from '../../../infra/queues.ts'
import { QUEUE_NAMES, type QueueName } from '../../../shared/sqs/config.ts'

/**
 * Runs `npm run package` for real — infra/build.ts, then `serverless package` (osls) — with an empty
 * HOME and no AWS credentials, and checks the CloudFormation template it renders. The cluster and
 * api-token settings are exported as a deployer would (README), so the test sees them arrive.
 */

const ROOT = join(import.meta.dirname, '../../..')
const run = promisify(execFile)
type Resource = { Type: string; Properties: Record<string, unknown>; DependsOn?: unknown }
type Statement = { Effect: string; Action: string | string[]; Resource: unknown }

const DEPLOYER = {
  NODEWARDEN_EKS_CLUSTER: 'prod-eu',
  NODEWARDEN_EKS_ENDPOINT: 'https://0123456789ABCDEF.gr7.eu-west-1.eks.amazonaws.com',
  NODEWARDEN_EKS_CA_DATA: Buffer.from('-----BEGIN CERTIFICATE-----\nMIIC\n-----END CERTIFICATE-----\n').toString(
    'base64',
  ),
  NODEWARDEN_API_TOKEN_SECRET: 'prod/nodewarden-api',
}

let out: string
let resources: Record<string, Resource>
let outputs: Record<string, { Value: unknown }>
const definitions = loadQueueDefinitions()

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'nodewarden-package-'))
  const env = { PATH: process.env.PATH ?? '', HOME: out, SLS_TELEMETRY_DISABLED: '1', CI: '1', ...DEPLOYER }
  await run(join(ROOT, 'node_modules/.bin/tsx'), ['infra/build.ts'], { cwd: ROOT, env })
  await run(join(ROOT, 'node_modules/.bin/serverless'), ['package', '--stage', 'dev', '--package', join(out, 'pkg')], {
    cwd: ROOT,
    env,
  })
  const template = JSON.parse(readFileSync(join(out, 'pkg/cloudformation-template-update-stack.json'), 'utf8'))
  resources = template.Resources
  outputs = template.Outputs
}, 120_000)
afterAll(() => rmSync(out, { recursive: true, force: true }))

const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type)
const functionOf = (fn: string) => resources[`${fn[0]?.toUpperCase()}${fn.slice(1)}LambdaFunction`]
const consumerOf = (queue: QueueName) => definitions[queue].consumer.function
const getAtt = (id: string) => ({ 'Fn::GetAtt': [id, 'Arn'] })
const environmentOf = (fn: string) =>
  (functionOf(fn)?.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {}
/** Each function's own loadConfig: a new function in infra/build.ts does not compile until it is listed here. */
const LOADERS: Record<LambdaFunction, (env: Record<string, string | undefined>) => unknown> = {
  decide: loadDecideConfig,
  write: loadWriteConfig,
  alert: loadAlertConfig,
  api: loadApiConfig,
}
const DYNAMIC_REFERENCE = /^\{\{resolve:[^}]+\}\}$/

/**
 * runtimeEnvOf is the environment a function sees once deployed: CloudFormation intrinsics become
 * placeholder queue URLs, dynamic references a placeholder secret, plus what Lambda itself sets.
 */
function runtimeEnvOf(fn: string): Record<string, string> {
  const env: Record<string, string> = {
    AWS_REGION: 'eu-west-1',
    AWS_LAMBDA_LOG_STREAM_NAME: '2026/11/22/[$LATEST]0a1b',
  }
  for (const [name, value] of Object.entries(environmentOf(fn))) {
    const ref = (value as { Ref?: string }).Ref ?? (value as { 'Fn::GetAtt'?: string[] })['Fn::GetAtt']?.[0]
    if (typeof value === 'string')
      env[name] = DYNAMIC_REFERENCE.test(value) ? 'resolved-at-deploy-0123456789abcdef' : value
    else if (ref) env[name] = `https://sqs.eu-west-1.amazonaws.com/123456789012/${ref}`
    else throw new Error(`${fn}: ${name} is an intrinsic this test cannot stand in for: ${JSON.stringify(value)}`)
  }
  return env
}

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

  it.each(Object.entries(LOADERS).map(([fn, load]) => ({ fn, load })))(
    'gives $fn every variable its loadConfig requires',
    ({ fn, load }) => {
      expect(() => load(runtimeEnvOf(fn))).not.toThrow()
    },
  )

  it('points write, alert and api at the one exported cluster, with an EKS IAM token and its CA', () => {
    const cluster = {
      name: DEPLOYER.NODEWARDEN_EKS_CLUSTER,
      endpoint: DEPLOYER.NODEWARDEN_EKS_ENDPOINT,
      caData: DEPLOYER.NODEWARDEN_EKS_CA_DATA,
    }
    expect(loadWriteConfig(runtimeEnvOf('write'))).toMatchObject({
      access: { mode: 'eks', clusterName: cluster.name, endpoint: cluster.endpoint, caData: cluster.caData },
      NODEWARDEN_NAMESPACE: 'nodewarden',
    })
    const kube = {
      KUBE_SERVER: cluster.endpoint,
      KUBE_CA_DATA: cluster.caData,
      EKS_CLUSTER_NAME: cluster.name,
      SUBSCRIPTIONS_NAMESPACE: 'nodewarden',
      CLUSTER_NAME: cluster.name,
    }
    expect(loadAlertConfig(runtimeEnvOf('alert'))).toMatchObject(kube)
    expect(loadApiConfig(runtimeEnvOf('api'))).toMatchObject(kube)
    for (const fn of ['decide', 'write', 'alert', 'api']) expect(environmentOf(fn)).not.toHaveProperty('KUBE_TOKEN')
  })

  it('resolves the api token from Secrets Manager at deploy time, never from the packaged template', () => {
    expect(environmentOf('api').API_TOKEN).toBe(
      `{{resolve:secretsmanager:${DEPLOYER.NODEWARDEN_API_TOKEN_SECRET}:SecretString:token}}`,
    )
    expect(permissions('api').filter((p) => p.startsWith('secretsmanager:') || p.startsWith('ssm:'))).toEqual([])
  })

  it('outputs the events queue URL and ARN the watcher Deployment and its IAM policy need', () => {
    expect(outputs.EventsQueueUrl?.Value).toEqual({ Ref: 'EventsQueue' })
    expect(outputs.EventsQueueArn?.Value).toEqual(getAtt('EventsQueue'))
  })

  it.each(['write', 'alert', 'api'].map((fn) => ({ fn })))(
    'outputs the $fn role ARN for its EKS access entry',
    ({ fn }) => {
      const role = `${fn[0]?.toUpperCase()}${fn.slice(1)}Role`
      expect(outputs[`${role}Arn`]?.Value).toEqual(getAtt(role))
    },
  )
})
