import type { ViewCause } from './assemble-node-view.ts'

/** How much a cause says: a deletion or a real change outranks a resync or an initial send of the same node. */
const CAUSE_WEIGHT: Record<ViewCause, number> = {
  resync: 0,
  initial: 1,
  relist: 2,
  pdb: 3,
  pod: 3,
  node: 3,
  deleted: 4,
}

/**
 * PendingViews holds at most one pending view per node. Marking a node that is already pending
 * only upgrades its cause; marking a node whose send is in flight queues one more send for after
 * it. The view itself is assembled when taken, so under backpressure a node catches up with its
 * latest state instead of replaying every step, and nothing is dropped. Order is first-marked,
 * first-taken, and a node is never in two sends at once (per-node order in the FIFO queue).
 */
export class PendingViews {
  private readonly pending = new Map<string, ViewCause>()
  private readonly inFlight = new Set<string>()

  /** mark records that a node's view must be sent. */
  mark(node: string, cause: ViewCause): void {
    const current = this.pending.get(node)
    if (current === undefined || CAUSE_WEIGHT[cause] > CAUSE_WEIGHT[current]) this.pending.set(node, cause)
  }

  /** take removes up to `max` pending nodes that are not in flight and marks them in flight. */
  take(max: number): { node: string; cause: ViewCause }[] {
    const out: { node: string; cause: ViewCause }[] = []
    for (const [node, cause] of this.pending) {
      if (out.length >= max) break
      if (this.inFlight.has(node)) continue
      out.push({ node, cause })
    }
    for (const { node } of out) {
      this.pending.delete(node)
      this.inFlight.add(node)
    }
    return out
  }

  /** settle ends a node's send; a failed one is marked again (its latest state will be sent). */
  settle(node: string, failedCause?: ViewCause): void {
    this.inFlight.delete(node)
    if (failedCause !== undefined) this.mark(node, failedCause)
  }

  /** ready counts the pending nodes that could be taken now. */
  ready(): number {
    let n = 0
    for (const node of this.pending.keys()) if (!this.inFlight.has(node)) n++
    return n
  }

  get size(): number {
    return this.pending.size
  }

  get inFlightCount(): number {
    return this.inFlight.size
  }
}
