import type { Decision, NodeTarget, PodTarget, SlimNode, SlimPod } from '../messages/index.ts'
import { contentId } from '../messages/index.ts'

/**
 * Decision ids are a hash of what the decision does and the evidence that anchors it
 * (e.g. the condition's lastTransitionTime), never of `now`: re-deciding the same situation
 * yields the same id, which the writer uses as its idempotency key.
 */

type Common = Pick<Decision, 'ruleId' | 'reason' | 'evidence' | 'preconditions' | 'notBefore' | 'budget'>
type Body =
  | Pick<Extract<Decision, { action: 'taint' }>, 'action' | 'target' | 'taint'>
  | Pick<Extract<Decision, { action: 'untaint' }>, 'action' | 'target' | 'taint'>
  | Pick<Extract<Decision, { action: 'evict' }>, 'action' | 'target' | 'gracePeriodSeconds' | 'deadline' | 'onDeadline'>
  | Pick<Extract<Decision, { action: 'backfillTolerations' }>, 'action' | 'target' | 'tolerations'>
  | Pick<Extract<Decision, { action: 'deleteEvictedPod' }>, 'action' | 'target'>

/** makeDecision assembles a decision whose id hashes action, target, body, rule and `anchor`. */
export function makeDecision(body: Body, common: Common, anchor: unknown, now: Date): Decision {
  const { evidence, preconditions, notBefore, budget, ruleId, reason } = common
  const id = contentId({ ...body, ruleId, anchor })
  const decision = { id, ...body, ruleId, reason, evidence, preconditions, decidedAt: now.toISOString(), attempt: 0 }
  return {
    ...decision,
    ...(notBefore === undefined ? {} : { notBefore }),
    ...(budget === undefined ? {} : { budget }),
  } as Decision
}

/** nodeTarget names a node by name and uid. */
export function nodeTarget(node: Pick<SlimNode, 'name' | 'uid'>): NodeTarget {
  return { kind: 'Node', name: node.name, uid: node.uid }
}

/** podTarget names a pod by namespace, name, uid and the node it is bound to. */
export function podTarget(pod: Pick<SlimPod, 'namespace' | 'name' | 'uid'>, nodeName: string): PodTarget {
  return { kind: 'Pod', namespace: pod.namespace, name: pod.name, uid: pod.uid, nodeName }
}
