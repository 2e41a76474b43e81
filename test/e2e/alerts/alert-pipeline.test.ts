import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAlertDeps, createAlertHandler, loadConfig } from '../../../functions/alert/handler.ts'
import { createKubeRest } from '../../../functions/alert/kube-rest.ts'
import { subscribeLocalReceiver } from '../../../functions/alert/local-demo.ts'
import { type LocalReceiver, startLocalReceiver } from '../../../functions/alert/local-receiver.ts'
import { type Emulator, startEmulator } from '../../../functions/cluster/emulator.ts'
import { type EmbeddedSqs, startEmbeddedSqs } from '../../../functions/local/embedded-sqs.ts'
import { type LambdaRuntime, startLambdaRuntime } from '../../../functions/local/lambda-runtime.ts'
import { silentLog } from '../../../shared/log.ts'
import { serializeEnvelope, toEnvelope } from '../../../shared/messages/envelope.ts'
import { realSleep } from '../../../shared/sqs/retry.ts'
import { receiveMessages, sendMessages } from '../../../shared/sqs/transport.ts'
import { type Receiver, startReceiver } from '../../integration/alerts/receivers.ts'

const KEY = 'whsec-e2e-demo-key-1234567890'
let emulator: Emulator
let sqs: EmbeddedSqs
let runtime: LambdaRuntime
let demo: LocalReceiver
let flaky: Receiver
let gone: Receiver
const printed: string[] = []

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await realSleep(100) // e2e on real time: poll the real peers
  }
}

beforeAll(async () => {
  emulator = await startEmulator()
  sqs = await startEmbeddedSqs()
  const kube = createKubeRest({ server: emulator.url })
  demo = await startLocalReceiver({ signingKey: KEY, onAlert: (a) => printed.push(JSON.stringify(a.payload)) })
  await subscribeLocalReceiver(kube, { namespace: 'nodewarden', url: demo.url, signingKey: KEY })
  flaky = await startReceiver((n) => (n === 1 ? 503 : 200))
  gone = await startReceiver(() => 410)
  await subscribeLocalReceiver(kube, {
    namespace: 'nodewarden',
    name: 'flaky',
    url: flaky.url,
    signingKey: KEY,
    format: 'slack',
  })
  await subscribeLocalReceiver(kube, {
    namespace: 'nodewarden',
    name: 'gone',
    url: gone.url,
    signingKey: KEY,
    format: 'alertmanager',
  })
  const config = loadConfig({
    ALERTS_QUEUE_URL: sqs.queueUrls.alerts,
    ALERTS_DLQ_URL: sqs.dlqUrls.alerts,
    SQS_ENDPOINT: sqs.endpoint,
    KUBE_SERVER: emulator.url,
    EGRESS_ALLOW_HTTP: 'true',
    EGRESS_ALLOW_CIDRS: '127.0.0.1/32',
    SUBSCRIPTION_CACHE_SECONDS: '0',
  })
  const deps = {
    ...createAlertDeps(config, { client: sqs.client, log: silentLog }),
    retry: { maxAttempts: 4, baseSeconds: 1, capSeconds: 2 },
  }
  runtime = await startLambdaRuntime({
    client: sqs.client,
    log: silentLog,
    waitTimeSeconds: 1,
    functions: [{ name: 'alert', queueUrl: sqs.queueUrls.alerts, handler: createAlertHandler(deps), concurrency: 2 }],
  })
})

afterAll(async () => {
  await runtime?.stop()
  await Promise.all([demo?.close(), flaky?.close(), gone?.close()])
  await sqs?.close()
  await emulator?.close()
})

describe('alerts end to end: embedded SQS, local Lambda runtime, API emulator, real receivers', () => {
  it('fans an alert out, delivers it signed, retries a failing receiver and dead-letters a gone one with the reason', async () => {
    const alert = {
      id: 'alert-e2e-node-a',
      status: 'firing' as const,
      severity: 'critical' as const,
      kind: 'ConditionTainted' as const,
      subject: { kind: 'Node' as const, name: 'node-a', zone: 'z1' },
      summary: 'KernelDeadlock=True for 10m',
      startsAt: new Date().toISOString(),
      groupKey: 'node/node-a',
    }
    const body = serializeEnvelope(
      toEnvelope('io.nodewarden.alert.v1', alert, { source: 'nodewarden/decide', time: new Date() }),
    )
    await sendMessages({ client: sqs.client, sleep: realSleep, random: Math.random }, sqs.queueUrls.alerts, [{ body }])

    await until(() => demo.received.length === 1 && flaky.hits.some((h) => h.answered === 200), 'deliveries')
    expect(demo.received[0]?.verified).toBe(true)
    expect(printed[0]).toContain('alert-e2e-node-a')
    expect(flaky.hits.map((h) => h.answered)).toEqual([503, 200])
    expect(gone.hits).toHaveLength(1)

    const deps = { client: sqs.client, sleep: realSleep, random: Math.random }
    const dead: string[] = []
    await until(async () => {
      dead.push(...(await receiveMessages(deps, sqs.dlqUrls.alerts, { waitTimeSeconds: 1 })).map((m) => m.Body ?? ''))
      return dead.length > 0
    }, 'the dead-lettered delivery')
    expect(JSON.parse(dead[0] ?? '{}')).toMatchObject({
      nwsubscription: 'nodewarden/gone',
      nwdeadreason: 'permanent: receiver answered HTTP 410',
      data: { id: 'alert-e2e-node-a' },
    })
    expect(dead.join('')).not.toContain(KEY)
  })
})
