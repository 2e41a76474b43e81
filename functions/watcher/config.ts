import { readFileSync } from 'node:fs'
import * as z from 'zod'
import { DurationSchema } from '../../shared/config/duration.ts'
import { loadPolicyText } from '../../shared/config/load-policy.ts'
import type { KubeAccess } from '../../shared/kube/load-kube-config.ts'
import { DEFAULT_RELIEF_CONFIG, type ReliefConfig } from '../../shared/pressure/config.ts'
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
  /** Kubelet stats collection for pressure relief (issue 8). */
  STATS_COLLECTION: z.enum(['true', 'false']).default('true'),
  /** The policy document whose `pressure` section sets the thresholds and collection pace. */
  NODEWARDEN_POLICY_FILE: z.string().min(1).optional(),
  STATS_SHORT_INTERVAL: DurationSchema.optional(),
  STATS_SLOW_INTERVAL: DurationSchema.optional(),
  STATS_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
  STATS_TIMEOUT: DurationSchema.optional(),
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
  /** false: no stats collection; else the policy file to read and the collect overrides (env wins). */
  stats:
    | false
    | {
        policyFile?: string
        collect: Partial<Pick<ReliefConfig['collect'], 'shortInterval' | 'slowInterval' | 'concurrency' | 'timeout'>>
      }
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
    stats:
      e.STATS_COLLECTION === 'false'
        ? false
        : {
            ...(e.NODEWARDEN_POLICY_FILE ? { policyFile: e.NODEWARDEN_POLICY_FILE } : {}),
            collect: Object.fromEntries(
              Object.entries({
                shortInterval: e.STATS_SHORT_INTERVAL,
                slowInterval: e.STATS_SLOW_INTERVAL,
                concurrency: e.STATS_CONCURRENCY,
                timeout: e.STATS_TIMEOUT,
              }).filter(([, v]) => v !== undefined),
            ),
          },
  }
}

/**
 * loadReliefConfig reads the pressure section of the policy file (thresholds, collection pace), or
 * the defaults, with the STATS_* overrides applied; a bad policy fails the start naming the field.
 */
export function loadReliefConfig(stats: Exclude<WatcherConfig['stats'], false>): ReliefConfig {
  const base = stats.policyFile
    ? loadPolicyText(readFileSync(stats.policyFile, 'utf8'), stats.policyFile).pressure
    : DEFAULT_RELIEF_CONFIG
  const collect = { ...base.collect, ...stats.collect }
  if (collect.shortInterval > collect.slowInterval)
    throw new Error('invalid watcher configuration: need STATS_SHORT_INTERVAL <= STATS_SLOW_INTERVAL')
  return { ...base, collect }
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
  LIST_PAGE_SIZE     (500)  HTTP_PORT /healthz /readyz /metrics (8080)  LOG_LEVEL (INFO)

Kubelet stats for pressure relief (leader only, through the API server's node proxy,
GET /api/v1/nodes/<node>/proxy/stats/summary; RBAC: nodes/proxy get):
  STATS_COLLECTION      true|false (true)
  NODEWARDEN_POLICY_FILE  policy document; its pressure: section sets thresholds and pace
  STATS_SHORT_INTERVAL  nodes under pressure or near a relief threshold (15s)
  STATS_SLOW_INTERVAL   every other node (5m)
  STATS_CONCURRENCY     summary requests in flight at once, cluster-wide (8)
  STATS_TIMEOUT         per request (10s)
  Request rate = calm/slow + hot/short: at 5,000 nodes with 100 hot, 4,900/300s + 100/15s
  ≈ 23 requests/s (all calm: 16.7/s; all hot: 333/s, capped by concurrency ÷ latency).`
