import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadScenarioFile } from '../../../functions/cluster/scenario/load.ts'
import { type LocalStack, startLocalStack } from '../../../functions/local/stack.ts'
import { NODE_TAINTS_ANNOTATION } from '../../../functions/write/plan-taints.ts'
import type { Alert } from '../../../shared/messages/index.ts'
import { realSleep } from '../../../shared/sqs/retry.ts'
import { verifyWebhook } from '../../unit/alerts/verify-webhook.ts'
import { DEMO, drainDeadLetters, eventsOf, until } from './harness.ts'

// The demo scenario at 120x: its 12 minutes take 6 real seconds; the malformed view needs its five
// receives (180 s visibility in scenario time, 2 s real each) to reach the events DLQ.
let stack: LocalStack
const KERNEL_DEADLOCK = 'nodewarden.io/kernel-deadlock'

beforeAll(async () => {
  stack = await startLocalStack({
    target: { kind: 'embedded', scenario: loadScenarioFile(DEMO), speed: 120 },
    badInput: true,
    logLevel: 'SILENT',
  })
}, 30_000)

afterAll(async () => {
  await stack?.stop()
})

const taintsOf = (node: string) =>
  (stack.emulator?.store.get('nodes', '', node)?.spec.taints ?? []) as { key: string; effect: string }[]

describe('npm start on the demo scenario (emulator, embedded SQS, all functions, virtual time)', () => {
  it('taints the KernelDeadlock node and leaves the annotation and a NodewardenTainted Event an operator can read', async () => {
    await until('the kernel-deadlock taint on node-b2', () =>
      taintsOf('node-b2').some((t) => t.key === KERNEL_DEADLOCK),
    )
    const node = stack.emulator?.store.get('nodes', '', 'node-b2')
    const record = JSON.parse(node?.metadata.annotations?.[NODE_TAINTS_ANNOTATION] ?? '{}')
    expect(Object.keys(record)).toEqual([`${KERNEL_DEADLOCK}:NoSchedule`])
    const events = await until('the NodewardenTainted Event', () => {
      const found = stack.emulator?.store
        .list('events.events.k8s.io', { namespace: 'default' })
        .filter((e) => e.reason === 'NodewardenTainted' && e.regarding?.name === 'node-b2')
      return found && found.length > 0 ? found : undefined
    })
    expect(events[0]).toMatchObject({ reportingController: 'nodewarden.io/writer', regarding: { kind: 'Node' } })
    // Nodes without the condition stay untouched by nodewarden.
    for (const other of ['node-a1', 'node-b1', 'node-c1'])
      expect(taintsOf(other).filter((t) => t.key.startsWith('nodewarden.io/'))).toEqual([])
    const applied = await until('the applied taint in the timeline', () => {
      const taints = eventsOf(stack.events, 'outcome').filter((o) => o.status === 'applied' && o.action === 'taint')
      return taints.length > 0 ? taints : undefined
    })
    expect(applied.map((o) => o.target)).toEqual(['node-b2'])
  })

  it('delivers signed alerts to the local receiver, including the forecast for pods lacking the default tolerations', async () => {
    const received = await until('a MissingDefaultTolerations and a ConditionTainted alert', () => {
      const kinds = stack.receiver?.received.map((r) => (r.payload as { data: Alert }).data.kind) ?? []
      return kinds.includes('MissingDefaultTolerations') && kinds.includes('ConditionTainted')
        ? stack.receiver?.received
        : undefined
    })
    const key = stack.receiver?.signingKey ?? ''
    for (const r of received) {
      const check = verifyWebhook(JSON.stringify(r.payload), r.headers, key, Math.floor(Date.now() / 1000))
      expect(check).toEqual({ ok: true })
    }
    const missing = received
      .map((r) => (r.payload as { data: Alert }).data)
      .find((a) => a.kind === 'MissingDefaultTolerations')
    expect(missing?.summary).toMatch(/lack the default NoExecute tolerations/)
    expect(eventsOf(stack.events, 'alert').every((a) => a.verified === true)).toBe(true)
  })

  it('dead-letters only the deliberately malformed view; decisions and alerts DLQs stay empty', async () => {
    // SQS moves a record to its DLQ on the receive after its last failed one.
    const dead = { events: [] as string[], decisions: [] as string[], alerts: [] as string[] }
    const deadline = Date.now() + 40_000
    while (dead.events.length === 0 && Date.now() < deadline) {
      const drained = await drainDeadLetters(stack.pipeline.sqs)
      for (const queue of ['events', 'decisions', 'alerts'] as const)
        dead[queue].push(...drained[queue].map((m) => JSON.parse(m.Body ?? '{}').id))
      await realSleep(250)
    }
    expect(dead).toEqual({ events: ['local-bad-input'], decisions: [], alerts: [] })
    expect(eventsOf(stack.events, 'dlq').map((d) => d.queue)).toEqual(['events'])
  }, 45_000)

  it('serves the api on localhost: /healthz open, subscriptions behind the generated token', async () => {
    const api = stack.api
    expect(api).toBeDefined()
    expect((await fetch(`${api?.url}/healthz`)).status).toBe(200)
    expect((await fetch(`${api?.url}/subscriptions`)).status).toBe(401)
    const listed = await fetch(`${api?.url}/subscriptions`, { headers: { authorization: `Bearer ${api?.token}` } })
    expect(listed.status).toBe(200)
    expect(JSON.stringify(await listed.json())).toContain('local-receiver')
  })
})
