import type { ContainerResources, SlimPod } from '../messages/index.ts'
import { isNodeCriticalPod } from '../policy/critical-pod.ts'
import { getPodQOS, type QosClass } from '../policy/qos.ts'
import { parseQuantity, quantityValue } from '../policy/quantity.ts'

/**
 * The OOM score adjustment the kubelet gives each container (pkg/kubelet/qos/policy.go
 * `GetContainerOOMScoreAdjust`, v1.32 rules; pod-level resources off). Higher dies first.
 */

export const KUBELET_OOM_SCORE_ADJ = -999
export const GUARANTEED_OOM_SCORE_ADJ = -997
export const BESTEFFORT_OOM_SCORE_ADJ = 1000

type OomPod = Pick<
  SlimPod,
  'containers' | 'initContainers' | 'qosClass' | 'annotations' | 'priority' | 'priorityClassName'
>

const memoryRequest = (c: ContainerResources): bigint => {
  const text = c.requests?.memory
  return text === undefined ? 0n : quantityValue(parseQuantity(text))
}

/** isSidecarContainer: an init container with restartPolicy Always. */
export function isSidecarContainer(pod: OomPod, container: ContainerResources): boolean {
  return container.restartPolicy === 'Always' && pod.initContainers.some((c) => c.name === container.name)
}

/** getContainerOOMScoreAdjust returns the container's oom_score_adj for a node of `memoryCapacity` bytes. */
export function getContainerOOMScoreAdjust(pod: OomPod, container: ContainerResources, memoryCapacity: bigint): number {
  if (isNodeCriticalPod(pod)) return GUARANTEED_OOM_SCORE_ADJ
  const qos = getPodQOS(pod)
  if (qos === 'Guaranteed') return GUARANTEED_OOM_SCORE_ADJ
  if (qos === 'BestEffort') return BESTEFFORT_OOM_SCORE_ADJ
  // Go integer division truncates; all operands are non-negative here, so bigint division matches.
  let adj = 1000n - (1000n * memoryRequest(container)) / memoryCapacity
  if (isSidecarContainer(pod, container)) {
    const first = pod.containers[0]
    let min = first ? memoryRequest(first) : 0n
    for (const c of pod.containers.slice(1)) if (memoryRequest(c) < min) min = memoryRequest(c)
    const regular = 1000n - (1000n * min) / memoryCapacity
    if (adj > regular) adj = regular
  }
  if (adj < BigInt(1000 + GUARANTEED_OOM_SCORE_ADJ)) return 1000 + GUARANTEED_OOM_SCORE_ADJ
  if (adj === BigInt(BESTEFFORT_OOM_SCORE_ADJ)) return BESTEFFORT_OOM_SCORE_ADJ - 1
  return Number(adj)
}

export type OomPreview = {
  qosClass: QosClass
  containers: { name: string; oomScoreAdj: number }[]
  maxOomScoreAdj: number
}

/** previewOOMScores lists each container's oom_score_adj and the pod's highest ("who dies first" under OOM). */
export function previewOOMScores(pod: OomPod, memoryCapacity: bigint): OomPreview {
  const containers = [...pod.initContainers, ...pod.containers].map((c) => ({
    name: c.name,
    oomScoreAdj: getContainerOOMScoreAdjust(pod, c, memoryCapacity),
  }))
  const maxOomScoreAdj = Math.max(...containers.map((c) => c.oomScoreAdj), GUARANTEED_OOM_SCORE_ADJ)
  return { qosClass: getPodQOS(pod), containers, maxOomScoreAdj }
}
