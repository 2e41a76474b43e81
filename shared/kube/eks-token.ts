import { Sha256 } from '@aws-crypto/sha256-js'
import { HttpRequest } from '@smithy/protocol-http'
import { SignatureV4 } from '@smithy/signature-v4'

/**
 * EKS IAM authentication without kubectl or aws-cli: a presigned STS GetCallerIdentity URL,
 * base64url-encoded behind `k8s-aws-v1.`, is the bearer token the EKS authenticator accepts.
 * https://github.com/kubernetes-sigs/aws-iam-authenticator#api-authorization-from-outside-a-cluster
 * No client-node import here, so the small alert function can reuse it.
 */

export type AwsCredentials = { accessKeyId: string; secretAccessKey: string; sessionToken?: string }
export type CredentialsProvider = () => Promise<AwsCredentials>

export type EksTokenRequest = {
  clusterName: string
  region: string
  credentials: AwsCredentials | CredentialsProvider
  /** Signing time; the token is valid ~15 minutes from it. */
  now: Date
}

export const EKS_TOKEN_PREFIX = 'k8s-aws-v1.'
/** The presigned URL's own lifetime; the EKS authenticator accepts the token for ~15 minutes regardless. */
const PRESIGN_EXPIRES_SECONDS = 60
/** aws-cli reports expiry at signing time + 14 minutes; we refresh well before that. */
export const EKS_TOKEN_LIFETIME_MS = 14 * 60_000

/** buildEksToken presigns STS GetCallerIdentity for `clusterName` and returns the `k8s-aws-v1.` bearer token. */
export async function buildEksToken(request: EksTokenRequest): Promise<string> {
  const host = `sts.${request.region}.amazonaws.com`
  const signer = new SignatureV4({
    credentials: request.credentials,
    region: request.region,
    service: 'sts',
    sha256: Sha256,
  })
  const signed = await signer.presign(
    new HttpRequest({
      method: 'GET',
      protocol: 'https:',
      hostname: host,
      path: '/',
      query: { Action: 'GetCallerIdentity', Version: '2011-06-15' },
      headers: { host, 'x-k8s-aws-id': request.clusterName },
    }),
    { expiresIn: PRESIGN_EXPIRES_SECONDS, signingDate: request.now },
  )
  const query = Object.entries(signed.query ?? {})
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&')
  return EKS_TOKEN_PREFIX + Buffer.from(`https://${host}/?${query}`).toString('base64url')
}

export type EksTokenSourceOptions = Omit<EksTokenRequest, 'now'> & {
  now: () => Date
  /** Re-sign this long before the token's ~14-minute lifetime ends (default 4 minutes). */
  refreshBeforeMs?: number
}

/**
 * makeEksTokenSource returns a function yielding a cached token, re-signed once it is within
 * `refreshBeforeMs` of expiry; concurrent callers share one signing.
 */
export function makeEksTokenSource(options: EksTokenSourceOptions): () => Promise<string> {
  const refreshBeforeMs = options.refreshBeforeMs ?? 4 * 60_000
  let cached: { token: Promise<string>; expiresAt: number } | undefined
  return () => {
    const now = options.now()
    if (cached && now.getTime() < cached.expiresAt - refreshBeforeMs) return cached.token
    const token = buildEksToken({ ...options, now })
    const entry = { token, expiresAt: now.getTime() + EKS_TOKEN_LIFETIME_MS }
    cached = entry
    // A failed signing must not stick: the next call signs again.
    token.catch(() => {
      if (cached === entry) cached = undefined
    })
    return token
  }
}
