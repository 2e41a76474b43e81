import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadScenarioFile } from '../../../functions/cluster/scenario/load.ts'
import { type LocalStack, startLocalStack } from '../../../functions/local/stack.ts'
import { defaultPolicy } from '../../../shared/config/index.ts'
import { decide } from '../../../shared/policy/decide.ts'
import { ANNOTATION_LAST_RELIEF, parseLastRelief, RELIEF_RULE_ID } from '../../../shared/pressure/index.ts'
import { DEMO, eventsOf, until } from '../local/harness.ts'

// The demo scenario's disk-fill story (functions/cluster/scenarios/demo.yaml, node-a2) on the whole
// pipeline: the emulator plays it in virtual time at 60x, the watcher collects kubelet stats through
// the node proxy (on by default), decide runs pressure relief, the writer evicts through the Eviction
// API and stamps the node, alerts reach the local webhook receiver. Its first four minutes take ~4 s.
let stack: LocalStack
const NODE = 'node-a2'
const BATCH = ['batch/report-builder-0', 'batch/report-builder-1', 'batch/legacy-batch-0']
const PROTECTED = [
  'kube-system/calico-kube-controllers-0',
  'kube-system/cni-agent-node-a2',
  'kube-system/metrics-agent',
  'kube-system/kube-proxy-node-a2',
]

beforeAll(async () => {
  stack = await startLocalStack({
    target: { kind: 'embedded', scenario: loadScenarioFile(DEMO), speed: 60 },
    logLevel: 'SILENT',
    watcher: { stats: { tickMs: 100 } },
  })
}, 30_000)

afterAll(async () => {
  await stack?.stop()
})

const podOf = (ref: string) => {
  const [namespace = '', name = ''] = ref.split('/')
  return stack.emulator?.store.get('pods', namespace, name)
}
const evicted = (ref: string) => {
  const pod = podOf(ref)
  return pod === undefined || pod.metadata.deletionTimestamp !== undefined
}
/** reliefEvictions: applied relief evictions on node-a2, in the order they happened (scenario time). */
const reliefEvictions = () => {
  const relief = new Set(
    eventsOf(stack.events, 'decision')
      .filter((d) => d.action === 'evict' && d.reason.includes('relief threshold'))
      .map((d) => d.id),
  )
  return eventsOf(stack.events, 'outcome').filter(
    (o) => relief.has(o.decisionId) && o.status === 'applied' && o.code === 'applied',
  )
}
const alerts = () => eventsOf(stack.events, 'alert').filter((a) => a.via === 'receiver')

describe('a node whose disk fills (demo scenario, whole pipeline, virtual time)', () => {
  it('evicts the low-priority pods the kubelet would have killed, in its rank order, one per relief interval', async () => {
    const done = await until('the three batch pods evicted by relief', () => {
      const applied = reliefEvictions()
      return applied.length >= 3 ? applied : undefined
    })
    expect(done.map((o) => o.target)).toEqual(BATCH)
    const times = done.map((o) => Date.parse(o.at))
    for (let i = 1; i < times.length; i++) expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBeGreaterThanOrEqual(55_000)
    for (const ref of BATCH) expect(evicted(ref)).toBe(true)
    const stamp = parseLastRelief(
      stack.emulator?.store.get('nodes', '', NODE)?.metadata.annotations?.[ANNOTATION_LAST_RELIEF],
    )
    expect(stamp?.pod).toBe('batch/legacy-batch-0')
    const notes = (stack.emulator?.store.list('events.events.k8s.io', { namespace: 'batch' }) ?? [])
      .filter((e) => e.reason === 'NodewardenEvicted')
      .map((e) => String(e.note))
    expect(notes).toHaveLength(3)
    for (const note of notes) expect(note).toMatch(/rule pressure-relief: nodefs\.available \S+ < relief threshold 15%/)
  }, 35_000)

  it('keeps the kube-system add-on without system priority, and every other protected pod, on the node', async () => {
    const storm = await until('the kubelet reporting DiskPressure after the log storm', () =>
      stack.emulator?.store
        .get('nodes', '', NODE)
        ?.status.conditions.find(
          (c: { type: string; status: string }) => c.type === 'DiskPressure' && c.status === 'True',
        ),
    )
    // Two relief intervals after the storm began, on a view the watcher sent with fresh stats.
    const after = Date.parse(storm.lastTransitionTime) + 120_000
    const view = await until('a view of node-a2 with stats two intervals after the storm', () => {
      const v = stack.views.get(NODE)
      return v?.stats && Date.parse(v.stats.observedAt) > after ? v : undefined
    })
    for (const ref of PROTECTED) expect(evicted(ref)).toBe(false)
    expect(eventsOf(stack.events, 'outcome').filter((o) => PROTECTED.includes(o.target))).toEqual([])
    // What decide makes of that view: the kubelet's hard threshold met, nothing left nodewarden may evict.
    const result = decide(view, defaultPolicy(), new Date(Date.parse(view.stats?.observedAt ?? '') + 1_000))
    expect(result.decisions.filter((d) => d.ruleId === RELIEF_RULE_ID)).toEqual([])
    const relief = result.alerts.find((a) => a.kind === 'PressureRelief')
    expect(relief?.severity).toBe('critical')
    expect(relief?.summary).toContain('no unprotected pod left to evict')
  })

  it('tells the story in alerts: PressureRelief, each eviction, and ProtectedPodAtRisk for the add-on the kubelet would kill', async () => {
    const risk = await until('ProtectedPodAtRisk for calico-kube-controllers', () =>
      alerts().find(
        (a) => a.alertKind === 'ProtectedPodAtRisk' && a.subject === 'pod/kube-system/calico-kube-controllers-0',
      ),
    )
    expect(risk.summary).toContain(
      "the kubelet's next nodefs.available eviction on node-a2 would pick kube-system/calico-kube-controllers-0",
    )
    expect(risk.summary).toContain('not-evicted-pod annotation in kube-system')
    const relief = alerts().filter((a) => a.alertKind === 'PressureRelief' && a.subject === `node/${NODE}`)
    expect(relief[0]?.summary).toMatch(
      /nodefs\.available \S+ < relief threshold 15% .*; evicting batch\/report-builder-0/,
    )
    const outcomes = await until('an ActionOutcome alert for each relief eviction', () => {
      const found = alerts().filter(
        (a) => a.alertKind === 'ActionOutcome' && BATCH.some((b) => a.subject === `pod/${b}`),
      )
      return found.length >= 3 ? found : undefined
    })
    expect(outcomes.map((a) => a.subject).sort()).toEqual(BATCH.map((b) => `pod/${b}`).sort())
    expect(alerts().every((a) => a.verified === true)).toBe(true)
  })
})
