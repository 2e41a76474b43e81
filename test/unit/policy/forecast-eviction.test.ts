import { describe, expect, it } from 'vitest'
import type { Taint } from '../../../shared/messages/index.ts'
import { forecastEviction } from '../../../shared/policy/forecast-eviction.ts'
import { aPod } from '../../fixtures/builders.ts'

const NOW = new Date('2026-11-22T10:10:00Z')
const unreachable = (timeAdded?: string): Taint => ({
  key: 'node.kubernetes.io/unreachable',
  effect: 'NoExecute',
  ...(timeAdded ? { timeAdded } : {}),
})
const dedicated = (timeAdded: string): Taint => ({ key: 'dedicated', value: 'gpu', effect: 'NoExecute', timeAdded })
const custom: Taint = { key: 'nodewarden.io/x', value: 'y', effect: 'NoExecute', timeAdded: '2026-11-22T10:09:00Z' }

// processPodOnNode (pkg/controller/tainteviction) as a forecast; UPSTREAM.md §2.3.
describe('forecastEviction', () => {
  it.each([
    {
      name: 'no NoExecute taint: never',
      pod: aPod(),
      taints: [{ key: 'a', effect: 'NoSchedule' as const }],
      outcome: 'never',
      evictAt: null,
      reason: 'no NoExecute taints',
    },
    {
      name: 'untolerated taint: now, naming the taint',
      pod: aPod(),
      taints: [custom],
      outcome: 'now',
      evictAt: NOW.toISOString(),
      reason: 'does not tolerate nodewarden.io/x=y:NoExecute',
    },
    {
      name: 'no tolerations at all (the DefaultTolerationSeconds incident): now',
      pod: aPod({ tolerations: [] }),
      taints: [unreachable('2026-11-22T10:09:00Z')],
      outcome: 'now',
      evictAt: NOW.toISOString(),
      reason: 'does not tolerate node.kubernetes.io/unreachable:NoExecute',
    },
    {
      name: 'tolerated forever: never',
      pod: aPod({ tolerations: [{ operator: 'Exists' }] }),
      taints: [unreachable('2026-11-22T10:00:00Z'), custom],
      outcome: 'never',
      evictAt: null,
      reason: 'forever',
    },
    {
      name: 'tolerationSeconds 0: now',
      pod: aPod({ tolerations: [{ operator: 'Exists', tolerationSeconds: 0 }] }),
      taints: [unreachable('2026-11-22T10:00:00Z')],
      outcome: 'now',
      evictAt: NOW.toISOString(),
      reason: 'tolerationSeconds ≤ 0',
    },
    {
      name: 'negative tolerationSeconds: now',
      pod: aPod({ tolerations: [{ operator: 'Exists', tolerationSeconds: -1 }] }),
      taints: [unreachable('2026-11-22T10:00:00Z')],
      outcome: 'now',
      evictAt: NOW.toISOString(),
      reason: 'tolerationSeconds ≤ 0',
    },
    {
      name: '300 s from the taint timeAdded when the pod was there first',
      pod: aPod(),
      taints: [unreachable('2026-11-22T10:08:00Z')],
      outcome: 'at',
      evictAt: '2026-11-22T10:13:00.000Z',
      reason: 'taint timeAdded; estimate',
    },
    {
      name: '300 s from the pod arrival when it arrived after the taint',
      pod: aPod({ startTime: '2026-11-22T10:09:30Z' }),
      taints: [unreachable('2026-11-22T10:00:00Z')],
      outcome: 'at',
      evictAt: '2026-11-22T10:14:30.000Z',
      reason: 'pod arrival',
    },
    {
      name: 'countdown already over: now (overdue)',
      pod: aPod(),
      taints: [unreachable('2026-11-22T10:00:00Z')],
      outcome: 'now',
      evictAt: NOW.toISOString(),
      reason: 'overdue since 2026-11-22T10:05:00.000Z',
    },
    {
      name: 'minimum over the tolerations used',
      pod: aPod({
        tolerations: [
          { key: 'node.kubernetes.io/unreachable', operator: 'Exists', tolerationSeconds: 600 },
          { key: 'nodewarden.io/x', operator: 'Exists', tolerationSeconds: 120 },
        ],
      }),
      taints: [unreachable('2026-11-22T10:09:00Z'), custom],
      outcome: 'at',
      evictAt: '2026-11-22T10:11:00.000Z',
      reason: 'for 120s',
    },
    {
      name: 'a taint tolerated forever starts no countdown: it runs from the first taint tolerated for a time',
      pod: aPod({
        startTime: '2026-11-22T08:00:00Z',
        tolerations: [
          { key: 'dedicated', operator: 'Exists', effect: 'NoExecute' },
          { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        ],
      }),
      taints: [dedicated('2026-11-22T09:00:00Z'), unreachable('2026-11-22T10:09:00Z')],
      outcome: 'at',
      evictAt: '2026-11-22T10:14:00.000Z',
      reason: 'taint timeAdded',
    },
    {
      name: 'a toleration with seconds that also matches the older taint starts the countdown there',
      pod: aPod({
        startTime: '2026-11-22T08:00:00Z',
        tolerations: [
          { key: 'dedicated', operator: 'Exists', effect: 'NoExecute' },
          { operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 900 },
        ],
      }),
      taints: [dedicated('2026-11-22T10:00:00Z'), unreachable('2026-11-22T10:09:00Z')],
      outcome: 'at',
      evictAt: '2026-11-22T10:15:00.000Z',
      reason: 'for 900s',
    },
    {
      name: 'no timeAdded and no pod times: counted from now',
      pod: aPod({ startTime: undefined, creationTimestamp: undefined }),
      taints: [unreachable()],
      outcome: 'at',
      evictAt: '2026-11-22T10:15:00.000Z',
      reason: 'counted from now',
    },
  ])('$name', ({ pod, taints, outcome, evictAt, reason }) => {
    const f = forecastEviction(pod, taints, NOW)
    expect(f.outcome).toBe(outcome)
    expect(f.evictAt).toBe(evictAt)
    expect(f.reason).toContain(reason)
  })
})
