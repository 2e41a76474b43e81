import { describe, expect, it } from 'vitest'
import {
  decideLeadership,
  type LeaseRecord,
  nextLeaseRecord,
  releasedLeaseRecord,
  toMicroTime,
} from '../../../functions/watcher/leadership.ts'

const t = (s: number) => new Date(Date.parse('2026-11-22T10:00:00Z') + s * 1000)
const lease = (holder: string, renewTime = '2026-11-22T10:00:00.000000Z'): LeaseRecord => ({
  holderIdentity: holder,
  leaseDurationSeconds: 15,
  renewTime,
  leaseTransitions: 3,
})

describe('leader election decisions', () => {
  it.each([
    { name: 'creates a missing lease', lease: undefined, observedAt: undefined, now: 0, action: 'create' },
    { name: 'renews its own lease', lease: lease('me'), observedAt: 0, now: 5, action: 'renew' },
    { name: 'acquires a released lease at once', lease: lease(''), observedAt: 0, now: 0, action: 'acquire' },
    { name: 'waits while the holder renews in time', lease: lease('other'), observedAt: 0, now: 14, action: 'wait' },
    {
      name: 'takes over when unchanged for the lease duration',
      lease: lease('other'),
      observedAt: 0,
      now: 15,
      action: 'acquire',
    },
    {
      name: 'counts from its own first sighting, not renewTime',
      lease: lease('other', '2020-01-01T00:00:00.000000Z'),
      observedAt: undefined,
      now: 100,
      action: 'wait',
    },
  ])('$name', ({ lease: current, observedAt, now, action }) => {
    const observed =
      observedAt === undefined || !current
        ? undefined
        : { holder: current.holderIdentity, renewTime: current.renewTime ?? '', at: t(observedAt) }
    expect(decideLeadership(current, 'me', observed, t(now)).decision.action).toBe(action)
  })

  it('restarts the expiry clock when the holder renews', () => {
    const first = decideLeadership(lease('other'), 'me', undefined, t(0))
    const renewed = lease('other', '2026-11-22T10:00:10.000000Z')
    const second = decideLeadership(renewed, 'me', first.observed, t(10))
    expect(decideLeadership(renewed, 'me', second.observed, t(20)).decision.action).toBe('wait')
    expect(decideLeadership(renewed, 'me', second.observed, t(25)).decision.action).toBe('acquire')
  })

  it('writes MicroTime with six fractional digits and counts transitions', () => {
    const now = toMicroTime(t(1))
    expect(now).toBe('2026-11-22T10:00:01.000000Z')
    expect(nextLeaseRecord('acquire', lease('other'), 'me', 15, now)).toEqual({
      holderIdentity: 'me',
      leaseDurationSeconds: 15,
      acquireTime: now,
      renewTime: now,
      leaseTransitions: 4,
    })
    expect(nextLeaseRecord('renew', lease('me'), 'me', 15, now)).toMatchObject({ renewTime: now, leaseTransitions: 3 })
    expect(releasedLeaseRecord(lease('me'), now)).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1 })
  })
})
