import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { FormatSchema, SubscriptionSpecSchema } from '../../../shared/alerts/subscription.ts'
import { AlertKindSchema, SeveritySchema } from '../../../shared/messages/alert.ts'

type Schema = {
  properties?: Record<string, Schema>
  items?: Schema
  enum?: string[]
  default?: unknown
  pattern?: string
  required?: string[]
}
const crd = parse(readFileSync(new URL('../../../infra/k8s/alertsubscription-crd.yaml', import.meta.url), 'utf8'))
const version = crd.spec.versions[0]
const spec = version.schema.openAPIV3Schema.properties.spec as Schema
const prop = (path: string): Schema =>
  path
    .split('.')
    .reduce<Schema>((s, key) => (key === '[]' ? (s.items as Schema) : (s.properties?.[key] as Schema)), spec)

describe('the AlertSubscription CRD mirrors the zod schema', () => {
  it('names the group, kind and status subresource the alert function patches', () => {
    expect(crd.metadata.name).toBe('alertsubscriptions.nodewarden.io')
    expect(version.name).toBe('v1alpha1')
    expect(version.subresources).toEqual({ status: {} })
  })

  it.each([
    { path: 'format', values: FormatSchema.options },
    { path: 'filters.severities.[]', values: SeveritySchema.options },
    { path: 'filters.kinds.[]', values: AlertKindSchema.options },
  ])('enumerates the same $path values', ({ path, values }) => {
    expect(prop(path).enum).toEqual(values)
  })

  it('has the same defaults and required fields', () => {
    const defaults = SubscriptionSpecSchema.parse({ url: 'https://x.example.com/', secretRef: { name: 's' } })
    expect(prop('format').default).toBe(defaults.format)
    expect(prop('sendResolved').default).toBe(defaults.sendResolved)
    expect(prop('repeatInterval').default).toBe(defaults.repeatInterval)
    expect(prop('secretRef.key').default).toBe(defaults.secretRef.key)
    expect(spec.required).toEqual(['url', 'secretRef'])
  })

  it.each(['30s', '5m', '4h', '1h30m'])('accepts the duration %s in both', (d) => {
    expect(new RegExp(prop('repeatInterval').pattern ?? '').test(d)).toBe(true)
    expect(new RegExp(prop('repeatInterval').pattern ?? '').test(`${d}x`)).toBe(false)
  })
})
