import { describe, expect, it } from 'vitest'
import { matchFilters } from '../../../shared/alerts/match-subscription.ts'
import type { Filters } from '../../../shared/alerts/subscription.ts'
import { matchesLabelSelector, selectorProblems } from '../../../shared/policy/label-selector.ts'
import { anAlert } from './fixtures.ts'

const podAlert = anAlert({
  kind: 'EvictionForecast',
  subject: {
    kind: 'Pod',
    name: 'web-1',
    namespace: 'shop',
    node: 'node-a',
    zone: 'eu-west-1a',
    nodeLabels: { pool: 'general' },
  },
})

describe('matchFilters', () => {
  it.each<{ name: string; filters: Filters; alert?: ReturnType<typeof anAlert>; match: boolean; reason: RegExp }>([
    { name: 'no filters match everything', filters: {}, match: true, reason: /filters match/ },
    {
      name: 'a listed severity matches',
      filters: { severities: ['warning', 'critical'] },
      match: true,
      reason: /match/,
    },
    {
      name: 'an unlisted severity is refused',
      filters: { severities: ['critical'] },
      match: false,
      reason: /severity warning not in \[critical\]/,
    },
    {
      name: 'an unlisted kind is refused',
      filters: { kinds: ['ZoneBrake'] },
      match: false,
      reason: /kind ConditionTainted/,
    },
    { name: 'a listed zone matches', filters: { zones: ['eu-west-1a'] }, match: true, reason: /match/ },
    {
      name: 'another zone is refused',
      filters: { zones: ['eu-west-1b'] },
      match: false,
      reason: /zone eu-west-1a not in/,
    },
    {
      name: 'a namespace filter refuses a node alert',
      filters: { namespaces: ['shop'] },
      match: false,
      reason: /namespace \(none\)/,
    },
    {
      name: 'a namespace filter admits its pod alert',
      filters: { namespaces: ['shop'] },
      alert: podAlert,
      match: true,
      reason: /match/,
    },
    {
      name: 'a matching nodeSelector admits',
      filters: { nodeSelector: { matchLabels: { pool: 'general' } } },
      match: true,
      reason: /match/,
    },
    {
      name: 'a non-matching nodeSelector refuses',
      filters: { nodeSelector: { matchLabels: { pool: 'gpu' } } },
      match: false,
      reason: /nodeSelector/,
    },
    {
      name: 'a nodeSelector refuses an alert without node labels',
      filters: { nodeSelector: { matchLabels: { pool: 'general' } } },
      alert: anAlert({ kind: 'ZoneBrake', subject: { kind: 'Zone', name: 'eu-west-1a', zone: 'eu-west-1a' } }),
      match: false,
      reason: /no node labels/,
    },
  ])('$name', ({ filters, alert, match, reason }) => {
    const result = matchFilters(alert ?? anAlert(), filters)
    expect(result.match).toBe(match)
    expect(result.reason).toMatch(reason)
  })
})

describe('matchesLabelSelector', () => {
  const labels = { pool: 'general', tier: 'web' }
  it.each([
    { name: 'empty selector', selector: {}, want: true },
    { name: 'matchLabels equal', selector: { matchLabels: { pool: 'general' } }, want: true },
    { name: 'matchLabels differ', selector: { matchLabels: { pool: 'gpu' } }, want: false },
    {
      name: 'In holds',
      selector: { matchExpressions: [{ key: 'tier', operator: 'In' as const, values: ['web', 'api'] }] },
      want: true,
    },
    {
      name: 'In on a missing key fails',
      selector: { matchExpressions: [{ key: 'x', operator: 'In' as const, values: ['a'] }] },
      want: false,
    },
    {
      name: 'NotIn on a missing key holds',
      selector: { matchExpressions: [{ key: 'x', operator: 'NotIn' as const, values: ['a'] }] },
      want: true,
    },
    {
      name: 'NotIn on a listed value fails',
      selector: { matchExpressions: [{ key: 'tier', operator: 'NotIn' as const, values: ['web'] }] },
      want: false,
    },
    {
      name: 'Exists holds',
      selector: { matchExpressions: [{ key: 'pool', operator: 'Exists' as const }] },
      want: true,
    },
    {
      name: 'DoesNotExist fails on a present key',
      selector: { matchExpressions: [{ key: 'pool', operator: 'DoesNotExist' as const }] },
      want: false,
    },
  ])('$name → $want', ({ selector, want }) => {
    expect(matchesLabelSelector(selector, labels)).toBe(want)
  })

  it.each([
    { name: 'In without values', req: { key: 'a', operator: 'In' as const }, path: 'matchExpressions.0.values' },
    {
      name: 'Exists with values',
      req: { key: 'a', operator: 'Exists' as const, values: ['x'] },
      path: 'matchExpressions.0.values',
    },
  ])('names the field of an invalid requirement: $name', ({ req, path }) => {
    expect(selectorProblems({ matchExpressions: [req] }).map((p) => p.path)).toEqual([path])
  })
})
