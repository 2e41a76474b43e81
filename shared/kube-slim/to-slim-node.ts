import * as z from 'zod'
import { type SlimNode, SlimNodeSchema } from '../messages/index.ts'
import { arr, bool, defined, obj, str, stringMap } from './raw.ts'
import { resourceList } from './resources.ts'
import { parseSlim, SlimError } from './slim-error.ts'

/** SlimNodeSchema with zod's compiled fast path (`z.compile`): same validation, output and errors. */
export const CompiledSlimNodeSchema = z.compile(SlimNodeSchema)

/** keepNodeAnnotation: the node annotations a slim node carries. */
export const keepNodeAnnotation = (k: string) => k.startsWith('nodewarden.io/')
/** Condition messages can be long kernel log excerpts; the view keeps a readable prefix. */
export const MESSAGE_CHARS = 256

/**
 * toSlimNode trims a full Node to the fields policy reads and validates it; throws SlimError naming node and field.
 * What it reads must stay in step with `refreshSlimNode` (refresh-slim-node.ts), the watcher's heartbeat fast path.
 */
export function toSlimNode(object: unknown): SlimNode {
  const o = obj(object)
  const meta = obj(o?.metadata)
  const name = str(meta?.name)
  const id = `node ${name ?? '(unnamed)'}`
  if (!o || !name) throw new SlimError(id, ['metadata.name: required'])
  const spec = obj(o.spec)
  const status = obj(o.status)
  const trimmed = defined({
    name,
    uid: str(meta?.uid) ?? `unknown:${name}`,
    resourceVersion: str(meta?.resourceVersion) || '0',
    labels: stringMap(meta?.labels),
    annotations: stringMap(meta?.annotations, keepNodeAnnotation),
    taints: arr(spec?.taints).map((t) =>
      defined({
        key: str(obj(t)?.key),
        value: str(obj(t)?.value),
        effect: str(obj(t)?.effect),
        timeAdded: str(obj(t)?.timeAdded),
      }),
    ),
    conditions: arr(status?.conditions).map((c) => {
      const x = obj(c)
      return defined({
        type: str(x?.type),
        status: str(x?.status),
        reason: str(x?.reason),
        message: str(x?.message)?.slice(0, MESSAGE_CHARS),
        lastTransitionTime: str(x?.lastTransitionTime),
        lastHeartbeatTime: str(x?.lastHeartbeatTime),
      })
    }),
    unschedulable: bool(spec?.unschedulable) ?? false,
    capacity: resourceList(status?.capacity, id, 'status.capacity') ?? {},
    allocatable: resourceList(status?.allocatable, id, 'status.allocatable') ?? {},
    creationTimestamp: str(meta?.creationTimestamp),
  })
  return parseSlim(CompiledSlimNodeSchema, trimmed, id)
}
