import type { Policy } from '../config/index.ts'
import type { Alert, Decision, SlimNode, SlimPod, Toleration } from '../messages/index.ts'
import { endsAfter, makeAlert, nodeSubject } from './alert-builders.ts'
import { isDaemonSetPod, isMirrorPod, isTerminalPod } from './critical-pod.ts'
import { makeDecision, podTarget } from './decision-builders.ts'
import { missingDefaultTolerations } from './default-tolerations.ts'

/**
 * auditDefaultTolerations finds running pods without the not-ready/unreachable NoExecute
 * tolerations that DefaultTolerationSeconds would have added (DESIGN §1.2): the control plane
 * evicts them the instant the node blips NotReady. One alert per node lists them; when the policy
 * opts in, each gets a `backfillTolerations` decision (adding tolerations to a live pod is allowed).
 */
export function auditDefaultTolerations(
  node: SlimNode,
  pods: readonly SlimPod[],
  zone: string,
  policy: Pick<Policy, 'tolerations' | 'alerts'>,
  now: Date,
): { alerts: Alert[]; decisions: Decision[] } {
  const seconds = {
    notReady: policy.tolerations.defaultNotReadySeconds,
    unreachable: policy.tolerations.defaultUnreachableSeconds,
  }
  const lacking: { pod: SlimPod; missing: Toleration[] }[] = []
  for (const pod of pods) {
    if (isTerminalPod(pod)) continue
    const missing = missingDefaultTolerations(pod.tolerations, seconds)
    if (missing.length > 0) lacking.push({ pod, missing })
  }
  if (lacking.length === 0) return { alerts: [], decisions: [] }
  const names = lacking.map(
    ({ pod, missing }) => `${pod.namespace}/${pod.name} (lacks ${missing.map((t) => t.key).join(', ')})`,
  )
  const summary = `${node.name}: ${lacking.length} pod(s) lack the default NoExecute tolerations and would be evicted at once if the node becomes NotReady or unreachable`
  const alert = makeAlert({
    kind: 'MissingDefaultTolerations',
    subject: nodeSubject(node, zone),
    key: 'default-tolerations',
    status: 'firing',
    severity: 'warning',
    summary,
    details: { pods: names.slice(0, 50), count: lacking.length, backfill: policy.tolerations.backfill },
    startsAt: now.toISOString(),
    endsAt: endsAfter(now, policy.alerts.ttl),
    groupKey: 'audit:default-tolerations',
  })
  if (!policy.tolerations.backfill) return { alerts: [alert], decisions: [] }
  const decisions = lacking
    .filter(({ pod }) => !isMirrorPod(pod) && !isDaemonSetPod(pod))
    .map(({ pod, missing }) => {
      const reason = `${pod.namespace}/${pod.name} lacks ${missing.map((t) => `${t.key}:NoExecute`).join(' and ')}: add them with tolerationSeconds as DefaultTolerationSeconds would`
      const preconditions = [
        { type: 'podOnNode' as const, podUid: pod.uid, nodeName: node.name },
        { type: 'podPhase' as const, phases: ['Pending', 'Running', 'Unknown'] },
      ]
      const body = { action: 'backfillTolerations' as const, target: podTarget(pod, node.name), tolerations: missing }
      return makeDecision(
        body,
        {
          ruleId: 'backfill-tolerations',
          reason,
          evidence: { missing: missing.length },
          preconditions,
          notBefore: undefined,
          budget: undefined,
        },
        pod.uid,
        now,
      )
    })
  return { alerts: [alert], decisions }
}
