import { describe, expect, it } from 'vitest'
import {
  matchesFields,
  matchesRequirements,
  parseFieldSelector,
  parseLabelSelector,
} from '../../../functions/cluster/selectors.ts'

describe('label selectors', () => {
  it.each([
    { name: 'equality matches', selector: 'app=web', labels: { app: 'web' }, want: true },
    { name: 'double equals matches', selector: 'app==web', labels: { app: 'web' }, want: true },
    { name: 'inequality excludes the value', selector: 'app!=web', labels: { app: 'web' }, want: false },
    { name: 'inequality keeps objects without the key', selector: 'app!=web', labels: {}, want: true },
    { name: 'set membership', selector: 'tier in (a, b),app', labels: { tier: 'b', app: 'x' }, want: true },
    { name: 'notin excludes', selector: 'tier notin (a,b)', labels: { tier: 'a' }, want: false },
    { name: 'does-not-exist', selector: '!gpu', labels: { app: 'x' }, want: true },
    { name: 'prefixed keys', selector: 'kubernetes.io/os=linux', labels: { 'kubernetes.io/os': 'linux' }, want: true },
  ])('$name', ({ selector, labels, want }) => {
    expect(matchesRequirements(parseLabelSelector(selector), labels as Record<string, string>)).toBe(want)
  })

  it.each([
    { name: 'a bad key', selector: 'a b=c' },
    { name: 'a bad value', selector: 'app=we b' },
  ])('rejects $name with a 400 naming the selector', ({ selector }) => {
    expect(() => parseLabelSelector(selector)).toThrow(expect.objectContaining({ code: 400 }))
  })
})

describe('field selectors', () => {
  const pod = { metadata: { name: 'p', namespace: 'default' }, spec: { nodeName: 'n1' }, status: { phase: 'Running' } }
  it.each([
    { name: 'spec.nodeName', selector: 'spec.nodeName=n1', want: true },
    { name: 'status.phase inequality', selector: 'status.phase!=Failed,status.phase!=Succeeded', want: true },
    { name: 'metadata.name mismatch', selector: 'metadata.name=q', want: false },
    { name: 'empty value matches a missing field', selector: 'status.nominatedNodeName=', want: true },
  ])('$name', ({ selector, want }) => {
    expect(matchesFields(parseFieldSelector(selector), pod)).toBe(want)
  })
})
