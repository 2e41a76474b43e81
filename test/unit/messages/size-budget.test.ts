import { describe, expect, it } from 'vitest'
import {
  COMPRESS_ABOVE_BYTES,
  parseEnvelope,
  SQS_MAX_BYTES,
  serializeEnvelope,
  toEnvelope,
} from '../../../shared/messages/index.ts'
import { aNode, aNodeView, T0 } from '../../fixtures/builders.ts'
import { aRealisticPod } from '../../fixtures/messages/realistic-pod.ts'

/** Budgets stated in the README (measured with the realistic pod fixture). */
const PLAIN_BYTES_PER_POD = 1500
const COMPRESSED_BYTES_PER_POD = 150

function body(pods: number): string {
  const node = aNode({ name: 'ip-10-0-12-34.eu-west-1.compute.internal' })
  const view = aNodeView({
    node,
    pods: Array.from({ length: pods }, (_, i) => aRealisticPod(i, node.name)),
    zones: ['a', 'b', 'c'].map((z) => ({
      zone: `eu-west-1:\u0000:eu-west-1${z}`,
      ready: 1600,
      notReady: 2,
      total: 1602,
    })),
  })
  const env = toEnvelope('io.nodewarden.nodeview.v1', view, { source: 'nodewarden/watcher', time: new Date(T0) })
  return serializeEnvelope(env)
}
const bytes = (s: string) => Buffer.byteLength(s)

describe('NodeView size', () => {
  it('keeps a node with 250 realistic pods under the 256 KiB SQS message limit', () => {
    const b = body(250)
    expect(bytes(b)).toBeLessThan(SQS_MAX_BYTES)
    expect(parseEnvelope(b, 'io.nodewarden.nodeview.v1').data.pods).toHaveLength(250)
  })

  it('sends small views as plain JSON and large ones gzip-compressed in data_base64', () => {
    expect(JSON.parse(body(20))).toHaveProperty('data.node.name')
    const big = JSON.parse(body(250))
    expect(big.nwencoding).toBe('gzip')
    expect(big).not.toHaveProperty('data')
  })

  it('spends at most the stated per-pod byte budgets, plain and compressed', () => {
    const plainPerPod = (bytes(body(80)) - bytes(body(0))) / 80
    expect(bytes(body(80))).toBeLessThanOrEqual(COMPRESS_ABOVE_BYTES)
    expect(plainPerPod).toBeLessThanOrEqual(PLAIN_BYTES_PER_POD)
    const compressedPerPod = bytes(body(1000)) / 1000
    expect(compressedPerPod).toBeLessThanOrEqual(COMPRESSED_BYTES_PER_POD)
  })

  it('rejects corrupt compressed data naming the field', () => {
    const big = JSON.parse(body(250))
    big.data_base64 = 'bm90IGd6aXA='
    expect(() => parseEnvelope(JSON.stringify(big))).toThrow(/data_base64/)
  })
})
