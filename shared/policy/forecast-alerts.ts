import type { Policy } from '../config/index.ts'
import type { Alert, SlimNode, SlimPod } from '../messages/index.ts'
import { endsAfter, makeAlert, nodeSubject } from './alert-builders.ts'
import { isTerminalPod } from './critical-pod.ts'
import type { EvictionForecast } from './forecast-eviction.ts'
import { isProtected } from './protection.ts'

export type PodForecast = { pod: SlimPod; forecast: EvictionForecast }

/**
 * forecastAlerts summarises the control plane's coming NoExecute evictions on one node: an
 * EvictionForecast alert listing the pods it will delete (soonest first), and a critical
 * ProtectedPodAtRisk alert when any of them is a pod nodewarden considers protected.
 */
export function forecastAlerts(
  node: SlimNode,
  forecasts: readonly PodForecast[],
  zone: string,
  policy: Pick<Policy, 'protection' | 'alerts'>,
  now: Date,
): Alert[] {
  const doomed = forecasts
    .filter((f) => f.forecast.outcome !== 'never' && !isTerminalPod(f.pod))
    .sort((a, b) => (a.forecast.evictAt ?? '').localeCompare(b.forecast.evictAt ?? ''))
  if (doomed.length === 0) return []
  const subject = nodeSubject(node, zone)
  const endsAt = endsAfter(now, policy.alerts.ttl)
  const line = (f: PodForecast) => `${f.pod.namespace}/${f.pod.name} at ${f.forecast.evictAt}: ${f.forecast.reason}`
  const first = doomed[0]?.forecast.evictAt ?? now.toISOString()
  const alerts = [
    makeAlert({
      kind: 'EvictionForecast',
      subject,
      key: 'noexecute',
      status: 'firing',
      severity: 'warning',
      groupKey: 'forecast:noexecute',
      summary: `${node.name}: the control plane will evict ${doomed.length} pod(s) for NoExecute taints, first at ${first}`,
      details: { pods: doomed.slice(0, 50).map(line), count: doomed.length },
      startsAt: now.toISOString(),
      endsAt,
    }),
  ]
  const atRisk = doomed.filter((f) => isProtected(f.pod, policy.protection).length > 0)
  if (atRisk.length > 0)
    alerts.push(
      makeAlert({
        kind: 'ProtectedPodAtRisk',
        subject,
        key: 'noexecute',
        status: 'firing',
        severity: 'critical',
        groupKey: 'forecast:protected',
        summary: `${node.name}: ${atRisk.length} protected pod(s) will be evicted by the control plane (their tolerations do not cover the node's NoExecute taints)`,
        details: { pods: atRisk.slice(0, 50).map(line), count: atRisk.length },
        startsAt: now.toISOString(),
        endsAt,
      }),
    )
  return alerts
}
