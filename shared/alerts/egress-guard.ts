import ipaddr from 'ipaddr.js'
import * as z from 'zod'

/**
 * The SSRF guard. By default a webhook target must be `https` and resolve only to public unicast
 * addresses: never loopback, private, link-local (169.254.169.254, the cloud metadata endpoint),
 * unique-local (fd00:ec2::254), carrier-grade NAT (100.100.100.200), multicast or reserved ranges.
 * `allowCidrs` admits private receivers explicitly; `allowHttp` admits plain http (local demo).
 * The address check runs on the address actually connected to, at delivery time (DNS rebinding).
 */
const CidrSchema = z.string().refine((c) => {
  try {
    ipaddr.parseCIDR(c)
    return true
  } catch {
    return false
  }
}, 'not a CIDR like 10.0.0.0/8 or fd00::/8')

export const EgressPolicySchema = z.object({
  allowHttp: z.boolean().default(false),
  allowCidrs: z.array(CidrSchema).default([]),
})
export type EgressPolicy = z.infer<typeof EgressPolicySchema>
export const DEFAULT_EGRESS_POLICY: EgressPolicy = EgressPolicySchema.parse({})

export type Verdict = { allowed: true } | { allowed: false; reason: string }

/** checkTargetUrl refuses schemes the policy does not allow and IP-literal hosts it would refuse to reach. */
export function checkTargetUrl(url: URL, policy: EgressPolicy): Verdict {
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp))
    return { allowed: false, reason: `scheme ${url.protocol.replace(':', '')} not allowed (https only)` }
  if (url.username || url.password) return { allowed: false, reason: 'credentials in the URL are not allowed' }
  const host = url.hostname.replace(/^\[|\]$/g, '')
  return ipaddr.isValid(host) ? checkAddress(host, policy) : { allowed: true }
}

/** checkAddress allows a resolved address when it is public unicast or inside an allow-listed CIDR. */
export function checkAddress(address: string, policy: EgressPolicy): Verdict {
  if (!ipaddr.isValid(address)) return { allowed: false, reason: `not an IP address: ${address}` }
  const ip = ipaddr.process(address) // IPv4-mapped IPv6 becomes IPv4, so ::ffff:127.0.0.1 is loopback
  for (const cidr of policy.allowCidrs) {
    const [range, bits] = ipaddr.parseCIDR(cidr)
    if (range.kind() === ip.kind() && ip.match(range, bits)) return { allowed: true }
  }
  const range = ip.range()
  if (range === 'unicast') return { allowed: true }
  return { allowed: false, reason: `address ${ip.toString()} is ${range}, not allow-listed` }
}
