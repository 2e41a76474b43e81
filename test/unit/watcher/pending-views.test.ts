import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { PendingViews } from '../../../functions/watcher/pending-views.ts'

describe('pending views', () => {
  it('coalesces repeated marks of one node into one pending view, keeping the strongest cause', () => {
    const pending = new PendingViews()
    pending.mark('a', 'resync')
    pending.mark('a', 'pod')
    pending.mark('a', 'initial')
    expect(pending.take(10)).toEqual([{ node: 'a', cause: 'pod' }])
  })

  it('holds a node marked during its send until the send settles, then sends it once more', () => {
    const pending = new PendingViews()
    pending.mark('a', 'node')
    pending.mark('b', 'node')
    expect(pending.take(1)).toEqual([{ node: 'a', cause: 'node' }])
    pending.mark('a', 'pod')
    expect(pending.take(10)).toEqual([{ node: 'b', cause: 'node' }])
    pending.settle('a')
    expect(pending.take(10)).toEqual([{ node: 'a', cause: 'pod' }])
  })

  it('marks a failed send pending again', () => {
    const pending = new PendingViews()
    pending.mark('a', 'deleted')
    pending.take(1)
    pending.settle('a', 'deleted')
    expect(pending.take(1)).toEqual([{ node: 'a', cause: 'deleted' }])
  })
})

const op = fc.oneof(
  fc.record({ kind: fc.constant('mark' as const), node: fc.constantFrom('a', 'b', 'c', 'd') }),
  fc.record({ kind: fc.constant('take' as const), max: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('settle' as const), fail: fc.boolean() }),
)

describe('pending views invariants', () => {
  test.prop([fc.array(op, { maxLength: 60 })])(
    'never sends a node twice at once, and every mark is followed by a send that starts after it',
    (ops) => {
      const pending = new PendingViews()
      const inFlight: string[] = []
      const owed = new Set<string>() // marked since its last send started
      for (const o of ops) {
        if (o.kind === 'mark') {
          pending.mark(o.node, 'pod')
          owed.add(o.node)
        } else if (o.kind === 'take') {
          for (const { node } of pending.take(o.max)) {
            expect(inFlight).not.toContain(node)
            inFlight.push(node)
            owed.delete(node)
          }
        } else if (inFlight.length > 0) {
          const node = inFlight.shift() as string
          pending.settle(node, o.fail ? 'pod' : undefined)
          if (o.fail) owed.add(node)
        }
      }
      // Drain: settle everything, take until empty; every owed node must come out.
      for (const node of inFlight) pending.settle(node)
      const drained = new Set(pending.take(100).map((t) => t.node))
      for (const node of owed) expect(drained.has(node)).toBe(true)
    },
  )
})
