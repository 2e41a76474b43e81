import { KubeConfig, type User } from '@kubernetes/client-node'
import * as z from 'zod'
import { type CredentialsProvider, makeEksTokenSource } from './eks-token.ts'

/**
 * How a function reaches its cluster: the in-cluster service account, a kubeconfig (file or the
 * content of a secret), or EKS with an IAM token. One schema, shared by the writer and the watcher.
 */
export const KubeAccessSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('in-cluster'), pathPrefix: z.string().optional() }),
  z.object({ mode: z.literal('kubeconfig-file'), path: z.string().min(1), context: z.string().optional() }),
  z.object({ mode: z.literal('kubeconfig-content'), content: z.string().min(1), context: z.string().optional() }),
  z.object({
    mode: z.literal('eks'),
    clusterName: z.string().min(1),
    region: z.string().min(1),
    /** The cluster endpoint, `https://…eks.amazonaws.com` (DescribeCluster `endpoint`). */
    endpoint: z.url({ protocol: /^https$/ }),
    /** Base64 PEM of the cluster CA (DescribeCluster `certificateAuthority.data`). */
    caData: z.string().min(1),
  }),
])
export type KubeAccess = z.infer<typeof KubeAccessSchema>

export type KubeConfigDeps = {
  now: () => Date
  /** AWS credentials for EKS tokens; in Lambda, `fromEnv()` or the default provider chain. */
  awsCredentials?: CredentialsProvider
}

const EKS_AUTH_PROVIDER = 'nodewarden-eks-iam'
/** client-node's silent fallback when nothing is configured (ECOSYSTEM.md §2). */
const CLIENT_NODE_DEFAULT_SERVER = 'http://localhost:8080'

/** loadKubeConfig builds a KubeConfig for `access`, refusing client-node's silent `http://localhost:8080` default. */
export function loadKubeConfig(access: KubeAccess, deps: KubeConfigDeps): KubeConfig {
  const kc = new KubeConfig()
  try {
    if (access.mode === 'in-cluster') kc.loadFromCluster(access.pathPrefix)
    else if (access.mode === 'kubeconfig-file') kc.loadFromFile(access.path)
    else if (access.mode === 'kubeconfig-content') kc.loadFromString(access.content)
    else loadEks(kc, access, deps)
  } catch (err) {
    throw new Error(`load kubernetes access (${access.mode})`, { cause: err })
  }
  if ('context' in access && access.context) kc.setCurrentContext(access.context)
  assertUsableCluster(kc, access.mode)
  return kc
}

function loadEks(kc: KubeConfig, access: Extract<KubeAccess, { mode: 'eks' }>, deps: KubeConfigDeps): void {
  if (!deps.awsCredentials) throw new Error('eks access needs AWS credentials')
  kc.loadFromOptions({
    clusters: [{ name: access.clusterName, server: access.endpoint, caData: access.caData, skipTLSVerify: false }],
    users: [{ name: 'nodewarden', authProvider: { name: EKS_AUTH_PROVIDER, config: {} } }],
    contexts: [{ name: access.clusterName, cluster: access.clusterName, user: 'nodewarden' }],
    currentContext: access.clusterName,
  })
  const token = makeEksTokenSource({
    clusterName: access.clusterName,
    region: access.region,
    credentials: deps.awsCredentials,
    now: deps.now,
  })
  kc.addAuthenticator({
    isAuthProvider: (user: User) => user.authProvider?.name === EKS_AUTH_PROVIDER,
    applyAuthentication: async (_user, opts) => {
      opts.headers = { ...(opts.headers ?? {}), Authorization: `Bearer ${await token()}` }
    },
  })
}

function assertUsableCluster(kc: KubeConfig, mode: KubeAccess['mode']): void {
  const cluster = kc.getCurrentCluster()
  if (!cluster?.server) throw new Error(`kubernetes access (${mode}): the current context names no cluster server`)
  if (cluster.server.replace(/\/$/, '') === CLIENT_NODE_DEFAULT_SERVER)
    throw new Error(
      `kubernetes access (${mode}): refusing ${CLIENT_NODE_DEFAULT_SERVER}, client-node's default when nothing is configured`,
    )
}
