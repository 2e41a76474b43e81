import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { AlertSubscriptionSchema } from '../../../shared/alerts/subscription.ts'
import { verifyWebhook } from '../../unit/alerts/verify-webhook.ts'
import { anAlert, createHarness } from './harness.ts'
import { type Behaviour, type Receiver, startReceiver } from './receivers.ts'
import {
  type AlertCluster,
  createSigningSecret,
  createSubscription,
  NAMESPACE,
  startAlertCluster,
} from './setup-cluster.ts'

const KEY = 'whsec-integration-0f9e8d7c6b5a'
const T0 = new Date('2026-11-22T10:00:00Z')
let cluster: AlertCluster
const receivers: Receiver[] = []

beforeAll(async () => {
  cluster = await startAlertCluster()
  await createSigningSecret(cluster.kube, 'signing', KEY)
})
afterAll(() => cluster.close())
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()))
  const list = await cluster.kube('GET', `/apis/nodewarden.io/v1alpha1/namespaces/${NAMESPACE}/alertsubscriptions`)
  for (const item of (list.body as { items: { metadata: { name: string } }[] }).items)
    await cluster.kube(
      'DELETE',
      `/apis/nodewarden.io/v1alpha1/namespaces/${NAMESPACE}/alertsubscriptions/${item.metadata.name}`,
    )
})

async function subscribe(name: string, behave: Behaviour, spec: Record<string, unknown> = {}): Promise<Receiver> {
  const receiver = await startReceiver(behave)
  receivers.push(receiver)
  await createSubscription(cluster.kube, name, { url: receiver.url, secretRef: { name: 'signing' }, ...spec })
  return receiver
}

async function notified(name: string) {
  const r = await cluster.kube('GET', `/apis/nodewarden.io/v1alpha1/namespaces/${NAMESPACE}/alertsubscriptions/${name}`)
  return AlertSubscriptionSchema.parse(r.body).status.notified
}

describe('webhook delivery over real HTTP', () => {
  it('delivers, retries, times out and dead-letters per receiver, each on its own', async () => {
    const ok = await subscribe('ok', () => 204)
    const flaky = await subscribe('flaky', (n) => (n === 1 ? 503 : 200))
    const slow = await subscribe('slow', () => 'hang')
    const gone = await subscribe('gone', () => 410)
    const bad = await subscribe('bad', () => 400)
    const moved = await subscribe('moved', () => 302)
    const h = createHarness(cluster.kube, { start: T0, retry: { maxAttempts: 3 }, timeoutMs: 300 })

    h.publish(anAlert())
    await h.handleDueNow() // fan-out: one delivery message per subscription
    expect(h.queue).toHaveLength(6)
    const firstRound = await h.handleDueNow() // every first attempt, concurrently, like one batch
    const okRun = firstRound.find((r) => r.body.includes('"nwsubscription":"nodewarden/ok"'))
    expect(okRun?.ms).toBeLessThan(250) // the hanging receiver's 300 ms timeout does not hold up the others
    await h.drain()

    expect(ok.hits.map((x) => x.answered)).toEqual([204])
    expect(flaky.hits.map((x) => x.answered)).toEqual([503, 200])
    expect(slow.hits).toHaveLength(3)
    expect(gone.hits).toHaveLength(1)
    expect(bad.hits).toHaveLength(1)
    expect(moved.hits).toHaveLength(1)
    const reasons = h.deadLetters.map((b) => JSON.parse(b) as { nwsubscription: string; nwdeadreason: string })
    expect(Object.fromEntries(reasons.map((r) => [r.nwsubscription, r.nwdeadreason]))).toEqual({
      'nodewarden/slow': expect.stringMatching(/^gave up after 3 attempts: request failed: /),
      'nodewarden/gone': 'permanent: receiver answered HTTP 410',
      'nodewarden/bad': 'permanent: receiver answered HTTP 400',
      'nodewarden/moved': 'permanent: receiver answered HTTP 302 (redirects are not followed)',
    })
    expect(Object.keys(await notified('ok'))).toEqual(['alert-node-a-kernel'])
    expect((await notified('gone'))['alert-node-a-kernel']?.failed).toBe(true)
  })

  it('signs every delivery so the documented verification accepts it, with a stable idempotency key', async () => {
    const flaky = await subscribe('signed', (n) => (n === 1 ? 500 : 200))
    const h = createHarness(cluster.kube, { start: T0 })
    h.publish(anAlert())
    await h.drain()
    expect(flaky.hits).toHaveLength(2)
    for (const hit of flaky.hits) {
      const headers = Object.fromEntries(Object.entries(hit.headers).map(([k, v]) => [k, String(v)]))
      expect(verifyWebhook(hit.body, headers, KEY, Number(headers['x-nodewarden-timestamp']))).toEqual({ ok: true })
      expect(headers['idempotency-key']).toBe('alert-node-a-kernel:firing:2026-11-22T08:00:00.000Z')
      expect(headers['x-nodewarden-alert-id']).toBe('alert-node-a-kernel')
    }
    expect(flaky.hits.map((x) => x.headers['x-nodewarden-delivery-attempt'])).toEqual(['1', '2'])
    expect(h.lines.join('\n')).not.toContain(KEY)
  })

  it('gets every alert to a subscriber that was down for ten minutes, once it is back', async () => {
    const backAt = T0.getTime() + 10 * 60_000
    let clock = () => T0.getTime()
    const down = await subscribe('down', () => (clock() < backAt ? 503 : 200))
    const h = createHarness(cluster.kube, { start: T0 })
    clock = () => h.now().getTime()
    const ids = ['a1', 'a2', 'a3', 'a4', 'a5'].map((i) => `alert-${i}-0000`)
    for (const [i, id] of ids.entries()) {
      h.publish(anAlert({ id, subject: { kind: 'Node', name: `node-${i}`, zone: 'eu-west-1a' } }))
      h.advance(60_000)
    }
    await h.drain()
    const delivered = down.hits.filter((x) => x.answered === 200).map((x) => x.headers['x-nodewarden-alert-id'])
    expect(delivered.sort()).toEqual(ids)
    expect(down.hits.filter((x) => x.answered === 503).length).toBeGreaterThan(0)
    expect(h.deadLetters).toEqual([])
    expect(h.now().getTime()).toBeGreaterThanOrEqual(backAt)
  })

  it('sends resolved only to subscriptions that received the firing notice and want it', async () => {
    const early = await subscribe('early', () => 200)
    const quiet = await subscribe('quiet', () => 200, { sendResolved: false })
    const h = createHarness(cluster.kube, { start: T0 })
    h.publish(anAlert())
    await h.drain()
    const late = await subscribe('late', () => 200) // subscribed after the firing notice went out
    h.advance(30 * 60_000)
    h.publish(anAlert({ status: 'resolved', endsAt: h.now().toISOString() }))
    await h.drain()
    const statuses = (r: Receiver) => r.hits.map((x) => (JSON.parse(x.body) as { type: string }).type)
    expect(statuses(early)).toEqual(['io.nodewarden.alert.firing.v1', 'io.nodewarden.alert.resolved.v1'])
    expect(statuses(quiet)).toEqual(['io.nodewarden.alert.firing.v1'])
    expect(statuses(late)).toEqual([])
    expect(await notified('early')).toEqual({})
    expect(await notified('quiet')).toEqual({})
  })

  it('re-notifies at the repeat interval, not on every resync', async () => {
    const r = await subscribe('repeat', () => 200, { repeatInterval: '1h' })
    const h = createHarness(cluster.kube, { start: T0 })
    for (let minute = 0; minute <= 130; minute += 5) {
      // decide re-emits the firing alert on every 5-minute resync, restamping startsAt
      h.publish(anAlert({ startsAt: h.now().toISOString() }))
      await h.drain()
      h.advance(5 * 60_000)
    }
    expect(r.hits.map((x) => x.headers['idempotency-key'])).toEqual([
      'alert-node-a-kernel:firing:2026-11-22T10:00:00.000Z',
      'alert-node-a-kernel:firing:2026-11-22T11:00:00.000Z',
      'alert-node-a-kernel:firing:2026-11-22T12:00:00.000Z',
    ])
  })

  it('sends an alert re-emitted before its first notice is recorded once, in one batch or the next', async () => {
    // The writer re-sends a redelivered decision's ActionOutcome under the same id (only the text
    // differs): copies reach the alerts queue before the first notice has been delivered and recorded.
    const r = await subscribe('copies', () => 200)
    const h = createHarness(cluster.kube, { start: T0 })
    h.publish(anAlert({ summary: 'KernelDeadlock=True for 2s of 600s' }))
    h.publish(anAlert({ summary: 'KernelDeadlock=True for 210s of 600s' }))
    await h.handleDueNow() // two fan-outs of one id in one batch
    h.publish(anAlert({ summary: 'KernelDeadlock=True for 510s of 600s' }))
    await h.handleDueNow() // a third fan-out beside the first deliveries
    await h.drain()
    expect(r.hits.map((x) => x.headers['x-nodewarden-alert-id'])).toEqual(['alert-node-a-kernel'])
    expect(Object.keys(await notified('copies'))).toEqual(['alert-node-a-kernel'])
  })

  it('prunes records of lapsed alerts in the next record write, so status.notified stays bounded', async () => {
    const r = await subscribe('pruned', () => 200, { repeatInterval: '1h' })
    const h = createHarness(cluster.kube, { start: T0 })
    h.publish(anAlert({ id: 'alert-lapsing-audit' }))
    await h.drain()
    expect(Object.keys(await notified('pruned'))).toEqual(['alert-lapsing-audit'])
    h.advance(2 * 60 * 60_000 + 60_000) // past repeatInterval + 1 h, with no refresh
    h.publish(anAlert({ id: 'alert-node-a-kernel' }))
    await h.drain()
    expect(r.hits.map((x) => x.headers['x-nodewarden-alert-id'])).toEqual([
      'alert-lapsing-audit',
      'alert-node-a-kernel',
    ])
    expect(Object.keys(await notified('pruned'))).toEqual(['alert-node-a-kernel'])
  })

  it('does not pile up re-emitted copies while the first notice is still being retried', async () => {
    const backAt = T0.getTime() + 10 * 60_000
    let clock = () => T0.getTime()
    const r = await subscribe('retrying', () => (clock() < backAt ? 503 : 200))
    const h = createHarness(cluster.kube, { start: T0 })
    clock = () => h.now().getTime()
    for (let minute = 0; minute < 10; minute++) {
      h.publish(anAlert({ startsAt: h.now().toISOString() })) // a resync every minute
      h.advance(60_000)
    }
    await h.drain()
    expect(r.hits.filter((x) => x.answered === 200)).toHaveLength(1)
    expect(h.deadLetters).toEqual([])
  })

  it('still delivers an alert whose fan-out is redelivered after it claimed the notice', async () => {
    const r = await subscribe('redelivered', () => 200)
    const h = createHarness(cluster.kube, { start: T0 })
    const enqueue = h.deps.enqueue
    let failing = true
    h.deps.enqueue = async (messages) => {
      if (failing && messages.length > 0) {
        failing = false
        throw new Error('SQS unavailable')
      }
      await enqueue(messages)
    }
    h.publish(anAlert())
    const message = { ...(h.queue[0] as (typeof h.queue)[number]) }
    await expect(h.handleDueNow()).rejects.toThrow('SQS unavailable')
    h.queue.push(message) // SQS redelivers the same message (same message id)
    await h.drain()
    expect(r.hits).toHaveLength(1)
    expect((await notified('redelivered'))['alert-node-a-kernel']).toEqual({
      at: expect.any(String),
      kind: 'ConditionTainted',
      zone: 'eu-west-1a',
    })
  })

  it('folds node alerts of a braked zone into the zone alert', async () => {
    const r = await subscribe('zones', () => 200)
    const h = createHarness(cluster.kube, { start: T0 })
    h.publish(
      anAlert({
        id: 'alert-zone-eu-west-1a',
        kind: 'ZoneBrake',
        severity: 'critical',
        subject: { kind: 'Zone', name: 'eu-west-1a', zone: 'eu-west-1a' },
        groupKey: 'zone/eu-west-1a',
      }),
    )
    await h.drain()
    // decide marks a node's alerts with the zone alert's id while that zone's brake holds.
    for (const n of ['b', 'c', 'd'])
      h.publish(
        anAlert({
          id: `alert-node-${n}-notready`,
          subject: { kind: 'Node', name: `node-${n}`, zone: 'eu-west-1a' },
          foldInto: 'alert-zone-eu-west-1a',
        }),
      )
    h.publish(anAlert({ id: 'alert-node-x-notready', subject: { kind: 'Node', name: 'node-x', zone: 'eu-west-1b' } }))
    await h.drain()
    expect(r.hits.map((x) => x.headers['x-nodewarden-alert-id'])).toEqual([
      'alert-zone-eu-west-1a',
      'alert-node-x-notready',
    ])
    // The brake is over: decide no longer marks node-b's alert, and it goes out.
    h.publish(anAlert({ id: 'alert-node-b-notready', subject: { kind: 'Node', name: 'node-b', zone: 'eu-west-1a' } }))
    await h.drain()
    expect(r.hits.map((x) => x.headers['x-nodewarden-alert-id'])).toEqual([
      'alert-zone-eu-west-1a',
      'alert-node-x-notready',
      'alert-node-b-notready',
    ])
  })

  it('refuses a target that resolves to loopback when loopback is not allow-listed', async () => {
    const r = await subscribe('rebind', () => 200)
    const url = new URL(r.url)
    await cluster.kube(
      'PATCH',
      `/apis/nodewarden.io/v1alpha1/namespaces/${NAMESPACE}/alertsubscriptions/rebind`,
      { spec: { url: `http://localhost:${url.port}/hook` } },
      'application/merge-patch+json',
    )
    const h = createHarness(cluster.kube, { start: T0 })
    const { createPostWebhook } = await import('../../../functions/alert/post-webhook.ts')
    h.deps.postWebhook = createPostWebhook({ egress: { allowHttp: true, allowCidrs: [] } })
    h.publish(anAlert())
    await h.drain()
    expect(r.hits).toEqual([])
    expect(JSON.parse(h.deadLetters[0] ?? '{}').nwdeadreason).toMatch(
      /target refused: address (127\.0\.0\.1|::1) is loopback/,
    )
  })
})
