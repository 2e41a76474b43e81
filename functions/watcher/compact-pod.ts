import { type SlimPod, SlimPodSchema } from '../../shared/messages/index.ts'

/**
 * How the slim cache keeps 150,000 pods small. A slim pod splits in two: the fields nearly every
 * pod has to itself (name, uid, creation and start times) stay with the pod as one short JSON
 * string, and everything else — labels, owners, tolerations, container resources, local volume
 * names, priority, phase — is its *shape*, one JSON string shared (interned, reference-counted) by
 * every pod that has the same: the replicas of a ReplicaSet in the same phase share one (their
 * volume names come from the template). `nodeName` is kept by the cache's per-node index.
 * decodePod(encodePod(p)) equals p, with keys in SlimPodSchema order.
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
  // `own` is joined from its JSON-encoded fields: join allocates the string at its exact length,
  // where JSON.stringify's result keeps ~100 bytes of spare buffer (this string is kept per pod).
  const own = [pod.name, pod.uid, pod.creationTimestamp ?? null, pod.startTime ?? null]
    .map((v) => JSON.stringify(v))
    .join(',')
  return { shape: JSON.stringify(shape), own }
}

/** decodePod rebuilds the slim pod from its shape, its own fields and its node. */
export function decodePod(shape: Shape, own: string, nodeName: string): SlimPod {
  const shared = JSON.parse(shape.json) as Record<string, unknown>
  const mine = JSON.parse(`[${own}]`) as (string | null)[]
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
      shape = { json: exactCopy(json), namespace, refs: 0 }
      this.shapes.set(shape.json, shape)
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

/** The pods bound to one node as parallel arrays — no object per pod: key, shape and own fields at one index. */
type NodePods = { readonly name: string; keys: string[]; shapes: Shape[]; owns: string[] }

/**
 * PodStore keeps bound pods compactly, indexed by key and by node. A pod costs its key, one map
 * entry, three array slots and its own-fields string; its shape is shared. `upsert` and `delete`
 * return the nodes whose pod list changed (empty when the pod is unchanged: equal encodings).
 */
export class PodStore {
  private readonly byKey = new Map<string, NodePods>()
  private readonly byNode = new Map<string, NodePods>()
  private readonly shapes = new ShapeTable()

  /** upsert stores a pod bound to `pod.nodeName` and returns the nodes whose pods changed. */
  upsert(key: string, pod: SlimPod & { nodeName: string }): string[] {
    const { shape, own } = encodePod(pod)
    const from = this.byKey.get(key)
    const i = from ? from.keys.indexOf(key) : -1
    if (from && from.name === pod.nodeName) {
      const before = from.shapes[i] as Shape
      if (from.owns[i] === own && before.json === shape) return []
      from.shapes[i] = this.shapes.acquire(shape, pod.namespace)
      from.owns[i] = own
      this.shapes.release(before)
      return [from.name]
    }
    const stored = from ? (from.keys[i] as string) : exactCopy(key)
    if (from) this.removeAt(from, i)
    let to = this.byNode.get(pod.nodeName)
    if (!to) {
      to = { name: pod.nodeName, keys: [], shapes: [], owns: [] }
      this.byNode.set(to.name, to)
    }
    to.keys.push(stored)
    to.shapes.push(this.shapes.acquire(shape, pod.namespace))
    to.owns.push(own)
    this.byKey.set(stored, to)
    return from ? [from.name, to.name] : [to.name]
  }

  /** delete forgets a pod and returns the node it was on (undefined when unknown). */
  delete(key: string): string | undefined {
    const from = this.byKey.get(key)
    if (!from) return undefined
    this.removeAt(from, from.keys.indexOf(key))
    this.byKey.delete(key)
    return from.name
  }

  /** podsOn decodes the pods bound to a node, sorted by key. */
  podsOn(nodeName: string): SlimPod[] {
    const on = this.byNode.get(nodeName)
    if (!on) return []
    const order = on.keys.map((_, i) => i).sort((a, b) => compare(on.keys[a] as string, on.keys[b] as string))
    return order.map((i) => decodePod(on.shapes[i] as Shape, on.owns[i] as string, on.name))
  }

  /** nodesWith returns the nodes running a pod of `namespace` whose shape passes `test` (each shape tested once). */
  nodesWith(namespace: string, test: (shape: Shape) => boolean, into: Set<string>): void {
    const tested = new Map<Shape, boolean>()
    for (const on of this.byNode.values()) {
      if (into.has(on.name)) continue
      for (const shape of on.shapes) {
        if (shape.namespace !== namespace) continue
        let hit = tested.get(shape)
        if (hit === undefined) {
          hit = test(shape)
          tested.set(shape, hit)
        }
        if (hit) {
          into.add(on.name)
          break
        }
      }
    }
  }

  keys(): string[] {
    return [...this.byKey.keys()]
  }

  get size(): number {
    return this.byKey.size
  }

  /** shapeCount is the number of distinct shapes held (how well pods share). */
  get shapeCount(): number {
    return this.shapes.size
  }

  /** removeAt takes index i out of a node's arrays (the last pod moves into its place). */
  private removeAt(on: NodePods, i: number): void {
    this.shapes.release(on.shapes[i] as Shape)
    const last = on.keys.length - 1
    if (i !== last) {
      on.keys[i] = on.keys[last] as string
      on.shapes[i] = on.shapes[last] as Shape
      on.owns[i] = on.owns[last] as string
    }
    on.keys.pop()
    on.shapes.pop()
    on.owns.pop()
    if (on.keys.length === 0) this.byNode.delete(on.name)
  }
}

/**
 * exactCopy returns a flat copy of a string at its exact length, for strings the cache keeps: a key
 * built with a template literal is a rope (a cons string) and JSON.stringify leaves spare capacity.
 */
function exactCopy(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
