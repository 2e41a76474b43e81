import type { Decision, Precondition } from '../../shared/messages/index.ts'
import type { LiveNode, LivePod } from './live-objects.ts'

/**
 * Pure re-validation of a decision against live objects read at apply time. Decide proposed on
 * a view that may be stale, duplicated or reordered; only what still holds gets applied.
 */

export type Live = { node?: LiveNode | null; pod?: LivePod | null }

/** `gone`: the target no longer exists (or is another object now); `stale`: it changed since the decision. */
export type PreconditionVerdict = { ok: true } | { ok: false; kind: 'gone' | 'stale'; reason: string }

const ok: PreconditionVerdict = { ok: true }
const gone = (reason: string): PreconditionVerdict => ({ ok: false, kind: 'gone', reason })
const stale = (reason: string): PreconditionVerdict => ({ ok: false, kind: 'stale', reason })

/** needsNode tells whether checking this decision needs the live node (node targets, or node preconditions on a pod). */
export function needsNode(decision: Decision): boolean {
  return (
    decision.target.kind === 'Node' ||
    decision.preconditions.some((p) =>
      ['conditionHolds', 'conditionNot', 'taintAbsent', 'taintPresent', 'nodeUid'].includes(p.type),
    )
  )
}

/** checkPreconditions returns ok when the target still exists as decided and every precondition still holds. */
export function checkPreconditions(decision: Decision, live: Live): PreconditionVerdict {
  const target = checkTarget(decision, live)
  if (!target.ok) return target
  for (const precondition of decision.preconditions) {
    const verdict = checkOne(precondition, live)
    if (!verdict.ok) return verdict
  }
  return ok
}

function checkTarget(decision: Decision, live: Live): PreconditionVerdict {
  const t = decision.target
  if (t.kind === 'Node') {
    if (!live.node) return gone(`node ${t.name} does not exist`)
    if (live.node.metadata.uid !== t.uid)
      return gone(`node ${t.name} was replaced (uid ${live.node.metadata.uid}, decided for ${t.uid})`)
    return ok
  }
  const pod = `pod ${t.namespace}/${t.name}`
  if (!live.pod) return gone(`${pod} does not exist`)
  if (live.pod.metadata.uid !== t.uid)
    return gone(`${pod} is another pod now (uid ${live.pod.metadata.uid}, decided for ${t.uid})`)
  if ((live.pod.spec.nodeName ?? '') !== t.nodeName)
    return stale(`${pod} is on node ${live.pod.spec.nodeName ?? '(none)'}, decided for ${t.nodeName}`)
  return ok
}

function checkOne(p: Precondition, live: Live): PreconditionVerdict {
  const node = live.node
  switch (p.type) {
    case 'conditionHolds':
    case 'conditionNot': {
      if (!node) return stale(`node needed for ${p.type} ${p.condition} is gone`)
      const cond = node.status.conditions.find((c) => c.type === p.condition)
      if (p.type === 'conditionNot')
        return cond?.status === p.status ? stale(`${p.condition} is ${p.status} again`) : ok
      if (!cond) return stale(`${p.condition} is no longer reported`)
      if (cond.status !== p.status) return stale(`${p.condition} is ${cond.status}, decided on ${p.status}`)
      if (p.since && cond.lastTransitionTime && !sameInstant(cond.lastTransitionTime, p.since))
        return stale(
          `${p.condition} transitioned at ${cond.lastTransitionTime}, decided on the transition at ${p.since}`,
        )
      return ok
    }
    case 'taintAbsent':
    case 'taintPresent': {
      if (!node) return stale(`node needed for ${p.type} ${p.key} is gone`)
      const present = node.spec.taints.some((t) => t.key === p.key && t.effect === p.effect)
      if (p.type === 'taintAbsent' && present) return stale(`taint ${p.key}:${p.effect} is already present`)
      if (p.type === 'taintPresent' && !present) return stale(`taint ${p.key}:${p.effect} is no longer present`)
      return ok
    }
    case 'nodeUid':
      if (!node) return gone('node is gone')
      return node.metadata.uid === p.uid
        ? ok
        : gone(`node ${node.metadata.name} was replaced (uid ${node.metadata.uid})`)
    case 'podOnNode': {
      const pod = live.pod
      if (!pod || pod.metadata.uid !== p.podUid) return gone(`pod ${p.podUid} is gone`)
      return pod.spec.nodeName === p.nodeName
        ? ok
        : stale(`pod ${pod.metadata.name} is no longer on node ${p.nodeName}`)
    }
    case 'podPhase': {
      const phase = live.pod?.status.phase ?? 'Unknown'
      return p.phases.includes(phase) ? ok : stale(`pod phase is ${phase}, decided for ${p.phases.join('|')}`)
    }
  }
}

function sameInstant(a: string, b: string): boolean {
  return Math.floor(Date.parse(a) / 1000) === Math.floor(Date.parse(b) / 1000)
}
