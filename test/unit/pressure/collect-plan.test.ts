import { describe, expect, it } from 'vitest'
import type { NodeStats } from '../../../shared/messages/index.ts'
import {
  type CollectState,
  classifyNode,
  intervalFor,
  planCollection,
  requestRate,
  statsWorthSending,
} from '../../../shared/pressure/collect-plan.ts'
import { ReliefConfigSchema } from '../../../shared/pressure/config.ts'

const config = ReliefConfigSchema.parse({})
const GiB = 2 ** 30
const NOW = new Date('2026-11-22T10:00:00Z')
const stats = (availableGi: number): NodeStats => ({
  observedAt: NOW.toISOString(),
  layout: 'shared',
  signals: { 'nodefs.available': { available: availableGi * GiB, capacity: 100 * GiB } },
  unknown: {},
  pods: [],
  firstObservedAt: {},
})

describe('classifyNode', () => {
  it.each([
    { name: 'relief threshold met (14% < 15%)', conditions: [], stats: stats(14), want: 'pressure' },
    {
      name: 'kubelet reports DiskPressure',
      conditions: [{ type: 'DiskPressure', status: 'True' }],
      stats: stats(80),
      want: 'pressure',
    },
    { name: 'within nearFactor × threshold (25% < 2 × 15%)', conditions: [], stats: stats(25), want: 'near' },
    { name: 'healthy (40%)', conditions: [], stats: stats(40), want: 'calm' },
    { name: 'never fetched', conditions: [], stats: undefined, want: 'unknown' },
    { name: 'nothing reported', conditions: [], stats: { ...stats(40), signals: {} }, want: 'unknown' },
  ] as const)('$name → $want', ({ conditions, stats: s, want }) => {
    expect(classifyNode([...conditions], s, config)).toBe(want)
  })
})

describe('planCollection', () => {
  const at = (sAgo: number) => new Date(NOW.getTime() - sAgo * 1000).toISOString()
  const states: CollectState[] = [
    { name: 'calm-recent', temperature: 'calm', lastFetchAt: at(60), failures: 0 },
    { name: 'calm-overdue', temperature: 'calm', lastFetchAt: at(301), failures: 0 },
    { name: 'hot-due', temperature: 'pressure', lastFetchAt: at(15), failures: 0 },
    { name: 'near-not-due', temperature: 'near', lastFetchAt: at(5), failures: 0 },
    { name: 'new', temperature: 'unknown', failures: 0 },
    { name: 'failing', temperature: 'unknown', lastFetchAt: at(40), failures: 2 },
  ]
  it('fetches hot nodes first, then the most overdue; backs off failing nodes', () => {
    expect(planCollection(states, config, NOW)).toEqual(['hot-due', 'new', 'calm-overdue'])
  })
  it.each([
    { temperature: 'pressure', failures: 0, ms: 15_000 },
    { temperature: 'calm', failures: 0, ms: 300_000 },
    { temperature: 'unknown', failures: 2, ms: 60_000 },
    { temperature: 'unknown', failures: 10, ms: 300_000 },
  ] as const)('interval for $temperature with $failures failures is $ms ms', ({ temperature, failures, ms }) => {
    expect(intervalFor({ temperature, failures }, config)).toBe(ms)
  })
})

describe('request rate', () => {
  it('is 23 requests/s at 5,000 nodes with 100 hot (defaults 15 s / 5 m)', () => {
    expect(requestRate(5000, 100, config)).toBeCloseTo(4900 / 300 + 100 / 15, 9)
    expect(Math.round(requestRate(5000, 100, config))).toBe(23)
  })
  it('sends a view when the temperature changes or the node is under pressure', () => {
    expect(statsWorthSending('calm', 'calm')).toBe(false)
    expect(statsWorthSending('calm', 'near')).toBe(true)
    expect(statsWorthSending('pressure', 'pressure')).toBe(true)
  })
})
