import { describe, expect, it } from 'vitest'
import { type DecideDeps, handleNodeView } from '../../../functions/decide/handle-node-view.ts'
import { defaultPolicy } from '../../../shared/config/index.ts'
import { silentLog } from '../../../shared/log.ts'
import { type NodeCondition, parseEnvelope, toEnvelope } from '../../../shared/messages/index.ts'
import type { OutgoingMessage } from '../../../shared/sqs/batches.ts'
import { aNode, aNodeView, aPod } from '../../fixtures/builders.ts'

const NOW = new Date('2026-11-22T10:30:00Z')
const cond = (type: string, status: 'True' | 'False', since: string): NodeCondition => ({
  type,
  status,
  lastTransitionTime: since,
  lastHeartbeatTime: '2026-11-22T10:29:00Z',
})

function fakeDeps(fail?: 'decisions' | 'alerts') {
  const sent: { queue: string; messages: OutgoingMessage[] }[] = []
  const deps: DecideDeps = {
    send: async (queue, messages) => {
      if (queue === fail) throw new Error(`send to ${queue} failed`)
      sent.push({ queue, messages })
    },
    now: () => NOW,
    log: silentLog,
    policy: defaultPolicy(),
  }
  return { deps, sent }
}

function envelopeOf(conditions: NodeCondition[]) {
  const view = aNodeView({
    node: aNode({ conditions: [cond('Ready', 'True', '2026-11-01T00:00:00Z'), ...conditions] }),
    pods: [aPod({ tolerations: [] })],
  })
  return toEnvelope('io.nodewarden.nodeview.v1', view, { source: 'test', time: NOW })
}

describe('handleNodeView', () => {
  it('sends decisions (delayed to notBefore) to decisions and alerts to alerts', async () => {
    const { deps, sent } = fakeDeps()
    const outcome = await handleNodeView(envelopeOf([cond('KernelDeadlock', 'True', '2026-11-22T10:26:00Z')]), deps)
    expect(outcome).toEqual({ decisions: 1, alerts: 1, held: 0, waiting: 1 })
    expect(sent.map((s) => s.queue)).toEqual(['decisions', 'alerts'])
    const [decision] = sent[0]?.messages ?? []
    expect(decision?.delaySeconds).toBe(360)
    const parsed = parseEnvelope(decision?.body ?? '', 'io.nodewarden.decision.v1')
    expect(parsed.data).toMatchObject({ action: 'taint', notBefore: '2026-11-22T10:36:00.000Z' })
    expect(parsed.id).toBe(parsed.data.id)
    expect(parseEnvelope(sent[1]?.messages[0]?.body ?? '', 'io.nodewarden.alert.v1').data.kind).toBe(
      'MissingDefaultTolerations',
    )
  })

  it('clamps a wait longer than 900 s to 900 (the writer re-enqueues the rest)', async () => {
    const { deps, sent } = fakeDeps()
    await handleNodeView(envelopeOf([cond('FrequentKubeletRestart', 'True', '2026-11-22T10:29:00Z')]), deps)
    expect(sent[0]?.messages[0]?.delaySeconds).toBe(900)
  })

  it('is deterministic: the same view and clock send the same bodies', async () => {
    const a = fakeDeps()
    const b = fakeDeps()
    const env = envelopeOf([cond('KernelDeadlock', 'True', '2026-11-22T10:00:00Z')])
    await handleNodeView(env, a.deps)
    await handleNodeView(env, b.deps)
    expect(b.sent).toEqual(a.sent)
  })

  it('sends nothing when nothing is to be done', async () => {
    const { deps, sent } = fakeDeps()
    const env = toEnvelope('io.nodewarden.nodeview.v1', aNodeView(), { source: 'test', time: NOW })
    await handleNodeView(env, deps)
    expect(sent).toEqual([])
  })

  it('a failed send throws so SQS redelivers the view', async () => {
    const { deps } = fakeDeps('alerts')
    await expect(handleNodeView(envelopeOf([]), deps)).rejects.toThrow('send to alerts failed')
  })
})
