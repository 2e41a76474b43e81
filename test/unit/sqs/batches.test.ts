import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import {
  delaySecondsUntil,
  MAX_REQUEST_BYTES,
  type OutgoingMessage,
  planBatches,
  toBatchEntry,
} from '../../../shared/sqs/batches.ts'

const T = new Date('2026-11-22T10:00:00Z')
const later = (ms: number) => new Date(T.getTime() + ms)
const body = (bytes: number) => 'x'.repeat(bytes)

describe('delaySecondsUntil', () => {
  it.each([
    { name: 'a time in the past is due now', notBefore: later(-5_000), want: 0 },
    { name: 'now is due now', notBefore: T, want: 0 },
    { name: 'a partial second rounds up, never early', notBefore: later(1_200), want: 2 },
    { name: 'exactly 900 s is sent as is', notBefore: later(900_000), want: 900 },
    { name: 'a wait over 900 s is capped; the consumer re-enqueues the rest', notBefore: later(3_600_000), want: 900 },
  ])('$name', ({ notBefore, want }) => {
    expect(delaySecondsUntil(notBefore, T)).toBe(want)
  })
})

describe('toBatchEntry', () => {
  it.each([
    { name: 'an empty body', message: { body: '' }, fifo: false, error: /empty body/ },
    {
      name: 'a body over 256 KiB',
      message: { body: body(MAX_REQUEST_BYTES + 1) },
      fifo: false,
      error: /over the 262144/,
    },
    { name: 'a FIFO message without a group', message: { body: 'a' }, fifo: true, error: /needs a groupId/ },
    {
      name: 'a FIFO message with a per-message delay',
      message: { body: 'a', groupId: 'g', delaySeconds: 5 },
      fifo: true,
      error: /FIFO queues reject/,
    },
  ])('rejects $name', ({ message, fifo, error }) => {
    expect(() => toBatchEntry(message, 3, fifo)).toThrow(error)
  })

  it.each([
    { name: 'clamps a long delay to 900 s', delaySeconds: 5_000, want: 900 },
    { name: 'clamps a negative delay to 0', delaySeconds: -3, want: 0 },
    { name: 'rounds a fractional delay up', delaySeconds: 1.2, want: 2 },
  ])('on a standard queue $name', ({ delaySeconds, want }) => {
    expect(toBatchEntry({ body: 'a', delaySeconds }, 0, false).entry.DelaySeconds).toBe(want)
  })

  it('sets group and deduplication ids on FIFO and hashes the body when no id is given', () => {
    const given = toBatchEntry({ body: 'a', groupId: 'node-a', deduplicationId: 'uid-1:abc' }, 0, true).entry
    const hashed = toBatchEntry({ body: 'a', groupId: 'node-a' }, 1, true).entry
    expect(given).toMatchObject({ Id: 'm0', MessageGroupId: 'node-a', MessageDeduplicationId: 'uid-1:abc' })
    expect(hashed.MessageDeduplicationId).toMatch(/^[0-9a-f]{64}$/)
    expect(toBatchEntry({ body: 'a', groupId: 'node-b' }, 2, true).entry.MessageDeduplicationId).toBe(
      hashed.MessageDeduplicationId,
    )
  })

  it('leaves group and deduplication ids off standard queues', () => {
    expect(toBatchEntry({ body: 'a', groupId: 'g', deduplicationId: 'd' }, 0, false).entry).toEqual({
      Id: 'm0',
      MessageBody: 'a',
    })
  })
})

describe('planBatches', () => {
  const sizes = (batches: ReturnType<typeof planBatches>) => batches.map((b) => b.map((p) => p.index))
  it.each([
    { name: 'no messages make no requests', messages: [] as OutgoingMessage[], want: [] as number[][] },
    {
      name: '25 small messages make 10 + 10 + 5',
      messages: Array.from({ length: 25 }, () => ({ body: 'a' })),
      want: [
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
        [10, 11, 12, 13, 14, 15, 16, 17, 18, 19],
        [20, 21, 22, 23, 24],
      ],
    },
    {
      name: 'three 100 KiB messages split by size into 2 + 1',
      messages: Array.from({ length: 3 }, () => ({ body: body(100 * 1024) })),
      want: [[0, 1], [2]],
    },
    {
      name: 'a message of exactly 256 KiB travels alone',
      messages: [{ body: 'a' }, { body: body(MAX_REQUEST_BYTES) }, { body: 'b' }],
      want: [[0], [1], [2]],
    },
  ])('$name', ({ messages, want }) => {
    expect(sizes(planBatches(messages, false))).toEqual(want)
  })

  test.prop([fc.array(fc.integer({ min: 1, max: 120 * 1024 }), { maxLength: 60 })])(
    'keeps every request within 10 entries and 256 KiB, in order, losing nothing',
    (bodySizes) => {
      const messages = bodySizes.map((n) => ({ body: body(n) }))
      const batches = planBatches(messages, false)
      for (const batch of batches) {
        expect(batch.length).toBeGreaterThan(0)
        expect(batch.length).toBeLessThanOrEqual(10)
        expect(batch.reduce((n, p) => n + p.bytes, 0)).toBeLessThanOrEqual(MAX_REQUEST_BYTES)
      }
      expect(batches.flat().map((p) => p.index)).toEqual(messages.map((_, i) => i))
    },
  )
})
