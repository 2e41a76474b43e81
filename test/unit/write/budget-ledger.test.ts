import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import {
  type BudgetLimits,
  type ClaimRequest,
  DEFAULT_BUDGET_LIMITS,
  EMPTY_LEDGER,
  type Ledger,
  planClaim,
  planRelease,
} from '../../../functions/write/budget-ledger.ts'

const ZONE_A = 'eu-west-1:\u0000:eu-west-1a'
const ZONE_B = 'eu-west-1:\u0000:eu-west-1b'
const T = new Date('2026-11-22T10:00:00Z')
const at = (seconds: number) => new Date(T.getTime() + seconds * 1000)
const claim = (n: number, o: Partial<ClaimRequest> = {}): ClaimRequest => ({
  kind: 'noExecuteTaint',
  zone: ZONE_A,
  zoneNodes: 10,
  ratePerSecond: 0.1,
  decisionId: `d-${n}`,
  node: `node-${n}`,
  ...o,
})

function grant(ledger: Ledger, request: ClaimRequest, now: Date, limits: BudgetLimits = DEFAULT_BUDGET_LIMITS): Ledger {
  const verdict = planClaim(ledger, request, limits, now)
  if (!verdict.granted) throw new Error(`expected a grant: ${verdict.reason}`)
  return verdict.ledger
}

describe('planClaim', () => {
  it('grants the first node-level claim of a zone and records the node as affected', () => {
    const verdict = planClaim(EMPTY_LEDGER, claim(1), DEFAULT_BUDGET_LIMITS, T)
    expect(verdict).toMatchObject({ granted: true, changed: true })
    if (verdict.granted) expect(Object.keys(verdict.ledger.affected)).toEqual(['node-1'])
  })

  it.each([
    {
      name: 'refuses a second node in the same zone until the token refills (10 s at 0.1/s)',
      second: claim(2),
      when: 5,
      want: { granted: false, reason: expect.stringContaining('rate limit'), retryAt: at(10) },
    },
    { name: 'grants a second node once the token refilled', second: claim(2), when: 10, want: { granted: true } },
    {
      name: 'grants a node in another zone at once',
      second: claim(2, { zone: ZONE_B }),
      when: 0,
      want: { granted: true },
    },
    {
      name: 'refuses a halted zone without a retry time',
      second: claim(2, { zone: ZONE_B, ratePerSecond: 0 }),
      when: 0,
      want: { granted: false, reason: expect.stringContaining('halted') },
    },
    {
      name: 'grants the same decision again without spending (redelivery)',
      second: claim(1),
      when: 1,
      want: { granted: true, changed: false, reason: 'budget already claimed by this decision' },
    },
    {
      name: 'grants a drain of an already counted node without spending',
      second: claim(9, { node: 'node-1', kind: 'drain' }),
      when: 1,
      want: { granted: true, changed: false },
    },
    {
      name: 'grants a pod-level eviction in a running zone without spending',
      second: claim(2, { kind: 'evict' }),
      when: 0,
      want: { granted: true, changed: false },
    },
    {
      name: 'refuses a pod-level eviction in a halted zone',
      second: claim(2, { kind: 'relief', ratePerSecond: 0 }),
      when: 0,
      want: { granted: false },
    },
  ])('$name', ({ second, when, want }) => {
    const ledger = grant(EMPTY_LEDGER, claim(1), T)
    expect(planClaim(ledger, second, DEFAULT_BUDGET_LIMITS, at(when))).toMatchObject(want)
  })

  it('holds the fraction guard: at most 20 % of a 10-node zone (2 nodes) at once', () => {
    let ledger = grant(EMPTY_LEDGER, claim(1), T)
    ledger = grant(ledger, claim(2), at(10))
    expect(planClaim(ledger, claim(3), DEFAULT_BUDGET_LIMITS, at(100))).toMatchObject({
      granted: false,
      reason: expect.stringContaining('fraction guard: 2 of 10'),
    })
  })

  it('lets one node at a time through a zone of unknown size', () => {
    const ledger = grant(EMPTY_LEDGER, claim(1, { zoneNodes: undefined }), T)
    expect(planClaim(ledger, claim(2, { zoneNodes: undefined }), DEFAULT_BUDGET_LIMITS, at(100)).granted).toBe(false)
  })

  it('frees a node from the fraction guard after its TTL', () => {
    let ledger = grant(EMPTY_LEDGER, claim(1), T)
    ledger = grant(ledger, claim(2), at(10))
    expect(planClaim(ledger, claim(3), DEFAULT_BUDGET_LIMITS, at(3600)).granted).toBe(true)
  })

  it('refuses past the global hourly budget until the oldest action is an hour old', () => {
    const limits = { ...DEFAULT_BUDGET_LIMITS, globalPerHour: 2 }
    let ledger = grant(EMPTY_LEDGER, claim(1), T, limits)
    ledger = grant(ledger, claim(2, { zone: ZONE_B }), at(60), limits)
    ledger = planRelease(ledger, { node: 'node-1' })
    ledger = planRelease(ledger, { node: 'node-2' })
    expect(planClaim(ledger, claim(3), limits, at(120))).toMatchObject({
      granted: false,
      reason: 'global budget spent: 2 of 2 actions in the last hour',
      retryAt: at(3600),
    })
  })

  it('refunds a released decision', () => {
    const ledger = planRelease(grant(EMPTY_LEDGER, claim(1), T), { decisionId: 'd-1' })
    expect(ledger.recent).toEqual([])
    expect(ledger.affected).toEqual({})
  })
})

describe('planClaim invariants', () => {
  const step = fc.record({
    node: fc.integer({ min: 0, max: 15 }),
    zone: fc.constantFrom(ZONE_A, ZONE_B),
    kind: fc.constantFrom('noExecuteTaint', 'drain', 'evict'),
    dt: fc.integer({ min: 0, max: 120 }),
    release: fc.boolean(),
  })

  test.prop([fc.array(step, { maxLength: 60 }), fc.integer({ min: 1, max: 6 })])(
    'never exceeds the fraction guard, the zone rate or the hourly budget',
    (steps, perHour) => {
      const limits = { ...DEFAULT_BUDGET_LIMITS, globalPerHour: perHour }
      let ledger = EMPTY_LEDGER
      let now = T.getTime()
      const grants: { zone: string; at: number }[] = []
      steps.forEach((s, i) => {
        now += s.dt * 1000
        if (s.release) ledger = planRelease(ledger, { node: `node-${s.node}` })
        const request = claim(i, { node: `node-${s.node}`, zone: s.zone, kind: s.kind as ClaimRequest['kind'] })
        const verdict = planClaim(ledger, request, limits, new Date(now))
        if (!verdict.granted) return
        if (verdict.changed) grants.push({ zone: s.zone, at: now })
        ledger = verdict.ledger
        for (const zone of [ZONE_A, ZONE_B]) {
          const affected = Object.values(ledger.affected).filter((a) => a.zone === zone).length
          expect(affected).toBeLessThanOrEqual(2)
          const lastHour = grants.filter((g) => now - g.at < 3_600_000)
          expect(lastHour.length).toBeLessThanOrEqual(perHour)
          // Token bucket with burst 1 at 0.1/s: two grants in a zone are ≥ 10 s apart.
          const zoneGrants = grants.filter((g) => g.zone === zone)
          for (let j = 1; j < zoneGrants.length; j++)
            expect(zoneGrants[j]!.at - zoneGrants[j - 1]!.at).toBeGreaterThanOrEqual(10_000)
        }
      })
    },
  )
})
