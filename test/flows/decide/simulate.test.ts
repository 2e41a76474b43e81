import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { renderText } from '../../../functions/simulate/render-text.ts'
import { simulate } from '../../../functions/simulate/simulate.ts'
import { defaultPolicy } from '../../../shared/config/index.ts'
import { AlertSchema, DecisionSchema } from '../../../shared/messages/index.ts'

const FIXTURE = new URL('../../fixtures/upstream/kubectl-list.json', import.meta.url)
const list = JSON.parse(readFileSync(FIXTURE, 'utf8')) as unknown
const AT = new Date('2026-11-22T10:30:00Z')

describe('simulate on a kubectl get nodes,pods,pdb -A -o json List', () => {
  const report = simulate(list, defaultPolicy(), AT)

  it('reports zones with upstream states and counts', () => {
    expect(report.zones.map(({ zone, state, ready, notReady }) => ({ zone, state, ready, notReady }))).toEqual([
      { zone: 'eu-west-1:\u0000:eu-west-1a', state: 'Normal', ready: 1, notReady: 1 },
      { zone: 'eu-west-1:\u0000:eu-west-1b', state: 'Normal', ready: 1, notReady: 0 },
    ])
  })

  it('reports each pod with QoS, protection reasons and its eviction forecast', () => {
    const row = (name: string) => report.pods.find((p) => p.name === name)
    expect(row('batch-1')).toEqual({
      namespace: 'legacy',
      name: 'batch-1',
      node: 'node-b',
      qosClass: 'Burstable',
      protected: false,
      protectedReasons: [],
      evictAt: '2026-11-22T10:30:00.000Z',
      reason: 'does not tolerate node.kubernetes.io/unreachable:NoExecute',
    })
    expect(row('kube-proxy-node-a')).toMatchObject({
      protected: true,
      protectedReasons: [
        'priority 2000001000 ≥ 2000000000 (system critical)',
        'static pod (config.source file)',
        'mirror pod',
      ],
      evictAt: null,
    })
    expect(row('web-1')).toMatchObject({
      qosClass: 'BestEffort',
      evictAt: null,
      reason: 'no NoExecute taints on the node',
    })
    expect(row('csi-controller')).toMatchObject({ node: null, reason: 'not scheduled to a node', protected: true })
  })

  it('lists decisions and alerts that validate against their schemas, and the taints to add', () => {
    expect(report.decisions.map((d) => [d.action, d.target.name])).toEqual([
      ['evict', 'web-1'],
      ['evict', 'web-2'],
      ['taint', 'node-c'],
    ])
    for (const d of report.decisions) DecisionSchema.parse(d)
    for (const a of report.alerts) AlertSchema.parse(a)
    expect(report.taints).toEqual([
      expect.objectContaining({
        node: 'node-c',
        action: 'taint',
        key: 'nodewarden.io/frequent-kubelet-restart',
        notBefore: '2026-11-22T10:50:00.000Z',
      }),
    ])
    expect(report.alerts.map((a) => a.kind).sort()).toEqual([
      'ConditionTainted',
      'CriticalPodPending',
      'CriticalWithoutSystemPriority',
      'EvictedPodsCleanup',
      'EvictionForecast',
      'MissingDefaultTolerations',
      'ProtectedPodAtRisk',
      'RemediationEscalation',
    ])
  })

  it('warns about the unknown kind and the malformed quantity, naming them', () => {
    expect(report.warnings).toEqual([
      'item 13 rejected: pod shop/bad-quantity: spec.containers[0].resources.requests.memory: not a Kubernetes quantity: "12XB"',
      'item 14 (ConfigMap shop/settings): unknown kind ConfigMap, skipped',
    ])
  })

  it('renders a readable text report', () => {
    const text = renderText(report)
    expect(text).toContain('Zones (2)')
    expect(text).toContain(
      '+ node-c nodewarden.io/frequent-kubelet-restart:NoSchedule not before 2026-11-22T10:50:00.000Z',
    )
    expect(text).toContain(
      'kube-system/metrics-server-1 (node-a): scheduler.alpha.kubernetes.io/not-evicted-pod annotation in kube-system',
    )
  })

  it('the nodewarden bin runs simulate with --output json and --at', () => {
    const bin = new URL('../../../bin/nodewarden.mjs', import.meta.url).pathname
    const out = execFileSync(
      process.execPath,
      [bin, 'simulate', FIXTURE.pathname, '--at', AT.toISOString(), '--output', 'json'],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    )
    const json = JSON.parse(out) as typeof report
    expect(json.decisions.map((d) => d.id)).toEqual(report.decisions.map((d) => d.id))
    expect(Object.keys(json)).toEqual(expect.arrayContaining(['zones', 'pods', 'decisions', 'alerts']))
  })

  it('the bin fails with exit 1 and a message on a file that is not a List', () => {
    const bin = new URL('../../../bin/nodewarden.mjs', import.meta.url).pathname
    let status = 0
    let stderr = ''
    try {
      execFileSync(process.execPath, [bin, 'simulate', new URL('../../../package.json', import.meta.url).pathname], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      })
    } catch (err) {
      status = (err as { status: number }).status
      stderr = (err as { stderr: string }).stderr
    }
    expect(status).toBe(1)
    expect(stderr).toContain('not a v1 List')
  })
})
