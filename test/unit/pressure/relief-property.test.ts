import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { PolicySchema } from '../../../shared/config/index.ts'
import type { NodeStats, PodUsage, SlimPod } from '../../../shared/messages/index.ts'
import { isCriticalPod } from '../../../shared/policy/critical-pod.ts'
import { isProtected } from '../../../shared/policy/protection.ts'
import { ReliefConfigSchema } from '../../../shared/pressure/config.ts'
import { decideRelief } from '../../../shared/pressure/decide-relief.ts'
import { rankForSignal, usageLookup } from '../../../shared/pressure/rank.ts'
import { aNodeView, aPod } from '../../fixtures/builders.ts'

/**
 * Safety invariant (issue 8, item 7): over thousands of random nodes, relief never evicts a protected
 * pod, and evicting repeatedly follows the kubelet's ranking restricted to unprotected pods.
 */

const NOW = new Date('2026-11-22T10:00:00Z')
const base = PolicySchema.parse({
  protection: { namespaces: ['payments'], selectors: [{ matchLabels: { tier: 'db' } }] },
})
const pressure = ReliefConfigSchema.parse({})
const policy = { pressure, protection: base.protection, alerts: base.alerts }
const GiB = 2 ** 30

const podArb = fc.record({
  namespace: fc.constantFrom('default', 'kube-system', 'payments', 'batch'),
  priority: fc.oneof(fc.integer({ min: -10, max: 10 }), fc.constantFrom(0, 1000, 2_000_000_000, 2_000_001_000)),
  owner: fc.constantFrom('ReplicaSet', 'DaemonSet', 'Job', 'StatefulSet'),
  marks: fc.subarray(['protect', 'mirror', 'static', 'not-evicted', 'db'] as const, { maxLength: 2 }),
  memReq: fc.option(fc.integer({ min: 1, max: 4096 }), { nil: undefined }),
  diskReq: fc.option(fc.integer({ min: 1, max: 4096 }), { nil: undefined }),
  stats: fc.option(
    fc.record({
      ws: fc.integer({ min: 0, max: 8192 }),
      root: fc.integer({ min: 0, max: 8192 }),
      logs: fc.integer({ min: 0, max: 1024 }),
      procs: fc.integer({ min: 0, max: 500 }),
    }),
    { nil: undefined, freq: 6 },
  ),
})

type PodSpec = typeof podArb extends fc.Arbitrary<infer T> ? T : never

function toPod(p: PodSpec, i: number): { pod: SlimPod; usage?: PodUsage } {
  const annotations: Record<string, string> = {}
  if (p.marks.includes('protect')) annotations['nodewarden.io/protect'] = 'true'
  if (p.marks.includes('mirror')) annotations['kubernetes.io/config.mirror'] = 'x'
  if (p.marks.includes('static')) annotations['kubernetes.io/config.source'] = 'file'
  if (p.marks.includes('not-evicted')) annotations['scheduler.alpha.kubernetes.io/not-evicted-pod'] = ''
  const requests: Record<string, string> = {}
  if (p.memReq) requests.memory = `${p.memReq}Mi`
  if (p.diskReq) requests['ephemeral-storage'] = `${p.diskReq}Mi`
  const pod = aPod({
    namespace: p.namespace,
    name: `p${i}`,
    uid: `uid-${i}`,
    priority: p.priority,
    owners: [{ kind: p.owner, name: 'o', controller: true }],
    annotations,
    labels: p.marks.includes('db') ? { tier: 'db' } : {},
    containers: [{ name: 'c', requests }],
  })
  const s = p.stats
  const usage = s && {
    uid: pod.uid,
    workingSetBytes: s.ws * 2 ** 20,
    rootfsBytes: s.root * 2 ** 20,
    logsBytes: s.logs * 2 ** 20,
    rootfsInodes: s.root,
    logsInodes: s.logs,
    processCount: s.procs,
  }
  return usage ? { pod, usage } : { pod }
}

const signalArb = fc.constantFrom('memory.available', 'nodefs.available', 'nodefs.inodesFree', 'pid.available')
const statsFor = (signal: string, usage: PodUsage[]): NodeStats => ({
  observedAt: NOW.toISOString(),
  layout: 'shared',
  // the pressed signal sits just below its relief threshold; the others are healthy
  signals: {
    'memory.available': { available: signal === 'memory.available' ? 400 * 2 ** 20 : 8 * GiB, capacity: 16 * GiB },
    'nodefs.available': { available: signal === 'nodefs.available' ? 14 * GiB : 60 * GiB, capacity: 100 * GiB },
    'nodefs.inodesFree': { available: signal === 'nodefs.inodesFree' ? 9000 : 90000, capacity: 100000 },
    'pid.available': { available: signal === 'pid.available' ? 9000 : 90000, capacity: 100000 },
  },
  unknown: {},
  pods: usage,
  firstObservedAt: {},
})

describe('pressure relief safety', () => {
  it('never evicts a protected pod, and evicts in the kubelet order restricted to unprotected pods', () => {
    fc.assert(
      fc.property(fc.array(podArb, { minLength: 1, maxLength: 30 }), signalArb, (specs, signal) => {
        const built = specs.map(toPod)
        const usage = built.flatMap((b) => (b.usage ? [b.usage] : []))
        const pods = built.map((b) => b.pod)
        const kubelet = rankForSignal(signal as never, 'shared', pods, usageLookup(usage)).map((r) => r.pod)
        const expected = kubelet
          .filter((p) => !isCriticalPod(p) && isProtected(p, policy.protection).length === 0)
          .map((p) => p.uid)
        const evicted: string[] = []
        let remaining = pods
        for (;;) {
          const view = aNodeView({ pods: remaining, stats: statsFor(signal, usage) })
          const { decisions, evaluation } = decideRelief(view, policy, NOW)
          expect(decisions.length).toBeLessThanOrEqual(1)
          expect(evaluation.rankedFor?.signal).toBe(signal)
          const d = decisions[0]
          if (!d) break
          const target = remaining.find((p) => p.uid === d.target.uid) as SlimPod
          expect(isProtected(target, policy.protection)).toEqual([])
          expect(isCriticalPod(target)).toBe(false)
          evicted.push(target.uid)
          remaining = remaining.filter((p) => p.uid !== target.uid)
        }
        expect(evicted).toEqual(expected)
      }),
      { numRuns: 2000, seed: 20261122 },
    )
  })
})
