import type { ContainerResources, ResourceList, SlimPod } from '../messages/index.ts'
import { addQuantities, compareQuantities, isPositive, parseQuantity, type Quantity } from './quantity.ts'

/**
 * QoS class as upstream `GetPodQOS` / `ComputePodQOS` (pkg/apis/core/v1/helper/qos/qos.go),
 * container-level (the PodLevelResources gate is off in the v1.30–v1.32 baseline).
 */

export type QosClass = 'Guaranteed' | 'Burstable' | 'BestEffort'
const QOS_RESOURCES = ['cpu', 'memory'] as const

function addCounted(sum: Map<string, Quantity>, list: ResourceList | undefined): Set<string> {
  const found = new Set<string>()
  for (const name of QOS_RESOURCES) {
    const text = list?.[name]
    if (text === undefined) continue
    const q = parseQuantity(text)
    if (!isPositive(q)) continue
    found.add(name)
    const prev = sum.get(name)
    sum.set(name, prev ? addQuantities(prev, q) : q)
  }
  return found
}

/** computePodQOS derives the class from cpu/memory requests and limits of containers and init containers. */
export function computePodQOS(pod: Pick<SlimPod, 'containers' | 'initContainers'>): QosClass {
  const requests = new Map<string, Quantity>()
  const limits = new Map<string, Quantity>()
  let guaranteed = true
  const all: ContainerResources[] = [...pod.containers, ...pod.initContainers]
  for (const c of all) {
    addCounted(requests, c.requests)
    const found = addCounted(limits, c.limits)
    if (!found.has('cpu') || !found.has('memory')) guaranteed = false
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort'
  if (guaranteed) {
    for (const [name, req] of requests) {
      const lim = limits.get(name)
      if (!lim || compareQuantities(lim, req) !== 0) guaranteed = false
    }
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable'
}

/** getPodQOS returns `status.qosClass` when the API server reported it, else computes it. */
export function getPodQOS(pod: Pick<SlimPod, 'containers' | 'initContainers' | 'qosClass'>): QosClass {
  return pod.qosClass ?? computePodQOS(pod)
}
