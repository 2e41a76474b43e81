import * as z from 'zod'
import { type KubeAccess, KubeAccessSchema } from '../../shared/kube/load-kube-config.ts'

/** The write function's environment, validated once at cold start. Only handler.ts passes `process.env` here. */

const flag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1')

const EnvSchema = z.object({
  AWS_REGION: z.string().min(1).default('us-east-1'),
  SQS_ENDPOINT: z.url().optional(),
  DECISIONS_QUEUE_URL: z.url(),
  ALERTS_QUEUE_URL: z.url(),
  /** `true` applies; anything else is a server-side dry run (`dryRun=All`). */
  APPLY: flag.default(false),
  /** in-cluster | kubeconfig-file | kubeconfig-content | eks; default: eks if EKS_CLUSTER_NAME, kubeconfig-file if KUBECONFIG, else in-cluster. */
  KUBE_ACCESS: z.enum(['in-cluster', 'kubeconfig-file', 'kubeconfig-content', 'eks']).optional(),
  KUBECONFIG: z.string().min(1).optional(),
  /** A kubeconfig's content, e.g. resolved from a secret at deploy time. */
  KUBECONFIG_CONTENT: z.string().min(1).optional(),
  KUBE_CONTEXT: z.string().min(1).optional(),
  EKS_CLUSTER_NAME: z.string().min(1).optional(),
  EKS_ENDPOINT: z.string().min(1).optional(),
  EKS_CA_DATA: z.string().min(1).optional(),
  NODEWARDEN_NAMESPACE: z.string().min(1).default('nodewarden'),
  LEDGER_NAME: z.string().min(1).default('nodewarden-writer-ledger'),
  /** Events' reportingInstance; defaults to the Lambda log stream. */
  WRITER_ID: z.string().min(1).optional(),
  AWS_LAMBDA_LOG_STREAM_NAME: z.string().optional(),
  KUBE_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  NODEWARDEN_POLICY: z.string().min(1).optional(),
  NODEWARDEN_POLICY_FILE: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT']).default('INFO'),
})
export type WriteEnv = z.infer<typeof EnvSchema>
export type WriteConfig = WriteEnv & { access: KubeAccess; writerId: string }

/** loadConfig reads the write function's environment, naming every bad or missing variable (never its value). */
export function loadConfig(env: Record<string, string | undefined>): WriteConfig {
  const result = EnvSchema.safeParse(env)
  if (!result.success)
    throw new Error(
      `invalid write configuration: ${result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    )
  const e = result.data
  const mode = e.KUBE_ACCESS ?? (e.EKS_CLUSTER_NAME ? 'eks' : e.KUBECONFIG ? 'kubeconfig-file' : 'in-cluster')
  const raw =
    mode === 'eks'
      ? { mode, clusterName: e.EKS_CLUSTER_NAME, region: e.AWS_REGION, endpoint: e.EKS_ENDPOINT, caData: e.EKS_CA_DATA }
      : mode === 'kubeconfig-file'
        ? { mode, path: e.KUBECONFIG, context: e.KUBE_CONTEXT }
        : mode === 'kubeconfig-content'
          ? { mode, content: e.KUBECONFIG_CONTENT, context: e.KUBE_CONTEXT }
          : { mode }
  const access = KubeAccessSchema.safeParse(raw)
  if (!access.success) {
    const names: Record<string, string> = {
      clusterName: 'EKS_CLUSTER_NAME',
      endpoint: 'EKS_ENDPOINT',
      caData: 'EKS_CA_DATA',
      path: 'KUBECONFIG',
      content: 'KUBECONFIG_CONTENT',
    }
    const bad = access.error.issues.map((i) => `${names[String(i.path[0])] ?? String(i.path[0])}: ${i.message}`)
    throw new Error(`invalid write configuration (KUBE_ACCESS=${mode}): ${bad.join('; ')}`)
  }
  const writerId = e.WRITER_ID ?? e.AWS_LAMBDA_LOG_STREAM_NAME ?? 'nodewarden-writer'
  return { ...e, access: access.data, writerId }
}
