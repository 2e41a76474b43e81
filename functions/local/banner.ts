import { formatDuration } from '../../shared/config/index.ts'
import { QUEUE_NAMES } from '../../shared/sqs/config.ts'
import type { LocalStack } from './stack.ts'

/** What `npm start` prints once everything has started: the addresses a user can poke at. */

export type StartedInfo = {
  mode: LocalStack['mode']
  apply: boolean
  speed: number
  scenario?: { name: string; steps: number; runsFor: number }
  cluster: { url?: string; kubeconfig: string; context?: string }
  sqs: { endpoint: string; queues: { name: string; url: string; dlq: string; consumer: string }[] }
  api?: { url: string; token: string }
  receiver?: { url: string }
  watcherMetrics?: string
}

/** startedInfo collects the addresses and names of a started stack. */
export function startedInfo(
  stack: LocalStack,
  extra: { scenario?: { name: string; steps: number }; runsFor?: number; context?: string },
): StartedInfo {
  const consumers: Record<string, string> = { events: 'decide', decisions: 'write', alerts: 'alert' }
  if (!stack.emulator) consumers.alerts = 'printed here (no webhook delivery against a real cluster)'
  return {
    mode: stack.mode,
    apply: stack.apply,
    speed: stack.clock.speed,
    ...(extra.scenario && extra.runsFor !== undefined
      ? { scenario: { ...extra.scenario, runsFor: extra.runsFor } }
      : {}),
    cluster: {
      ...(stack.emulator ? { url: stack.emulator.url } : {}),
      kubeconfig: stack.kubeconfigPath,
      ...(extra.context ? { context: extra.context } : {}),
    },
    sqs: {
      endpoint: stack.pipeline.sqs.endpoint,
      queues: QUEUE_NAMES.map((name) => ({
        name,
        url: stack.pipeline.sqs.queueUrls[name],
        dlq: stack.pipeline.sqs.dlqUrls[name],
        consumer: consumers[name] ?? 'none',
      })),
    },
    ...(stack.api ? { api: { url: stack.api.url, token: stack.api.token } } : {}),
    ...(stack.receiver ? { receiver: { url: stack.receiver.url } } : {}),
    ...(stack.watcher.url ? { watcherMetrics: `${stack.watcher.url}/metrics` } : {}),
  }
}

/** renderBanner renders StartedInfo as the lines printed before the timeline. */
export function renderBanner(info: StartedInfo): string[] {
  const lines: string[] = []
  if (info.mode === 'embedded') {
    lines.push(`nodewarden local — Kubernetes API emulator at ${info.cluster.url}`)
    lines.push(`  kubectl --kubeconfig ${info.cluster.kubeconfig} get nodes`)
    if (info.scenario)
      lines.push(
        `  scenario "${info.scenario.name}": ${info.scenario.steps} steps, running ${formatDuration(info.scenario.runsFor)} of scenario time at ${info.speed}x (${formatDuration(Math.round(info.scenario.runsFor / info.speed))} real)`,
      )
    lines.push('  writer: applies to the emulator')
  } else {
    lines.push(
      `nodewarden local — cluster from ${info.cluster.kubeconfig}${info.cluster.context ? ` (context ${info.cluster.context})` : ''}`,
    )
    lines.push(
      info.apply
        ? '  writer: APPLYING changes to this cluster (--apply)'
        : '  writer: server-side dry run (dryRun=All): the API server validates, nothing changes; add --apply to act',
    )
    lines.push('  watcher: single local replica, no leader-election Lease is written')
    lines.push(
      '  alerts: printed below from the alerts queue; no AlertSubscription or webhook is touched on the cluster',
    )
  }
  lines.push(`embedded SQS at ${info.sqs.endpoint}`)
  for (const q of info.sqs.queues)
    lines.push(`  ${q.name.padEnd(9)} → ${q.consumer.padEnd(6)} ${q.url}  (DLQ ${q.dlq})`)
  if (info.api) {
    lines.push(`api at ${info.api.url}  (token, shown once: ${info.api.token})`)
    lines.push(`  curl -H "Authorization: Bearer ${info.api.token}" ${info.api.url}/subscriptions`)
  }
  if (info.receiver) lines.push(`webhook receiver at ${info.receiver.url} (subscribed; signatures checked)`)
  if (info.watcherMetrics) lines.push(`watcher metrics at ${info.watcherMetrics}`)
  return lines
}
