import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { generateCluster } from '../../../functions/cluster/scenario/generate.ts'
import { parseScenarioText, ScenarioError } from '../../../functions/cluster/scenario/load.ts'

describe('scenario format', () => {
  it('parses the shipped demo scenario', () => {
    const text = readFileSync(new URL('../../../functions/cluster/scenarios/demo.yaml', import.meta.url), 'utf8')
    const scenario = parseScenarioText(text)
    expect(scenario.nodes.map((n) => n.zone)).toContain('eu-west-1c')
    expect(scenario.timeline.some((s) => 'silence' in s)).toBe(true)
  })

  it.each([
    {
      name: 'a bad taint effect',
      text: 'name: x\ntimeline: [{at: 5s, addTaint: {node: a, key: k, effect: Bogus}}]',
      field: 'timeline[0].addTaint.effect',
    },
    { name: 'a bad duration', text: 'name: x\ntimeline: [{at: 2x, silence: {node: a}}]', field: 'timeline[0].at' },
    { name: 'an unknown action', text: 'name: x\ntimeline: [{at: 1, explode: {}}]', field: 'timeline[0]' },
    { name: 'an unknown node field', text: 'name: x\nnodes: [{name: a, colour: red}]', field: 'nodes[0]' },
    {
      name: 'a PDB with both budgets',
      text: 'name: x\npdbs: [{name: p, selector: {a: b}, minAvailable: 1, maxUnavailable: 1}]',
      field: 'pdbs[0]',
    },
  ])('names the field for $name', ({ text, field }) => {
    try {
      parseScenarioText(text)
      expect.unreachable('should have thrown')
    } catch (err) {
      expect(err).toBeInstanceOf(ScenarioError)
      expect((err as ScenarioError).issues.some((i) => i.startsWith(field))).toBe(true)
    }
  })

  it('parses durations in seconds, minutes and hours', () => {
    const s = parseScenarioText('name: x\ntimeline: [{at: 90, resume: {node: a}}, {at: 1h2m3s, resume: {node: a}}]')
    expect(s.timeline.map((t) => t.at)).toEqual([90_000, 3_723_000])
  })

  it('generates the requested number of pods, deterministically for a seed', () => {
    const a = generateCluster({ nodes: 20, podsPerNode: 12, zones: 3, seed: 7 })
    const b = generateCluster({ nodes: 20, podsPerNode: 12, zones: 3, seed: 7 })
    const pods = a.daemonSets.length * 20 + a.replicaSets.reduce((n, rs) => n + rs.replicas, 0)
    expect(pods).toBe(240)
    expect(a).toEqual(b)
  })
})
