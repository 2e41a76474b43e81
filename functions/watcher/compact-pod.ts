import { type SlimPod, SlimPodSchema } from '../../shared/messages/index.ts'

/**
 * How the slim cache keeps 150,000 pods small. A slim pod splits in two: the fields nearly every
 * pod has to itself (name, uid, creation and start times) stay with the pod as one short JSON
 * string, and everything else — labels, owners, tolerations, container resources, priority, phase —
 * is its *shape*, one JSON string shared (interned, reference-counted) by every pod that has the
 * same: the replicas of a ReplicaSet in the same phase share one. `nodeName` is kept by the cache's
 * per-node index. decodePod(encodePod(p)) equals p, with keys in SlimPodSchema order.
 */

/** The SlimPod keys in schema order (the order decoded pods get). */
const POD_KEYS = Object.keys(SlimPodSchema.shape) as (keyof SlimPod)[]
/** Fields kept per pod, in this order, in its own JSON array. */
const OWN_KEYS = ['name', 'uid', 'creationTimestamp', 'startTime'] as const satisfies readonly (keyof SlimPod)[]
const OWN_INDEX = new Map<keyof SlimPod, number>(OWN_KEYS.map((k, i) => [k, i]))
const SHAPE_KEYS = POD_KEYS.filter((k) => k !== 'nodeName' && !OWN_INDEX.has(k))

/** Shape: the shared part of pods, with the count of cached pods that use it. */
export type Shape = { readonly json: string; readonly namespace: string; refs: number }

/** encodePod splits a slim pod into its shape's JSON and its own fields' JSON (nodeName is left out). */
export function encodePod(pod: SlimPod): { shape: string; own: string } {
  const shape: Record<string, unknown> = {}
  for (const k of SHAPE_KEYS) {
    const v = pod[k]
    if (v !== undefined) shape[k] = v
  }
  return {
    shape: JSON.stringify(shape),
    own: JSON.stringify([pod.name, pod.uid, pod.creationTimestamp ?? null, pod.startTime ?? null]),
  }
}

/** decodePod rebuilds the slim pod from its shape, its own fields and its node. */
export function decodePod(shape: Shape, own: string, nodeName: string): SlimPod {
  const shared = JSON.parse(shape.json) as Record<string, unknown>
  const mine = JSON.parse(own) as (string | null)[]
  const pod: Record<string, unknown> = {}
  for (const k of POD_KEYS) {
    const i = OWN_INDEX.get(k)
    const v = k === 'nodeName' ? nodeName : i === undefined ? shared[k] : mine[i]
    if (v !== undefined && v !== null) pod[k] = v
  }
  return pod as SlimPod
}

/** ShapeTable interns shapes: one string per distinct shape, forgotten when its last pod goes. */
export class ShapeTable {
  private readonly shapes = new Map<string, Shape>()

  /** acquire returns the interned shape for this JSON and counts one more pod on it. */
  acquire(json: string, namespace: string): Shape {
    let shape = this.shapes.get(json)
    if (!shape) {
      shape = { json, namespace, refs: 0 }
      this.shapes.set(json, shape)
    }
    shape.refs++
    return shape
  }

  /** release counts one pod less on a shape and forgets it at zero. */
  release(shape: Shape): void {
    if (--shape.refs <= 0) this.shapes.delete(shape.json)
  }

  /** size is the number of distinct shapes held. */
  get size(): number {
    return this.shapes.size
  }
}
