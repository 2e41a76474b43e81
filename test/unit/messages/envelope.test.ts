import { describe, expect, it } from 'vitest'
import { MessageError, parseEnvelope, serializeEnvelope, toEnvelope } from '../../../shared/messages/index.ts'
import { aNodeView, T0 } from '../../fixtures/builders.ts'

const opts = { source: 'nodewarden/test', time: new Date(T0) }

describe('message envelopes', () => {
  it('round-trips a NodeView through a CloudEvents 1.0 structured envelope', () => {
    const env = toEnvelope('io.nodewarden.nodeview.v1', aNodeView(), opts)
    expect(env.specversion).toBe('1.0')
    expect(env.type).toBe('io.nodewarden.nodeview.v1')
    const back = parseEnvelope(serializeEnvelope(env), 'io.nodewarden.nodeview.v1')
    expect(back.data).toEqual(env.data)
  })

  it('gives the same id to the same content and a different id to different content', () => {
    const a = toEnvelope('io.nodewarden.nodeview.v1', aNodeView(), opts)
    const b = toEnvelope('io.nodewarden.nodeview.v1', aNodeView(), opts)
    const c = toEnvelope('io.nodewarden.nodeview.v1', aNodeView({ cause: 'resync' }), opts)
    expect(a.id).toBe(b.id)
    expect(a.id).not.toBe(c.id)
  })

  it('refuses to produce an invalid message, naming the field', () => {
    const view = aNodeView()
    const bad = { ...view, node: { ...view.node, taints: [{ key: 'k', effect: 'Sometimes' }] } }
    expect(() => toEnvelope('io.nodewarden.nodeview.v1', bad as never, opts)).toThrow(/data\.node\.taints\.0\.effect/)
  })

  it.each([
    ['malformed JSON', '{"specversion":', /not JSON/],
    [
      'a wrong specversion',
      JSON.stringify({ specversion: '0.3', id: 'x', source: 's', type: 'io.nodewarden.alert.v1', data: {} }),
      /specversion/,
    ],
    [
      'an unknown type',
      JSON.stringify({ specversion: '1.0', id: 'x', source: 's', type: 'io.nodewarden.nodeview.v2', data: {} }),
      /type/,
    ],
    [
      'a body failing its schema',
      JSON.stringify({
        specversion: '1.0',
        id: 'x',
        source: 's',
        type: 'io.nodewarden.decision.v1',
        data: { action: 'taint' },
      }),
      /data\.(id|ruleId|target)/,
    ],
  ])('rejects %s with a MessageError that names the problem', (_name, body, pattern) => {
    expect(() => parseEnvelope(body)).toThrow(MessageError)
    expect(() => parseEnvelope(body)).toThrow(pattern)
  })

  it('rejects a valid message of another type when a type is expected', () => {
    const body = serializeEnvelope(toEnvelope('io.nodewarden.nodeview.v1', aNodeView(), opts))
    expect(() => parseEnvelope(body, 'io.nodewarden.decision.v1')).toThrow(/unexpected type/)
  })
})
