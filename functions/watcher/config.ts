import * as z from 'zod'
import { DurationSchema } from '../../shared/config/duration.ts'
import type { KubeAccess } from '../../shared/kube/load-kube-config.ts'
import { loadQueueConfig, type QueueConfig } from '../../shared/sqs/config.ts'

/**
 * The watcher's configuration: environment variables (the Deployment sets them) with command-line
 * flags for local runs. Durations accept Go-style text (`15s`, `5m`) or seconds.
 */
const WatcherEnvSchema = z.object({
  KUBECONFIG: z.string().min(1).optional(),
  KUBE_CONTEXT: z.string().min(1).optional(),
  KUBERNETES_SERVICE_HOST: z.string().optional(),
  POD_NAME: z.string().min(1).optional(),
  POD_NAMESPACE: z.string().min(1).default('nodewarden'),
  LEASE_NAME: z.string().min(1).default('nodewarden-watcher'),
  LEADER_ELECTION: z.enum(['true', 'false']).default('true'),
  LEASE_DURATION: DurationSchema.default(15_000),
  RENEW_DEADLINE: DurationSchema.default(10_000),
  RETRY_PERIOD: DurationSchema.default(2_000),
  RESYNC_PERIOD: DurationSchema.default(300_000),
  WATCH_TIMEOUT: DurationSchema.default(300_000),
  LIST_PAGE_SIZE: z.coerce.number().int().min(1).max(5000).default(500),
  HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  LOG_LEVEL: z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT']).default('INFO'),
})

export type WatcherConfig = {
  access: KubeAccess
  queues: QueueConfig<'events'>
  identity: string | undefined
  leaseNamespace: string
  leaseName: string
  leaderElection: boolean
  leaseDurationMs: number
  renewDeadlineMs: number
  retryPeriodMs: number
  resyncPeriodMs: number
  watchTimeoutSeconds: number
  pageSize: number
  httpPort: number
  logLevel: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'SILENT'
}

export type WatcherFlags = { kubeconfig?: string; context?: string }

/**
 * loadConfig reads and validates the watcher's environment (and flags, which win), failing with an
 * error that names every bad variable. Kubernetes access: `--kubeconfig`/KUBECONFIG, else the
 * in-cluster service account; with neither it refuses to guess (no silent localhost:8080).
 */
export function loadConfig(env: Record<string, string | undefined>, flags: WatcherFlags = {}): WatcherConfig {
  const result = WatcherEnvSchema.safeParse(env)
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
    throw new Error(`invalid watcher configuration: ${problems.join('; ')}`)
  }
  const e = result.data
  if (e.RENEW_DEADLINE >= e.LEASE_DURATION || e.RETRY_PERIOD >= e.RENEW_DEADLINE) {
    throw new Error('invalid watcher configuration: need RETRY_PERIOD < RENEW_DEADLINE < LEASE_DURATION')
  }
  const path = flags.kubeconfig ?? e.KUBECONFIG
  const context = flags.context ?? e.KUBE_CONTEXT
  let access: KubeAccess
  if (path) access = { mode: 'kubeconfig-file', path, ...(context ? { context } : {}) }
  else if (e.KUBERNETES_SERVICE_HOST) access = { mode: 'in-cluster' }
  else throw new Error('invalid watcher configuration: KUBECONFIG: set it (or --kubeconfig) outside a cluster')
  return {
    access,
    queues: loadQueueConfig(env, ['events']),
    identity: e.POD_NAME,
    leaseNamespace: e.POD_NAMESPACE,
    leaseName: e.LEASE_NAME,
    leaderElection: e.LEADER_ELECTION === 'true',
    leaseDurationMs: e.LEASE_DURATION,
    renewDeadlineMs: e.RENEW_DEADLINE,
    retryPeriodMs: e.RETRY_PERIOD,
    resyncPeriodMs: e.RESYNC_PERIOD,
    watchTimeoutSeconds: Math.max(1, Math.round(e.WATCH_TIMEOUT / 1000)),
    pageSize: e.LIST_PAGE_SIZE,
    httpPort: e.HTTP_PORT,
    logLevel: e.LOG_LEVEL,
  }
}

/** CONFIG_HELP lists the environment for `--help`. */
export const CONFIG_HELP = `
Environment:
  EVENTS_QUEUE_URL   events FIFO queue URL (required)        AWS_REGION, SQS_ENDPOINT (local runs)
  KUBECONFIG         kubeconfig file (else in-cluster)       KUBE_CONTEXT
  POD_NAME           replica identity in the Lease            POD_NAMESPACE  Lease namespace (nodewarden)
  LEASE_NAME         (nodewarden-watcher)                     LEADER_ELECTION true|false (true)
  LEASE_DURATION     (15s)  RENEW_DEADLINE (10s)  RETRY_PERIOD (2s)
  RESYNC_PERIOD      every node's view is resent this often (5m)
  WATCH_TIMEOUT      server-side watch timeout, jittered up to 2x (5m)
  LIST_PAGE_SIZE     (500)  HTTP_PORT /healthz /readyz /metrics (8080)  LOG_LEVEL (INFO)`
