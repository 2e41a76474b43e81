import * as z from 'zod'
import { makeEksTokenSource } from '../../shared/kube/eks-token.ts'
import type { KubeEndpoint } from './kube-rest.ts'

/** The environment naming the API server, shared by the alert function and the api. */
export const KubeEnvSchema = z.object({
  AWS_REGION: z.string().min(1).default('us-east-1'),
  KUBE_SERVER: z.url({ protocol: /^https?$/ }),
  KUBE_CA_DATA: z.string().min(1).optional(),
  KUBE_TOKEN: z.string().min(1).optional(),
  /** With this set, requests carry an EKS IAM token (presigned STS GetCallerIdentity) instead of KUBE_TOKEN. */
  EKS_CLUSTER_NAME: z.string().min(1).optional(),
})
export type KubeEnv = z.infer<typeof KubeEnvSchema>

/** toKubeEndpoint turns the kube environment into an endpoint with a token source. */
export function toKubeEndpoint(env: KubeEnv, now: () => Date): KubeEndpoint {
  const eksToken = env.EKS_CLUSTER_NAME
    ? makeEksTokenSource({
        clusterName: env.EKS_CLUSTER_NAME,
        region: env.AWS_REGION,
        credentials: awsCredentials,
        now,
      })
    : undefined
  return {
    server: env.KUBE_SERVER,
    ...(env.KUBE_CA_DATA ? { caData: env.KUBE_CA_DATA } : {}),
    token: async () => (eksToken ? eksToken() : env.KUBE_TOKEN),
  }
}

async function awsCredentials() {
  const { fromNodeProviderChain } = await import('@aws-sdk/credential-providers')
  return fromNodeProviderChain()()
}
