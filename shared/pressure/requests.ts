import type { ContainerResources, SlimPod } from '../messages/index.ts'
import { addQuantities, compareQuantities, parseQuantity, type Quantity, ZERO_QUANTITY } from '../policy/quantity.ts'

/**
 * podRequest is upstream `GetResourceRequestQuantity` (pkg/api/v1/resource, via component-helpers
 * `PodRequests`): max(sum of regular containers + sidecars, max over init containers of their request
 * plus the sidecars started before them), plus `spec.overhead`. A resource nobody requests is 0.
 */
export function podRequest(
  pod: Pick<SlimPod, 'containers' | 'initContainers' | 'overhead'>,
  resource: string,
): Quantity {
  const req = (c: ContainerResources): Quantity => {
    const text = c.requests?.[resource]
    return text === undefined ? ZERO_QUANTITY : parseQuantity(text)
  }
  let total = ZERO_QUANTITY
  for (const c of pod.containers) total = addQuantities(total, req(c))
  let sidecars = ZERO_QUANTITY
  let initMax = ZERO_QUANTITY
  for (const c of pod.initContainers) {
    let candidate: Quantity
    if (c.restartPolicy === 'Always') {
      total = addQuantities(total, req(c))
      sidecars = addQuantities(sidecars, req(c))
      candidate = sidecars
    } else {
      candidate = addQuantities(req(c), sidecars)
    }
    if (compareQuantities(candidate, initMax) > 0) initMax = candidate
  }
  if (compareQuantities(initMax, total) > 0) total = initMax
  const overhead = pod.overhead?.[resource]
  return overhead === undefined ? total : addQuantities(total, parseQuantity(overhead))
}
