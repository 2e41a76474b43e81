/**
 * Trigger: the process starts (Deployment in the cluster, or `tsx functions/watcher/main.ts --kubeconfig …`).
 * Job: list/watch nodes, pods and PDBs, elect a leader, forward meaningful NodeView changes.
 * Output: NodeView messages on the events FIFO queue; /healthz, /readyz, /metrics; JSON logs.
 */
import { Command } from 'commander'
import { loadKubeConfig } from '../../shared/kube/load-kube-config.ts'
import { createLogger } from '../../shared/log.ts'
import { createSqsClient } from '../../shared/sqs/client.ts'
import { CONFIG_HELP, loadConfig, loadReliefConfig } from './config.ts'
import { startWatcher } from './watcher.ts'

const program = new Command('nodewarden-watcher')
  .description('The nodewarden watcher shim: forwards meaningful node/pod changes to the events queue.')
  .option('--kubeconfig <file>', 'kubeconfig file (default: KUBECONFIG, else in-cluster)')
  .option('--context <name>', 'kubeconfig context')
  .addHelpText('after', CONFIG_HELP)
  .parse()

const config = loadConfig(process.env, program.opts<{ kubeconfig?: string; context?: string }>())
const log = createLogger('watcher', config.logLevel)
const watcher = await startWatcher({
  kubeConfig: loadKubeConfig(config.access, { now: () => new Date() }),
  events: {
    queueUrl: config.queues.queueUrls.events,
    client: createSqsClient({
      region: config.queues.region,
      ...(config.queues.endpoint ? { endpoint: config.queues.endpoint } : {}),
    }),
  },
  identity: config.identity,
  leaderElection: config.leaderElection,
  leaseNamespace: config.leaseNamespace,
  leaseName: config.leaseName,
  leaseDurationMs: config.leaseDurationMs,
  renewDeadlineMs: config.renewDeadlineMs,
  retryPeriodMs: config.retryPeriodMs,
  resyncPeriodMs: config.resyncPeriodMs,
  watchTimeoutSeconds: config.watchTimeoutSeconds,
  pageSize: config.pageSize,
  httpPort: config.httpPort,
  stats: config.stats === false ? false : { pressure: loadReliefConfig(config.stats) },
  log,
})
log.info('watcher started', {
  url: watcher.url,
  leaseNamespace: config.leaseNamespace,
  statsCollection: config.stats !== false,
})

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    log.info('shutting down', { signal })
    watcher.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error('shutdown failed', { error: (err as Error).message })
        process.exit(1)
      },
    )
  })
}
