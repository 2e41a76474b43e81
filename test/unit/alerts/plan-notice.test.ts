import { describe, expect, it } from 'vitest'
import { planNotice, staleNoticeIds, toNotice } from '../../../shared/alerts/plan-notice.ts'
import { anAlert, aSubscription, T0 } from './fixtures.ts'

const at = (iso: string) => new Date(iso)
const zoneBrake = anAlert({
  id: 'alert-zone-eu-west-1a',
  kind: 'ZoneBrake',
  severity: 'critical',
  subject: { kind: 'Zone', name: 'eu-west-1a', zone: 'eu-west-1a' },
  groupKey: 'zone/eu-west-1a',
})

describe('planNotice', () => {
  it.each([
    {
      name: 'sends the first firing notice',
      alert: anAlert(),
      sub: aSubscription(),
      now: '2026-11-22T10:01:00Z',
      want: { send: true, deliveryId: 'alert-node-a-kernel:firing:2026-11-22T08:00:00.000Z', reason: 'first notice' },
    },
    {
      name: 'stays quiet on a resync inside the repeat interval',
      alert: anAlert(),
      sub: aSubscription({
        notified: { 'alert-node-a-kernel': { at: '2026-11-22T10:01:00Z', kind: 'ConditionTainted' } },
      }),
      now: '2026-11-22T13:59:00Z',
      want: {
        send: false,
        reason: expect.stringMatching(/notified at 2026-11-22T10:01:00Z; repeats after 4h/),
        clearRecord: false,
      },
    },
    {
      name: 're-notifies once the repeat interval has passed, under a new delivery id',
      alert: anAlert(),
      sub: aSubscription({
        notified: { 'alert-node-a-kernel': { at: '2026-11-22T10:01:00Z', kind: 'ConditionTainted' } },
      }),
      now: '2026-11-22T14:01:00Z',
      want: {
        send: true,
        deliveryId: 'alert-node-a-kernel:firing:2026-11-22T12:00:00.000Z',
        reason: 'repeat after 4h',
      },
    },
    {
      name: 'honours a shorter configured repeat interval',
      alert: anAlert(),
      sub: aSubscription({
        spec: { repeatInterval: '30m' },
        notified: { 'alert-node-a-kernel': { at: '2026-11-22T10:01:00Z', kind: 'ConditionTainted' } },
      }),
      now: '2026-11-22T10:31:00Z',
      want: {
        send: true,
        deliveryId: 'alert-node-a-kernel:firing:2026-11-22T10:30:00.000Z',
        reason: 'repeat after 30m',
      },
    },
    {
      name: 'sends resolved to a subscription that received the firing notice',
      alert: anAlert({ status: 'resolved', endsAt: '2026-11-22T11:00:00Z' }),
      sub: aSubscription({
        notified: { 'alert-node-a-kernel': { at: '2026-11-22T10:01:00Z', kind: 'ConditionTainted' } },
      }),
      now: '2026-11-22T11:00:00Z',
      want: {
        send: true,
        deliveryId: 'alert-node-a-kernel:resolved',
        reason: 'firing notice received at 2026-11-22T10:01:00Z',
      },
    },
    {
      name: 'never sends resolved to a subscription that did not receive the firing notice',
      alert: anAlert({ status: 'resolved' }),
      sub: aSubscription(),
      now: '2026-11-22T11:00:00Z',
      want: { send: false, reason: 'never received the firing notice', clearRecord: false },
    },
    {
      name: 'never sends resolved after a firing notice that was dead-lettered, and clears the record',
      alert: anAlert({ status: 'resolved' }),
      sub: aSubscription({
        notified: { 'alert-node-a-kernel': { at: '2026-11-22T10:01:00Z', kind: 'ConditionTainted', failed: true } },
      }),
      now: '2026-11-22T11:00:00Z',
      want: { send: false, reason: 'never received the firing notice', clearRecord: true },
    },
    {
      name: 'a dead-lettered firing notice still paces repeats instead of retrying on every resync',
      alert: anAlert(),
      sub: aSubscription({
        notified: { 'alert-node-a-kernel': { at: '2026-11-22T10:01:00Z', kind: 'ConditionTainted', failed: true } },
      }),
      now: '2026-11-22T10:06:00Z',
      want: { send: false, reason: expect.stringMatching(/repeats after 4h/), clearRecord: false },
    },
    {
      name: 'does not send resolved when sendResolved is false, and clears the record',
      alert: anAlert({ status: 'resolved' }),
      sub: aSubscription({
        spec: { sendResolved: false },
        notified: { 'alert-node-a-kernel': { at: '2026-11-22T10:01:00Z', kind: 'ConditionTainted' } },
      }),
      now: '2026-11-22T11:00:00Z',
      want: { send: false, reason: 'sendResolved is false', clearRecord: true },
    },
    {
      name: 'folds a node alert decide marked while the zone brake holds, when the zone alert was received',
      alert: anAlert({ foldInto: zoneBrake.id }),
      sub: aSubscription({ notified: { [zoneBrake.id]: toNotice(zoneBrake, at(T0)) } }),
      now: '2026-11-22T10:01:00Z',
      want: {
        send: false,
        reason: `folded into zone alert ${zoneBrake.id} (notified at 2026-11-22T10:00:00.000Z) while the zone brake holds`,
        clearRecord: false,
      },
    },
    {
      name: 'sends it once decide no longer marks it (the brake is over), however recent the zone notice',
      alert: anAlert(),
      sub: aSubscription({ notified: { [zoneBrake.id]: toNotice(zoneBrake, at(T0)) } }),
      now: '2026-11-22T10:01:00Z',
      want: { send: true, deliveryId: 'alert-node-a-kernel:firing:2026-11-22T08:00:00.000Z', reason: 'first notice' },
    },
    {
      name: 'sends a marked alert to a subscription that never received the zone alert (nothing speaks for it)',
      alert: anAlert({ foldInto: zoneBrake.id }),
      sub: aSubscription(),
      now: '2026-11-22T10:01:00Z',
      want: { send: true, deliveryId: 'alert-node-a-kernel:firing:2026-11-22T08:00:00.000Z', reason: 'first notice' },
    },
    {
      name: 'sends a marked alert when the zone alert was dead-lettered',
      alert: anAlert({ foldInto: zoneBrake.id }),
      sub: aSubscription({ notified: { [zoneBrake.id]: toNotice(zoneBrake, at(T0), true) } }),
      now: '2026-11-22T10:01:00Z',
      want: { send: true, deliveryId: 'alert-node-a-kernel:firing:2026-11-22T08:00:00.000Z', reason: 'first notice' },
    },
    {
      name: 'sends the zone alert itself',
      alert: zoneBrake,
      sub: aSubscription(),
      now: '2026-11-22T10:01:00Z',
      want: { send: true, deliveryId: 'alert-zone-eu-west-1a:firing:2026-11-22T08:00:00.000Z', reason: 'first notice' },
    },
    {
      name: 'skips an alert the filters refuse, with their reason',
      alert: anAlert(),
      sub: aSubscription({ spec: { filters: { severities: ['critical'] } } }),
      now: '2026-11-22T10:01:00Z',
      want: { send: false, reason: 'severity warning not in [critical]', clearRecord: false },
    },
  ])('$name', ({ alert, sub, now, want }) => {
    expect(planNotice(alert, sub, at(now))).toEqual(want)
  })

  describe('with a claim (a notice under way)', () => {
    const claimed = aSubscription({
      notified: { 'alert-node-a-kernel': { at: '2026-11-22T10:01:00Z', kind: 'ConditionTainted', pending: 'msg-1' } },
    })
    it('skips a copy another message claimed inside the repeat interval', () => {
      expect(planNotice(anAlert(), claimed, at('2026-11-22T10:01:01Z'), 'msg-2')).toEqual({
        send: false,
        reason: 'notice under way since 2026-11-22T10:01:00Z; repeats after 4h',
        clearRecord: false,
      })
    })
    it('plans its own claim again, under the claim’s delivery id, when SQS redelivers the message', () => {
      expect(planNotice(anAlert(), claimed, at('2026-11-22T12:00:05Z'), 'msg-1')).toEqual({
        send: true,
        deliveryId: 'alert-node-a-kernel:firing:2026-11-22T08:00:00.000Z',
        reason: 'claimed by this message before it was redelivered',
      })
    })
    it('sends no resolved notice for a firing one still under way, and clears the claim', () => {
      expect(planNotice(anAlert({ status: 'resolved' }), claimed, at('2026-11-22T10:02:00Z'), 'msg-3')).toEqual({
        send: false,
        reason: 'never received the firing notice',
        clearRecord: true,
      })
    })
  })

  it('records the zone of a zone alert so later node alerts of that zone fold', () => {
    expect(toNotice(zoneBrake, at(T0))).toEqual({
      at: '2026-11-22T10:00:00.000Z',
      kind: 'ZoneBrake',
      zone: 'eu-west-1a',
    })
  })
})

describe('staleNoticeIds', () => {
  it('lists only records unrefreshed for longer than repeatInterval plus an hour', () => {
    const notice = (at: string) => ({ at, kind: 'MissingDefaultTolerations' as const })
    const sub = aSubscription({
      spec: { repeatInterval: '4h' },
      notified: {
        fresh: notice('2026-11-22T09:00:00Z'),
        'within-margin': notice('2026-11-22T05:30:00Z'),
        lapsed: notice('2026-11-22T04:59:00Z'),
        ancient: notice('2026-10-01T00:00:00Z'),
      },
    })
    expect(staleNoticeIds(sub, at(T0)).sort()).toEqual(['ancient', 'lapsed'])
  })
})
