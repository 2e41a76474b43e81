import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  DEFAULT_CONDITION_RULES,
  defaultPolicy,
  formatDuration,
  loadPolicyFile,
  loadPolicyText,
  PolicyError,
  parseDuration,
  policyFromConfigMap,
} from '../../../shared/config/index.ts'

describe('defaults', () => {
  it('cover every node-problem-detector condition with a NoSchedule taint under nodewarden.io/', () => {
    const p = defaultPolicy()
    expect(p.conditionRules.map((r) => r.condition).sort()).toEqual([
      'ContainerRuntimeUnhealthy',
      'FrequentContainerdRestart',
      'FrequentDockerRestart',
      'FrequentKubeletRestart',
      'KernelDeadlock',
      'KubeletUnhealthy',
      'ReadonlyFilesystem',
    ])
    for (const r of p.conditionRules) {
      expect(r.taint?.key.startsWith('nodewarden.io/')).toBe(true)
      expect(r.taint?.effect).toBe('NoSchedule')
      expect(r.escalation.map((s) => s.action)).toEqual(['restart', 'reprovision', 'repair'])
    }
    expect(DEFAULT_CONDITION_RULES).toHaveLength(7)
  })
  it('carry the documented values', () => {
    const p = defaultPolicy()
    expect({
      healthyFor: p.conditions.healthyFor,
      staleAfter: p.conditions.staleAfter,
      zones: p.zones,
      budgets: p.budgets,
      drain: p.drain,
      tolerations: p.tolerations,
      audits: p.audits,
      ttl: p.alerts.ttl,
      kernelDeadlockFor: p.conditionRules[0]?.for,
    }).toEqual({
      healthyFor: 300_000,
      staleAfter: 900_000,
      zones: {
        nodeEvictionRate: 0.1,
        secondaryNodeEvictionRate: 0.01,
        largeClusterSizeThreshold: 50,
        unhealthyZoneThreshold: 0.55,
      },
      budgets: { maxZoneFraction: 0.2, perHour: 10 },
      drain: { deadline: 1_800_000, onDeadline: 'alert' },
      tolerations: { defaultNotReadySeconds: 300, defaultUnreachableSeconds: 300, backfill: false },
      audits: {
        criticalNamespaces: ['kube-system'],
        pendingCriticalAfter: 300_000,
        evictedPodRetention: 86_400_000,
        deleteEvictedPods: false,
      },
      ttl: 900_000,
      kernelDeadlockFor: 600_000,
    })
  })
})

describe('bad documents fail with the path of every bad field and the accepted values', () => {
  it.each([
    {
      name: 'unknown effect',
      doc: 'conditionRules:\n- {id: a, condition: X, for: 1m, taint: {key: nodewarden.io/a, effect: NoKill}}',
      issues: [
        'conditionRules.0.taint.effect: Invalid option: expected one of "NoSchedule"|"PreferNoSchedule"|"NoExecute"',
      ],
    },
    {
      name: 'taint key outside nodewarden.io/',
      doc: 'conditionRules:\n- {id: a, condition: X, for: 1m, taint: {key: example.com/a}}',
      issues: ['conditionRules.0.taint.key: must be a taint key under nodewarden.io/'],
    },
    {
      name: 'bad duration',
      doc: 'conditionRules:\n- {id: a, condition: X, for: 10q}',
      issues: ['conditionRules.0.for: invalid duration "10q": use e.g. 90s, 10m, 1h30m'],
    },
    {
      name: 'unknown escalation action',
      doc: 'conditionRules:\n- {id: a, condition: X, for: 1m, escalation: [{action: reboot, after: 1m}]}',
      issues: [
        'conditionRules.0.escalation.0.action: Invalid option: expected one of "restart"|"reprovision"|"repair"',
      ],
    },
    {
      name: 'escalation out of order',
      doc: 'conditionRules:\n- {id: a, condition: X, for: 1m, escalation: [{action: restart, after: 1h}, {action: repair, after: 1m}]}',
      issues: ['conditionRules.0.escalation: steps must have increasing `after`'],
    },
    { name: 'no rules at all', doc: 'conditionRules: []', issues: ['conditionRules: at least one condition rule'] },
    {
      name: 'duplicate rule ids',
      doc: 'conditionRules:\n- {id: a, condition: X, for: 1m}\n- {id: a, condition: Y, for: 1m}',
      issues: ['conditionRules.1.id: duplicate id a'],
    },
    {
      name: 'fraction above 1',
      doc: 'budgets: {maxZoneFraction: 1.5}',
      issues: ['budgets.maxZoneFraction: Too big: expected number to be <=1'],
    },
    { name: 'typo in a section name', doc: 'budget: {perHour: 3}', issues: ['(root): Unrecognized key: "budget"'] },
    {
      name: 'two bad fields at once',
      doc: 'drain: {onDeadline: force}\nalerts: {ttl: soon}',
      issues: [
        'drain.onDeadline: Invalid option: expected one of "alert"|"delete"',
        'alerts.ttl: invalid duration "soon": use e.g. 90s, 10m, 1h30m',
      ],
    },
  ])('$name', ({ doc, issues }) => {
    let error: unknown
    try {
      loadPolicyText(doc)
    } catch (err) {
      error = err
    }
    expect(error).toBeInstanceOf(PolicyError)
    expect((error as PolicyError).issues).toEqual(issues)
  })
  it('text that is not YAML fails naming the source', () => {
    expect(() => loadPolicyText('a: [', 'my.yaml')).toThrow(/my.yaml/)
  })
})

describe('sources', () => {
  const doc = 'conditionRules:\n- {id: custom, condition: GPUProblem, for: 2m, taint: {key: nodewarden.io/gpu}}\n'
  it('a YAML file, a JSON file and a ConfigMap give the same policy', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nodewarden-policy-'))
    writeFileSync(join(dir, 'p.yaml'), doc)
    writeFileSync(
      join(dir, 'p.json'),
      JSON.stringify({
        conditionRules: [{ id: 'custom', condition: 'GPUProblem', for: '2m', taint: { key: 'nodewarden.io/gpu' } }],
      }),
    )
    const fromYaml = await loadPolicyFile(join(dir, 'p.yaml'))
    expect(await loadPolicyFile(join(dir, 'p.json'))).toEqual(fromYaml)
    expect(policyFromConfigMap({ 'policy.yaml': doc })).toEqual(fromYaml)
    expect(fromYaml.conditionRules).toEqual([
      {
        id: 'custom',
        condition: 'GPUProblem',
        status: 'True',
        for: 120_000,
        taint: { key: 'nodewarden.io/gpu', value: '', effect: 'NoSchedule' },
        drain: false,
        severity: 'warning',
        escalation: [],
      },
    ])
  })
  it('a ConfigMap without a policy key is an error', () => {
    expect(() => policyFromConfigMap({ other: 'x' }, 'nodewarden/policy')).toThrow(
      'nodewarden/policy: no policy.yaml / policy.yml / policy.json key in data',
    )
  })
  it('a missing file is an error naming it', async () => {
    await expect(loadPolicyFile('/nonexistent/policy.yaml')).rejects.toThrow('/nonexistent/policy.yaml')
  })
})

describe('durations', () => {
  it.each([
    { text: '90s', ms: 90_000 },
    { text: '10m', ms: 600_000 },
    { text: '1h30m', ms: 5_400_000 },
    { text: '500ms', ms: 500 },
    { text: '1.5h', ms: 5_400_000 },
    { text: '10', ms: undefined },
    { text: '1d', ms: undefined },
    { text: '', ms: undefined },
  ])('$text → $ms', ({ text, ms }) => {
    expect(parseDuration(text)).toBe(ms)
  })
  it('formats back', () => {
    expect(formatDuration(5_400_000)).toBe('1h30m')
    expect(formatDuration(90_500)).toBe('1m30s500ms')
  })
})
