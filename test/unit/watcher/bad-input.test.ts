import { describe, expect, it } from 'vitest'
import { counterValue, createWatcherMetrics } from '../../../functions/watcher/metrics.ts'
import { createSink } from '../../../functions/watcher/resource-sinks.ts'
import { SlimCache } from '../../../functions/watcher/slim-cache.ts'
import { defaultConverters } from '../../../functions/watcher/slim-converters.ts'
import type { Log } from '../../../shared/log.ts'
import { at, rawNode, rawPod } from './raw-objects.ts'

type Raw = Record<string, unknown>

function harness() {
  const warnings: { message: string; fields: Record<string, unknown> }[] = []
  const log = {
    debug: () => {},
    info: () => {},
    error: () => {},
    warn: (message: string, fields: Record<string, unknown>) => warnings.push({ message, fields }),
  } as unknown as Log
  const cache = new SlimCache()
  const metrics = createWatcherMetrics()
  const marked: string[] = []
  const deps = {
    cache,
    convert: defaultConverters,
    metrics,
    log,
    isSynced: () => true,
    mark: (n: string) => marked.push(n),
  }
  return { warnings, cache, metrics, marked, node: createSink('node', deps), pod: createSink('pod', deps) }
}

const hugePod = rawPod('huge', {
  patch: (p) => {
    at(p, 'spec').containers = Array.from({ length: 400 }, (_, i) => ({
      name: `c${i}`,
      image: 'x',
      resources: { requests: { cpu: '10m', memory: '16Mi' } },
    }))
  },
})

const accepted: { name: string; kind: 'node' | 'pod'; object: Raw }[] = [
  {
    name: 'a node without status or labels',
    kind: 'node',
    object: { metadata: { name: 'bare', resourceVersion: '1' } },
  },
  {
    name: 'a node with an unknown condition type',
    kind: 'node',
    object: rawNode('odd', {
      patch: (n) => (at(n, 'status').conditions as Raw[]).push({ type: 'AcmeWidgetJammed', status: 'True' }),
    }),
  },
  {
    name: 'a pod without spec or status',
    kind: 'pod',
    object: { metadata: { name: 'p', namespace: 'default' }, spec: { nodeName: 'bare' } },
  },
  { name: 'a pod with 400 containers', kind: 'pod', object: hugePod },
]

const rejected: { name: string; kind: 'node' | 'pod'; object: Raw; logName: string }[] = [
  {
    name: 'a pod with a malformed quantity',
    kind: 'pod',
    object: rawPod('bad-qty', {
      patch: (p) =>
        ((at(p, 'spec').containers as Raw[])[0] = { name: 'app', resources: { limits: { memory: 'lots' } } }),
    }),
    logName: 'default/bad-qty',
  },
  {
    name: 'a node with a condition status outside True/False/Unknown',
    kind: 'node',
    object: rawNode('weird', {
      patch: (n) => (at(n, 'status').conditions as Raw[]).push({ type: 'Ready', status: 'Maybe' }),
    }),
    logName: 'weird',
  },
  { name: 'an object without a name', kind: 'node', object: { metadata: {} }, logName: '(unnamed)' },
]

describe('bad input', () => {
  it.each(accepted)('accepts $name', ({ kind, object }) => {
    const h = harness()
    h[kind].apply('ADDED', object, 'watch')
    expect(h.warnings).toEqual([])
    expect(h.cache.counts()[kind === 'node' ? 'nodes' : 'pods']).toBe(1)
  })

  it.each(rejected)('rejects $name, logging it once with its name', async ({ kind, object, logName }) => {
    const h = harness()
    for (let i = 0; i < 3; i++) expect(() => h[kind].apply('MODIFIED', object, 'watch')).not.toThrow()
    expect(h.warnings).toHaveLength(1)
    expect(h.warnings[0]).toMatchObject({ message: 'object rejected', fields: { resource: kind, name: logName } })
    expect(await counterValue(h.metrics.objectsRejected)).toBe(3)
  })

  it('keeps the last good state of an object whose update is unreadable, and logs again after it recovers', () => {
    const h = harness()
    const good = rawPod('flip')
    const bad = rawPod('flip', { patch: (p) => (at(p, 'spec').overhead = { cpu: '??' }) })
    h.pod.apply('ADDED', good, 'watch')
    h.pod.apply('MODIFIED', bad, 'watch')
    expect(h.cache.podsOn('node-a').map((p) => p.name)).toEqual(['flip'])
    h.pod.apply('MODIFIED', good, 'watch')
    h.pod.apply('MODIFIED', bad, 'watch')
    expect(h.warnings).toHaveLength(2)
  })

  it('counts absorbed updates and marks changed nodes', async () => {
    const h = harness()
    h.node.apply('ADDED', rawNode('node-a'), 'watch')
    h.node.apply('MODIFIED', rawNode('node-a', { rv: '101', heartbeat: '2026-11-22T10:00:10Z' }), 'watch')
    expect(h.marked).toEqual(['node-a'])
    expect(await counterValue(h.metrics.eventsAbsorbed)).toBe(1)
    expect(await counterValue(h.metrics.eventsReceived)).toBe(2)
  })
})
