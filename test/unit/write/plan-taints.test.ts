import { describe, expect, it } from 'vitest'
import {
  NODE_TAINTS_ANNOTATION,
  planAddTaint,
  planRemoveTaint,
  planTaintRecords,
  readTaintRecords,
} from '../../../functions/write/plan-taints.ts'
import type { Taint } from '../../../shared/messages/index.ts'

const NOW = new Date('2026-11-22T10:00:00.123Z')
const notReady: Taint = { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute', timeAdded: '2026-11-22T09:00:00Z' }
const deadlock: Taint = { key: 'nodewarden.io/kernel-deadlock', value: 'true', effect: 'NoExecute' }

describe('planAddTaint', () => {
  it.each([
    {
      name: 'appends a NoExecute taint with timeAdded, keeping the others in order',
      current: [notReady],
      taint: deadlock,
      want: { changed: true, taints: [notReady, { ...deadlock, timeAdded: '2026-11-22T10:00:00Z' }] },
    },
    {
      name: 'appends a NoSchedule taint without timeAdded',
      current: [],
      taint: { key: 'nodewarden.io/ro-fs', effect: 'NoSchedule' } as Taint,
      want: { changed: true, taints: [{ key: 'nodewarden.io/ro-fs', effect: 'NoSchedule' }] },
    },
    {
      name: 'is a no-op when the same key, effect and value are already set',
      current: [notReady, { ...deadlock, timeAdded: '2026-11-22T08:00:00Z' }],
      taint: deadlock,
      want: { changed: false },
    },
    {
      name: 'treats a missing value and an empty value as the same',
      current: [{ key: 'nodewarden.io/x', value: '', effect: 'NoSchedule' } as Taint],
      taint: { key: 'nodewarden.io/x', effect: 'NoSchedule' } as Taint,
      want: { changed: false },
    },
    {
      name: 'replaces the value of the same key and effect in place',
      current: [{ ...deadlock, value: 'old' }, notReady],
      taint: deadlock,
      want: { changed: true, taints: [{ ...deadlock, timeAdded: '2026-11-22T10:00:00Z' }, notReady] },
    },
    {
      name: 'adds the same key with another effect as a separate taint',
      current: [{ key: deadlock.key, effect: 'NoSchedule' } as Taint],
      taint: deadlock,
      want: {
        changed: true,
        taints: [
          { key: deadlock.key, effect: 'NoSchedule' },
          { ...deadlock, timeAdded: '2026-11-22T10:00:00Z' },
        ],
      },
    },
  ])('$name', ({ current, taint, want }) => {
    expect(planAddTaint(current, taint, NOW)).toMatchObject(want)
  })
})

describe('planRemoveTaint', () => {
  it.each([
    {
      name: 'removes only the taint with that key and effect',
      current: [notReady, deadlock, { key: deadlock.key, effect: 'NoSchedule' } as Taint],
      want: { changed: true, taints: [notReady, { key: deadlock.key, effect: 'NoSchedule' }] },
    },
    { name: 'is a no-op when the taint is already absent', current: [notReady], want: { changed: false } },
    {
      name: 'is a no-op when only another effect of the key is present',
      current: [{ key: deadlock.key, effect: 'NoSchedule' } as Taint],
      want: { changed: false },
    },
  ])('$name', ({ current, want }) => {
    expect(planRemoveTaint(current, deadlock)).toMatchObject(want)
  })
})

describe('taint records annotation', () => {
  const record = {
    at: '2026-11-22T10:00:00Z',
    rule: 'kernel-deadlock',
    reason: 'KernelDeadlock=True for 300s',
    decision: 'd-1',
  }

  it('records when, which rule and why per taint, beside other records', () => {
    const first = planTaintRecords({}, deadlock, record)
    const second = planTaintRecords(
      { [NODE_TAINTS_ANNOTATION]: first ?? '' },
      { key: 'nodewarden.io/ro', effect: 'NoSchedule' },
      record,
    )
    expect(readTaintRecords({ [NODE_TAINTS_ANNOTATION]: second ?? '' })).toEqual({
      'nodewarden.io/kernel-deadlock:NoExecute': record,
      'nodewarden.io/ro:NoSchedule': record,
    })
  })

  it('deletes the annotation (null) when the last record is cleared', () => {
    const annotations = { [NODE_TAINTS_ANNOTATION]: planTaintRecords({}, deadlock, record) ?? '' }
    expect(planTaintRecords(annotations, deadlock, null)).toBeNull()
  })

  it.each([
    { name: 'not JSON', value: '{oops' },
    { name: 'an array', value: '[1]' },
  ])('reads an unreadable annotation ($name) as empty', ({ value }) => {
    expect(readTaintRecords({ [NODE_TAINTS_ANNOTATION]: value })).toEqual({})
  })
})
