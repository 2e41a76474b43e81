import type { ResourceList, SlimNode } from '../messages/index.ts'
import {
  addQuantities,
  compareQuantities,
  parseQuantity,
  type Quantity,
  quantityValue,
  subtractQuantities,
  ZERO_QUANTITY,
} from '../policy/quantity.ts'
import { isHardThreshold, type Threshold, thresholdQuantity } from './thresholds.ts'

/**
 * Allocatable audit (pkg/kubelet/cm/node_container_manager_linux.go `GetNodeAllocatableReservation`):
 * allocatable[r] = max(0, capacity − kubeReserved − systemReserved − hard eviction threshold), and for
 * memory every `hugepages-*` capacity is subtracted too. Soft thresholds do not reduce allocatable.
 */

export type AllocatableFinding = {
  resource: 'memory' | 'ephemeral-storage'
  problem: 'mismatch' | 'exceedsEvictionHeadroom' | 'noReservation'
  capacity: string
  allocatable: string
  hardEviction: string
  /** capacity − hard eviction − hugepages − allocatable: what the kubelet reserved for the system. */
  impliedReserved: string
  expected?: string
  message: string
}

const q = (list: ResourceList | undefined, r: string): Quantity | undefined => {
  const text = list?.[r]
  return text === undefined ? undefined : parseQuantity(text)
}
const show = (x: Quantity) => quantityValue(x).toString()
const max0 = (x: Quantity) => (x.num < 0n ? ZERO_QUANTITY : x)

function hardReservation(thresholds: Threshold[], signal: string, capacity: Quantity): Quantity {
  let out = ZERO_QUANTITY
  for (const t of thresholds)
    if (t.signal === signal && isHardThreshold(t)) out = thresholdQuantity(t.value, Number(quantityValue(capacity)))
  return out
}

/** auditAllocatable compares the node's allocatable with capacity − reserved − hard eviction thresholds. */
export function auditAllocatable(
  node: Pick<SlimNode, 'capacity' | 'allocatable'>,
  thresholds: Threshold[],
  reserved: { kubeReserved?: ResourceList; systemReserved?: ResourceList },
): AllocatableFinding[] {
  const findings: AllocatableFinding[] = []
  for (const [resource, signal] of [
    ['memory', 'memory.available'],
    ['ephemeral-storage', 'nodefs.available'],
  ] as const) {
    const capacity = q(node.capacity, resource)
    const allocatable = q(node.allocatable, resource)
    if (!capacity || !allocatable) continue
    const hard = hardReservation(thresholds, signal, capacity)
    let hugepages = ZERO_QUANTITY
    if (resource === 'memory')
      for (const [name, text] of Object.entries(node.capacity))
        if (name.startsWith('hugepages-')) hugepages = addQuantities(hugepages, parseQuantity(text))
    const headroom = subtractQuantities(subtractQuantities(capacity, hard), hugepages)
    const implied = subtractQuantities(headroom, allocatable)
    const base = {
      resource,
      capacity: show(capacity),
      allocatable: show(allocatable),
      hardEviction: show(hard),
      impliedReserved: implied.num < 0n ? `-${show({ num: -implied.num, den: implied.den })}` : show(implied),
    }
    const known = reserved.kubeReserved?.[resource] !== undefined || reserved.systemReserved?.[resource] !== undefined
    if (known) {
      const r = addQuantities(
        q(reserved.kubeReserved, resource) ?? ZERO_QUANTITY,
        q(reserved.systemReserved, resource) ?? ZERO_QUANTITY,
      )
      const expected = max0(subtractQuantities(max0(subtractQuantities(capacity, addQuantities(r, hard))), hugepages))
      if (compareQuantities(expected, allocatable) !== 0)
        findings.push({
          ...base,
          problem: 'mismatch',
          expected: show(expected),
          message: `${resource} allocatable ${show(allocatable)} ≠ capacity ${show(capacity)} − reserved ${show(r)} − hard eviction ${show(hard)}${resource === 'memory' ? ` − hugepages ${show(hugepages)}` : ''} = ${show(expected)}`,
        })
      continue
    }
    if (implied.num < 0n)
      findings.push({
        ...base,
        problem: 'exceedsEvictionHeadroom',
        message: `${resource} allocatable ${show(allocatable)} exceeds capacity ${show(capacity)} − hard eviction ${show(hard)}: the kubelet's hard eviction threshold is lower than configured here, or disabled`,
      })
    else if (implied.num === 0n)
      findings.push({
        ...base,
        problem: 'noReservation',
        message: `${resource}: no kube-reserved or system-reserved (allocatable = capacity − hard eviction ${show(hard)}); system daemons compete with pods for the last ${show(hard)}`,
      })
  }
  return findings
}
