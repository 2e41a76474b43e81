import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { renderText } from '../../../functions/simulate/render-text.ts'
import { type SimulateReport, simulate } from '../../../functions/simulate/simulate.ts'
import { readStatsDir } from '../../../functions/simulate/stats-dir.ts'
import { defaultPolicy } from '../../../shared/config/index.ts'
import { RELIEF_RULE_ID } from '../../../shared/pressure/index.ts'

const LIST = new URL('../../fixtures/upstream/kubectl-list.json', import.meta.url).pathname
const DIR = new URL('../../fixtures/summary/cluster', import.meta.url).pathname
const list = JSON.parse(readFileSync(LIST, 'utf8')) as unknown
const AT = new Date('2026-11-22T10:30:00Z')
const GiB = 2 ** 30

async function run(dir = DIR): Promise<SimulateReport> {
  const { docs } = await readStatsDir(dir)
  return simulate(list, defaultPolicy(), AT, { stats: docs, statsSource: dir })
}
const nodeOf = (r: SimulateReport, name: string) => r.nodes?.find((n) => n.name === name)

describe('simulate --stats <dir>: kubelet Summary documents per node', () => {
  it('reports a disk-pressed node: signals, thresholds met, the kubelet ranking and the relief candidate', async () => {
    const a = nodeOf(await run(), 'node-a')
    expect(a?.signals.find((s) => s.signal === 'nodefs.available')).toMatchObject({
      available: 12 * GiB,
      capacity: 100 * GiB,
    })
    expect(a?.thresholdsMet.map((m) => `${m.signal}<${m.kind} ${m.threshold}`)).toEqual([
      'imagefs.available<hard 15%',
      'nodefs.available<relief 15%',
      'imagefs.available<relief 20%',
    ])
    // Disk usage above requests, then priority (metrics-server and web-1 at 0, web-2 at 100), then usage.
    expect(a?.ranking).toEqual([
      'kube-system/metrics-server-1',
      'shop/web-1',
      'shop/web-2',
      'kube-system/aws-node-a',
      'kube-system/kube-proxy-node-a',
    ])
    expect(a?.kubeletVictim).toBe('kube-system/metrics-server-1')
    expect(a?.reliefCandidate).toBe('shop/web-1')
  })

  it('feeds the stats to decide: the relief eviction and the at-risk warning appear with the rest', async () => {
    const r = await run()
    const relief = r.decisions.filter((d) => d.ruleId === RELIEF_RULE_ID)
    expect(relief.map((d) => (d.target.kind === 'Pod' ? `${d.target.namespace}/${d.target.name}` : ''))).toEqual([
      'shop/web-1',
    ])
    expect(r.alerts.some((a) => a.kind === 'ProtectedPodAtRisk' && a.subject.name === 'metrics-server-1')).toBe(true)
  })

  it.each([
    { node: 'node-b', says: 'node.fs not reported', signal: 'nodefs.available' },
    { node: 'node-b', says: 'node.memory.workingSetBytes not reported', signal: 'memory.available' },
    { node: 'node-c', says: `no Summary file ${DIR}/node-c.json`, signal: 'pid.available' },
  ])('says $signal on $node is unknown: $says', async ({ node, says, signal }) => {
    const n = nodeOf(await run(), node)
    expect(n?.signals.find((s) => s.signal === signal)?.unknown).toContain(says)
    expect(n?.signals.every((s) => s.unknown !== undefined)).toBe(true)
    expect(n?.reliefCandidate).toBeNull()
    expect(n?.thresholdsMet).toEqual([])
  })

  it('warns about a file that is not a Summary and treats that node as unknown', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nw-stats-'))
    writeFileSync(join(dir, 'node-a.json'), JSON.stringify({ node: { fs: {} } }))
    writeFileSync(join(dir, 'node-b.json'), '{not json')
    const read = await readStatsDir(dir)
    expect(read.warnings[0]).toContain('node-b.json is not JSON')
    const r = simulate(list, defaultPolicy(), AT, { stats: read.docs, statsSource: dir })
    expect(r.warnings.some((w) => w.includes('node-a.json is not a kubelet Summary (node.nodeName'))).toBe(true)
    expect(nodeOf(r, 'node-a')?.signals[0]?.unknown).toContain('is not a kubelet Summary')
  })

  it('leaves the report without nodes when --stats is not given', () => {
    expect(simulate(list, defaultPolicy(), AT).nodes).toBeUndefined()
  })

  it('prints a node pressure section in the text report', async () => {
    const text = renderText(await run())
    expect(text).toContain('Node pressure (kubelet stats) (3)')
    expect(text).toContain(
      'kubelet ranking (nodefs.available): kube-system/metrics-server-1, shop/web-1, shop/web-2, kube-system/aws-node-a, kube-system/kube-proxy-node-a',
    )
    expect(text).toContain('relief candidate: shop/web-1')
    expect(text).toContain(`pid.available (no Summary file ${DIR}/node-c.json)`)
  })

  it('the nodewarden bin takes --stats and prints nodes[] in the JSON', () => {
    const bin = new URL('../../../bin/nodewarden.mjs', import.meta.url).pathname
    const out = execFileSync(
      process.execPath,
      [bin, 'simulate', LIST, '--at', AT.toISOString(), '--stats', DIR, '--output', 'json'],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    )
    const json = JSON.parse(out) as SimulateReport
    expect(json.nodes?.map((n) => [n.name, n.reliefCandidate])).toEqual([
      ['node-a', 'shop/web-1'],
      ['node-b', null],
      ['node-c', null],
    ])
    expect(Object.keys(json.nodes?.[0] ?? {})).toEqual(
      expect.arrayContaining(['name', 'signals', 'thresholdsMet', 'ranking', 'reliefCandidate']),
    )
  })
})
