/**
 * alert: signed deliveries per second from the alert function (its Lambda handler, fed SQS
 * batches of delivery messages) to 100 local receivers, beside a bare `fetch` loop posting the
 * same rendered bodies with the same concurrency — both in this process, as a ratio.
 */

import { readFileSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { SQSEvent } from 'aws-lambda'
import { parse } from 'yaml'
import type { AlertDeps } from '../functions/alert/handle-alert.ts'
import { createAlertHandler } from '../functions/alert/handler.ts'
import { createKubeRest } from '../functions/alert/kube-rest.ts'
import { createPostWebhook } from '../functions/alert/post-webhook.ts'
import { createSubscriptionSource } from '../functions/alert/read-subscriptions.ts'
import { createRecordNotice } from '../functions/alert/record-notice.ts'
import { renderPayload } from '../functions/alert/render-context.ts'
import { startEmulator } from '../functions/cluster/emulator.ts'
import { toDeliveryBody } from '../shared/alerts/delivery-message.ts'
import { EgressPolicySchema } from '../shared/alerts/egress-guard.ts'
import { DEFAULT_RETRY_POLICY } from '../shared/alerts/retry-policy.ts'
import { silentLog } from '../shared/log.ts'
import { AlertSchema } from '../shared/messages/alert.ts'

export const name = 'alert'

const RECEIVERS = 100
const PER_RECEIVER = 20
const LANES = 4 // concurrent batches, like 4 concurrent Lambda invocations of batch size 10
const BATCH = 10

export async function run(): Promise<Record<string, unknown>> {
  const servers = await Promise.all(Array.from({ length: RECEIVERS }, startSink))
  const emulator = await startEmulator()
  const kube = createKubeRest({ server: emulator.url })
  const crd = parse(readFileSync(new URL('../infra/k8s/alertsubscription-crd.yaml', import.meta.url), 'utf8'))
  await kube('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)
  await kube('POST', '/api/v1/namespaces', { metadata: { name: 'nodewarden' } })
  await kube('POST', '/api/v1/namespaces/nodewarden/secrets', {
    metadata: { name: 'k' },
    stringData: { signingKey: 'bench-key-0123456789' },
  })
  for (const [i, s] of servers.entries())
    await kube('POST', '/apis/nodewarden.io/v1alpha1/namespaces/nodewarden/alertsubscriptions', {
      apiVersion: 'nodewarden.io/v1alpha1',
      kind: 'AlertSubscription',
      metadata: { name: `r${i}` },
      spec: { url: s.url, secretRef: { name: 'k' } },
    })

  const now = () => new Date()
  const subscriptions = createSubscriptionSource({ kube, namespace: 'nodewarden', ttlMs: 60_000, now })
  const egress = EgressPolicySchema.parse({ allowHttp: true, allowCidrs: ['127.0.0.1/32'] })
  const makeDeps = (record: boolean): AlertDeps => ({
    subscriptions,
    recordNotice: record ? createRecordNotice(kube) : async () => 'recorded' as const,
    signingKey: subscriptions.signingKey,
    postWebhook: createPostWebhook({ egress, now }),
    enqueue: async () => undefined,
    deadLetter: async () => undefined,
    now,
    random: Math.random,
    retry: DEFAULT_RETRY_POLICY,
    cluster: 'bench',
    log: silentLog,
  })

  const start = now()
  const deliveries = servers.flatMap((_, i) =>
    Array.from({ length: PER_RECEIVER }, (_, j) => {
      const alert = AlertSchema.parse({
        id: `alert-bench-${i}-${j}`,
        status: 'firing',
        severity: 'warning',
        kind: 'ConditionTainted',
        subject: { kind: 'Node', name: `node-${j}`, zone: 'z1' },
        summary: `bench alert ${j}`,
        startsAt: start.toISOString(),
        groupKey: `node/node-${j}`,
      })
      const delivery = {
        alert,
        subscription: { namespace: 'nodewarden', name: `r${i}` },
        deliveryId: `${alert.id}:firing:0`,
        attempt: 1,
        firstAttemptAt: start.toISOString(),
      }
      const body = renderPayload('cloudevents', alert, {
        deliveryId: delivery.deliveryId,
        now: start,
        cluster: 'bench',
        receiver: `r${i}`,
      }).body
      return { message: toDeliveryBody(delivery, start), url: servers[i]?.url ?? '', body }
    }),
  )
  // Interleave receivers so every batch spreads over several of them.
  deliveries.sort((a, b) => (a.message < b.message ? -1 : 1))

  const viaFunction = async (record: boolean) => {
    const handler = createAlertHandler(makeDeps(record))
    await subscriptions.list() // warm the cache, as a warm Lambda would be
    const batches: SQSEvent[] = []
    for (let i = 0; i < deliveries.length; i += BATCH)
      batches.push({ Records: deliveries.slice(i, i + BATCH).map((d, k) => record_(d.message, `${i + k}`)) })
    let failures = 0
    const t = performance.now()
    await lanes(batches, async (event) => {
      failures += (await handler(event)).batchItemFailures.length
    })
    return { perSecond: deliveries.length / ((performance.now() - t) / 1000), failures }
  }
  const bareFetch = async () => {
    const t = performance.now()
    const groups: (typeof deliveries)[] = []
    for (let i = 0; i < deliveries.length; i += BATCH) groups.push(deliveries.slice(i, i + BATCH))
    await lanes(groups, (group) =>
      Promise.all(
        group.map(async (d) =>
          (
            await fetch(d.url, {
              method: 'POST',
              headers: { 'content-type': 'application/cloudevents+json' },
              body: d.body,
            })
          ).arrayBuffer(),
        ),
      ),
    )
    return { perSecond: deliveries.length / ((performance.now() - t) / 1000) }
  }

  await bareFetch() // warm-up: sockets, JIT
  await viaFunction(false)
  const baseline = await bareFetch()
  const signedOnly = await viaFunction(false)
  const full = await viaFunction(true)
  const received = servers.reduce((n, s) => n + s.count(), 0)
  await Promise.all(servers.map((s) => s.close()))
  await emulator.close()
  return {
    receivers: RECEIVERS,
    deliveriesPerRun: deliveries.length,
    concurrency: LANES * BATCH,
    signedDeliveriesPerSecond: Math.round(full.perSecond),
    signedDeliveriesPerSecondWithoutStatusRecord: Math.round(signedOnly.perSecond),
    bareFetchPostsPerSecond: Math.round(baseline.perSecond),
    ratio: Number((full.perSecond / baseline.perSecond).toFixed(3)),
    ratioWithoutStatusRecord: Number((signedOnly.perSecond / baseline.perSecond).toFixed(3)),
    failures: full.failures + signedOnly.failures,
    requestsReceived: received,
    note: 'function path = parse envelope + cached subscription/secret lookup + render + HMAC sign + guarded POST + merge-patch of status.notified on the emulator; baseline = fetch POST of the same rendered bodies',
  }
}

function record_(body: string, id: string) {
  return {
    messageId: id,
    receiptHandle: id,
    body,
    attributes: {
      ApproximateReceiveCount: '1',
      SentTimestamp: '0',
      SenderId: 'bench',
      ApproximateFirstReceiveTimestamp: '0',
    },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:nodewarden-alerts',
    awsRegion: 'us-east-1',
  }
}

async function lanes<T>(items: T[], work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0
  await Promise.all(
    Array.from({ length: LANES }, async () => {
      while (next < items.length) await work(items[next++] as T)
    }),
  )
}

function startSink(): Promise<{ url: string; count: () => number; close: () => Promise<void> }> {
  let n = 0
  const server = http.createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      n++
      res.writeHead(204).end()
    })
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      resolve({
        url: `http://127.0.0.1:${port}/hook`,
        count: () => n,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections()
            server.close(() => done())
          }),
      })
    }),
  )
}
