import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import {
  checkAddress,
  checkTargetUrl,
  DEFAULT_EGRESS_POLICY,
  EgressPolicySchema,
} from '../../../shared/alerts/egress-guard.ts'

const local = EgressPolicySchema.parse({ allowHttp: true, allowCidrs: ['127.0.0.1/32', '::1/128'] })

describe('checkAddress (the resolved address, at delivery time)', () => {
  it.each([
    { address: '8.8.8.8', allowed: true },
    { address: '2606:4700::1111', allowed: true },
    { address: '127.0.0.1', allowed: false },
    { address: '::1', allowed: false },
    { address: '::ffff:127.0.0.1', allowed: false },
    { address: '10.0.0.5', allowed: false },
    { address: '172.16.3.4', allowed: false },
    { address: '192.168.1.1', allowed: false },
    { address: '169.254.169.254', allowed: false },
    { address: 'fd00:ec2::254', allowed: false },
    { address: '100.100.100.200', allowed: false },
    { address: 'fe80::1', allowed: false },
    { address: '0.0.0.0', allowed: false },
    { address: '224.0.0.1', allowed: false },
  ])('by default $address allowed=$allowed', ({ address, allowed }) => {
    expect(checkAddress(address, DEFAULT_EGRESS_POLICY).allowed).toBe(allowed)
  })

  it.each([
    { address: '127.0.0.1', allowed: true },
    { address: '::1', allowed: true },
    { address: '127.0.0.2', allowed: false },
    { address: '10.0.0.5', allowed: false },
    { address: '169.254.169.254', allowed: false },
  ])('with the local demo allow-list $address allowed=$allowed', ({ address, allowed }) => {
    expect(checkAddress(address, local).allowed).toBe(allowed)
  })

  it('names the range it refused', () => {
    expect(checkAddress('169.254.169.254', DEFAULT_EGRESS_POLICY)).toEqual({
      allowed: false,
      reason: 'address 169.254.169.254 is linkLocal, not allow-listed',
    })
  })

  const octet = fc.integer({ min: 0, max: 255 })
  const internalIpV4 = fc.oneof(
    fc.tuple(octet, octet, octet).map(([b, c, d]) => `10.${b}.${c}.${d}`),
    fc.tuple(octet, octet, octet).map(([b, c, d]) => `127.${b}.${c}.${d}`),
    fc.tuple(fc.integer({ min: 16, max: 31 }), octet, octet).map(([b, c, d]) => `172.${b}.${c}.${d}`),
    fc.tuple(octet, octet).map(([c, d]) => `192.168.${c}.${d}`),
    fc.tuple(octet, octet).map(([c, d]) => `169.254.${c}.${d}`),
  )
  test.prop([internalIpV4])('never allows a private, loopback or link-local IPv4 address by default', (ip) => {
    expect(checkAddress(ip, DEFAULT_EGRESS_POLICY).allowed).toBe(false)
    expect(checkAddress(`::ffff:${ip}`, DEFAULT_EGRESS_POLICY).allowed).toBe(false)
  })
})

describe('checkTargetUrl', () => {
  it.each([
    { url: 'https://hooks.example.com/x', policy: DEFAULT_EGRESS_POLICY, allowed: true },
    { url: 'http://hooks.example.com/x', policy: DEFAULT_EGRESS_POLICY, allowed: false },
    { url: 'https://169.254.169.254/latest/meta-data', policy: DEFAULT_EGRESS_POLICY, allowed: false },
    { url: 'https://[::1]:8443/x', policy: DEFAULT_EGRESS_POLICY, allowed: false },
    { url: 'https://user:pw@hooks.example.com/x', policy: DEFAULT_EGRESS_POLICY, allowed: false },
    { url: 'http://127.0.0.1:9000/alerts', policy: local, allowed: true },
    { url: 'http://10.0.0.1:9000/alerts', policy: local, allowed: false },
  ])('$url allowed=$allowed', ({ url, policy, allowed }) => {
    expect(checkTargetUrl(new URL(url), policy).allowed).toBe(allowed)
  })

  it('rejects a bad CIDR in the policy, naming it', () => {
    const r = EgressPolicySchema.safeParse({ allowCidrs: ['10.0.0.0/8', 'nope'] })
    expect(r.success).toBe(false)
    expect(r.error?.issues[0]?.path).toEqual(['allowCidrs', 1])
  })
})
