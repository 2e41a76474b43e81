import { createHash } from 'node:crypto'
import type { SendMessageBatchRequestEntry } from '@aws-sdk/client-sqs'

/** What a producer hands the transport; the transport turns it into SendMessageBatch entries. */
export type OutgoingMessage = {
  body: string
  /** FIFO queues only (required there): messages of one group are delivered in order. */
  groupId?: string
  /** FIFO queues only: defaults to a SHA-256 of the body (content-based deduplication done client-side). */
  deduplicationId?: string
  /** Standard queues only: clamped to 0..900 s. Longer waits re-enqueue, see `delaySecondsUntil`. */
  delaySeconds?: number
}

export const MAX_BATCH_ENTRIES = 10
/** SQS caps a message, and the sum of a batch request's messages, at 256 KiB. */
export const MAX_REQUEST_BYTES = 262_144
export const MAX_DELAY_SECONDS = 900

/** A planned entry keeps the index of its message in the caller's array, so errors point back to it. */
export type PlannedEntry = { index: number; bytes: number; entry: SendMessageBatchRequestEntry }

/**
 * delaySecondsUntil is the DelaySeconds that makes a message due at `notBefore`, clamped to SQS's
 * 0..900 s. A wait over 900 s is sent as 900: the consumer sees the message early, finds its
 * `notBefore` still ahead, and re-enqueues it with the rest of the wait (steps of ≤ 900 s).
 */
export function delaySecondsUntil(notBefore: Date, now: Date): number {
  const seconds = Math.ceil((notBefore.getTime() - now.getTime()) / 1000)
  return Math.min(MAX_DELAY_SECONDS, Math.max(0, seconds))
}

/** toBatchEntry validates one message for a FIFO or standard queue and renders its batch entry. */
export function toBatchEntry(message: OutgoingMessage, index: number, fifo: boolean): PlannedEntry {
  const bytes = Buffer.byteLength(message.body, 'utf8')
  if (bytes === 0) throw new Error(`message ${index} has an empty body`)
  if (bytes > MAX_REQUEST_BYTES)
    throw new Error(`message ${index} is ${bytes} bytes, over the ${MAX_REQUEST_BYTES}-byte SQS limit`)
  const entry: SendMessageBatchRequestEntry = { Id: `m${index}`, MessageBody: message.body }
  if (fifo) {
    if (!message.groupId) throw new Error(`message ${index} needs a groupId on a FIFO queue`)
    if (message.delaySeconds)
      throw new Error(`message ${index} sets delaySeconds, which FIFO queues reject per message`)
    entry.MessageGroupId = message.groupId
    entry.MessageDeduplicationId = message.deduplicationId ?? createHash('sha256').update(message.body).digest('hex')
  } else if (message.delaySeconds !== undefined) {
    entry.DelaySeconds = Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil(message.delaySeconds)))
  }
  return { index, bytes, entry }
}

/** planBatches splits messages, in order, into requests of ≤ 10 entries and ≤ 256 KiB of bodies. */
export function planBatches(messages: readonly OutgoingMessage[], fifo: boolean): PlannedEntry[][] {
  const batches: PlannedEntry[][] = []
  let current: PlannedEntry[] = []
  let currentBytes = 0
  messages.forEach((message, index) => {
    const planned = toBatchEntry(message, index, fifo)
    if (current.length === MAX_BATCH_ENTRIES || currentBytes + planned.bytes > MAX_REQUEST_BYTES) {
      batches.push(current)
      current = []
      currentBytes = 0
    }
    current.push(planned)
    currentBytes += planned.bytes
  })
  if (current.length > 0) batches.push(current)
  return batches
}
