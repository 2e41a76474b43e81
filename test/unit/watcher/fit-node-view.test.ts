import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  dropOrder,
  fitNodeView,
  NODE_VIEW_TRIM_RULE,
  ViewTooLargeError,
} from '../../../functions/watcher/fit-node-view.ts'
import { parseEnvelope, SQS_MAX_BYTES, serializeEnvelope, toEnvelope } from '../../../shared/messages/envelope.ts'
import type { NodeView, SlimPod } from '../../../shared/messages/index.ts'
import { aNodeView, aPod } from '../../fixtures/builders.ts'

const render = (view: NodeView) =>
  serializeEnvelope(
    toEnvelope('io.nodewarden.nodeview.v1', view, { source: 'test', time: new Date('2026-11-22T10:00:00Z') }),
  )

const noise = (seed: string) => createHash('sha256').update(seed).digest('hex')

/** A pod with `containers` containers, each with hash-like names (so gzip cannot hide the size). */
function hugePod(name: string, containers: number, phase: SlimPod['phase'] = 'Running'): SlimPod {
  return aPod({
    name,
    phase,
    containers: Array.from({ length: containers }, (_, i) => ({
      name: `${name}-${noise(`${name}/${i}`)}`,
      requests: { cpu: `${i + 1}m`, memory: `${i + 17}Mi` },
      limits: { memory: `${i * 3 + 101}Mi` },
    })),
    labels: Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`l${i}-${name}`, noise(`${name}#${i}`).slice(0, 60)]),
    ),
  })
}

describe('NodeView size rule', () => {
  it('leaves a view under the limit untouched', () => {
    const view = aNodeView()
    const fitted = fitNodeView(view, render)
    expect(fitted).toMatchObject({ droppedPods: 0, view })
  })

  it('drops the fewest pods, terminal then largest, and says so in the view', () => {
    const pods = [
      ...Array.from({ length: 40 }, (_, i) => hugePod(`big-${i}`, 300)),
      hugePod('done', 5, 'Succeeded'),
      aPod({ name: 'small' }),
    ]
    const view = aNodeView({ pods })
    expect(Buffer.byteLength(render(view))).toBeGreaterThan(SQS_MAX_BYTES)
    const fitted = fitNodeView(view, render)
    expect(fitted.bytes).toBeLessThanOrEqual(SQS_MAX_BYTES)
    const kept = new Set(fitted.view.pods.map((p) => p.name))
    expect(kept.has('done')).toBe(false)
    expect(kept.has('small')).toBe(true)
    expect(fitted.view.truncated).toEqual({ droppedPods: pods.length - kept.size, rule: NODE_VIEW_TRIM_RULE })
    // The fewest: keeping one more pod (the next in drop order) would not fit.
    const order = dropOrder(pods)
    const oneMore = { ...fitted.view, pods: [...fitted.view.pods, order[fitted.droppedPods - 1] as SlimPod] }
    expect(Buffer.byteLength(render(oneMore))).toBeGreaterThan(SQS_MAX_BYTES)
    expect(parseEnvelope(fitted.body, 'io.nodewarden.nodeview.v1').data.truncated?.droppedPods).toBe(fitted.droppedPods)
  })

  it('orders drops Succeeded, Failed, then largest first with ties by name', () => {
    const pods = [
      aPod({ name: 'b' }),
      aPod({ name: 'a' }),
      aPod({ name: 'f', phase: 'Failed' }),
      hugePod('h', 3),
      aPod({ name: 's', phase: 'Succeeded' }),
    ]
    expect(dropOrder(pods).map((p) => p.name)).toEqual(['s', 'f', 'h', 'a', 'b'])
  })

  it('throws ViewTooLargeError when even the node alone is over the limit', () => {
    expect(() => fitNodeView(aNodeView(), render, 500)).toThrow(ViewTooLargeError)
  })
})
