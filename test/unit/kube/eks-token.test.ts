import { describe, expect, it } from 'vitest'
import { buildEksToken, EKS_TOKEN_PREFIX, makeEksTokenSource } from '../../../shared/kube/eks-token.ts'

const credentials = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  sessionToken: 'session-token-example',
}
const T = new Date('2026-11-22T10:00:00Z')

// Golden values produced by botocore 1.43.11's presigner (what `aws eks get-token` uses) with the
// same credentials, region, cluster and a frozen clock: an independent known-good signature.
const BOTOCORE_SIGNATURE = '01cd6903cb037917b987a7562e38440b607e437af0303dffd7780ea8917f29f4'

function decode(token: string): URL {
  expect(token.startsWith(EKS_TOKEN_PREFIX)).toBe(true)
  const body = token.slice(EKS_TOKEN_PREFIX.length)
  expect(body).not.toContain('=')
  return new URL(Buffer.from(body, 'base64url').toString('utf8'))
}

describe('buildEksToken', () => {
  it('matches the signature botocore computes for the same request', async () => {
    const url = decode(await buildEksToken({ clusterName: 'prod-cluster', region: 'eu-west-1', credentials, now: T }))
    expect(url.searchParams.get('X-Amz-Signature')).toBe(BOTOCORE_SIGNATURE)
  })

  it('presigns GetCallerIdentity on the regional STS host with the cluster header signed', async () => {
    const url = decode(await buildEksToken({ clusterName: 'prod-cluster', region: 'eu-west-1', credentials, now: T }))
    expect(url.host).toBe('sts.eu-west-1.amazonaws.com')
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      Action: 'GetCallerIdentity',
      Version: '2011-06-15',
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
      'X-Amz-Credential': 'AKIDEXAMPLE/20261122/eu-west-1/sts/aws4_request',
      'X-Amz-Date': '20261122T100000Z',
      'X-Amz-Expires': '60',
      'X-Amz-SignedHeaders': 'host;x-k8s-aws-id',
      'X-Amz-Security-Token': 'session-token-example',
    })
  })

  it.each([
    { name: 'another cluster', change: { clusterName: 'staging' } },
    { name: 'another region', change: { region: 'us-east-1' } },
    { name: 'another minute', change: { now: new Date('2026-11-22T10:01:00Z') } },
  ])('signs differently for $name', async ({ change }) => {
    const url = decode(
      await buildEksToken({ clusterName: 'prod-cluster', region: 'eu-west-1', credentials, now: T, ...change }),
    )
    expect(url.searchParams.get('X-Amz-Signature')).not.toBe(BOTOCORE_SIGNATURE)
  })

  it('accepts a credentials provider', async () => {
    const url = decode(
      await buildEksToken({
        clusterName: 'prod-cluster',
        region: 'eu-west-1',
        credentials: async () => credentials,
        now: T,
      }),
    )
    expect(url.searchParams.get('X-Amz-Signature')).toBe(BOTOCORE_SIGNATURE)
  })
})

describe('makeEksTokenSource', () => {
  function source(times: Date[], provider = async () => credentials) {
    let calls = 0
    let now = T
    const get = makeEksTokenSource({
      clusterName: 'prod-cluster',
      region: 'eu-west-1',
      credentials: async () => {
        calls++
        return provider()
      },
      now: () => now,
    })
    return {
      get,
      at: (t: Date) => {
        now = t
      },
      signings: () => calls,
      times,
    }
  }

  it.each([
    { name: 'reuses the token within its lifetime', later: 9 * 60_000, signings: 1 },
    { name: 're-signs once within 4 minutes of the 14-minute expiry', later: 10 * 60_000 + 1, signings: 2 },
    { name: 're-signs an expired token', later: 20 * 60_000, signings: 2 },
  ])('$name', async ({ later, signings }) => {
    const s = source([])
    const first = await s.get()
    s.at(new Date(T.getTime() + later))
    const second = await s.get()
    expect(s.signings()).toBe(signings)
    expect(second === first).toBe(signings === 1)
  })

  it('does not cache a failed signing', async () => {
    let fail = true
    const s = source([], async () => {
      if (fail) throw new Error('no credentials')
      return credentials
    })
    await expect(s.get()).rejects.toThrow('no credentials')
    fail = false
    await expect(s.get()).resolves.toMatch(/^k8s-aws-v1\./)
  })
})
