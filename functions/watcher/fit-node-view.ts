import { SQS_MAX_BYTES } from '../../shared/messages/envelope.ts'
import type { NodeView, SlimPod } from '../../shared/messages/index.ts'

/** The rule, as carried in `truncated.rule` and stated in the README (NodeView size rule). */
export const NODE_VIEW_TRIM_RULE =
  'over the SQS limit: node, PDBs and zones kept whole; pods dropped Succeeded first, then Failed, then largest first (ties by namespace/name) until the body fits'

export type FittedView = { view: NodeView; body: string; bytes: number; droppedPods: number }

/** ViewTooLargeError: even without pods the view does not fit; the caller logs it and counts it, never silently. */
export class ViewTooLargeError extends Error {
  override name = 'ViewTooLargeError'
}

/**
 * fitNodeView renders a view into a queue body of at most `maxBytes`. A view over the limit keeps
 * its node, PDBs and zone summaries and drops the fewest pods, in drop order (terminal pods first,
 * since policy only cleans them up; then the largest, which are what blew the budget), found by
 * binary search; the result says how many were dropped in `truncated`.
 */
export function fitNodeView(view: NodeView, render: (v: NodeView) => string, maxBytes = SQS_MAX_BYTES): FittedView {
  const whole = render(view)
  const wholeBytes = Buffer.byteLength(whole)
  if (wholeBytes <= maxBytes) return { view, body: whole, bytes: wholeBytes, droppedPods: 0 }
  const order = dropOrder(view.pods)
  const attempt = (k: number) => {
    const dropped = new Set(order.slice(0, k))
    const trimmed: NodeView = {
      ...view,
      pods: view.pods.filter((p) => !dropped.has(p)),
      truncated: { droppedPods: k, rule: NODE_VIEW_TRIM_RULE },
    }
    const body = render(trimmed)
    return { view: trimmed, body, bytes: Buffer.byteLength(body), droppedPods: k }
  }
  let best = attempt(order.length)
  if (best.bytes > maxBytes) {
    throw new ViewTooLargeError(
      `view of node ${view.node.name} is ${best.bytes} bytes without any pod, over ${maxBytes}`,
    )
  }
  let lo = 0
  let hi = order.length
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2)
    const fitted = attempt(mid)
    if (fitted.bytes <= maxBytes) {
      best = fitted
      hi = mid
    } else lo = mid
  }
  return best
}

/** dropOrder ranks pods first-to-drop: Succeeded, Failed, then the rest; within a rank largest first, then namespace/name. */
export function dropOrder(pods: readonly SlimPod[]): SlimPod[] {
  const rank = (p: SlimPod) => (p.phase === 'Succeeded' ? 0 : p.phase === 'Failed' ? 1 : 2)
  const sized = pods.map((p) => ({ p, rank: rank(p), size: JSON.stringify(p).length, id: `${p.namespace}/${p.name}` }))
  sized.sort((a, b) => a.rank - b.rank || b.size - a.size || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  return sized.map((s) => s.p)
}
