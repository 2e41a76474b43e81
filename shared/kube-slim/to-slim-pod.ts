import * as z from 'zod'
import { type SlimPod, SlimPodSchema } from '../messages/index.ts'
import { POD_ANNOTATIONS_KEPT } from '../messages/node-view.ts'
import { localVolumeNames } from './local-volumes.ts'
import { arr, bool, defined, num, obj, type Raw, str, stringMap } from './raw.ts'
import { resourceList } from './resources.ts'
import { parseSlim, SlimError } from './slim-error.ts'

/**
 * SlimPodSchema with zod's ahead-of-time compiled fast path (`z.compile`): the same validation and
 * output; an invalid pod falls back to the schema's own parser, so errors read the same
 * (equivalence: test/unit/policy/kube-slim-compiled.test.ts).
 */
export const CompiledSlimPodSchema = z.compile(SlimPodSchema)

const KEPT = new Set<string>(POD_ANNOTATIONS_KEPT)
const keepAnnotation = (k: string) => KEPT.has(k)

function containers(v: unknown, object: string, field: string) {
  return arr(v).map((c, i) => {
    const o = obj(c) ?? {}
    const res = obj(o.resources)
    const path = `${field}[${i}].resources`
    return defined({
      name: str(o.name) ?? `#${i}`,
      requests: resourceList(res?.requests, object, `${path}.requests`),
      limits: resourceList(res?.limits, object, `${path}.limits`),
      restartPolicy: str(o.restartPolicy),
    })
  })
}

function tolerations(v: unknown) {
  return arr(v).map((t) => {
    const o = obj(t) ?? {}
    const seconds = o.tolerationSeconds
    return defined({
      key: str(o.key),
      operator: str(o.operator),
      value: str(o.value),
      effect: str(o.effect),
      tolerationSeconds: typeof seconds === 'number' ? seconds : undefined,
    })
  })
}

/** finishedAt: the DisruptionTarget condition's time, else the latest container termination. */
function finishedAt(status: Raw | undefined): string | undefined {
  const target = arr(status?.conditions).find((c) => obj(c)?.type === 'DisruptionTarget')
  const at = str(obj(target)?.lastTransitionTime)
  if (at) return at
  let latest: string | undefined
  for (const cs of arr(status?.containerStatuses)) {
    const t = str(obj(obj(obj(cs)?.state)?.terminated)?.finishedAt)
    if (t && (!latest || t > latest)) latest = t
  }
  return latest
}

/** toSlimPod trims a full Pod to the fields policy reads and validates it; throws SlimError naming pod and field. */
export function toSlimPod(object: unknown): SlimPod {
  const o = obj(object)
  const meta = obj(o?.metadata)
  const ns = str(meta?.namespace) ?? 'default'
  const name = str(meta?.name)
  const id = `pod ${ns}/${name ?? '(unnamed)'}`
  if (!o || !name) throw new SlimError(id, ['metadata.name: required'])
  const spec = obj(o.spec)
  const status = obj(o.status)
  const trimmed = defined({
    namespace: ns,
    name,
    uid: str(meta?.uid) ?? `unknown:${ns}/${name}`,
    nodeName: str(spec?.nodeName) || undefined,
    labels: stringMap(meta?.labels),
    annotations: stringMap(meta?.annotations, keepAnnotation),
    owners: arr(meta?.ownerReferences).map((r) =>
      defined({ kind: str(obj(r)?.kind) ?? '', name: str(obj(r)?.name) ?? '', controller: bool(obj(r)?.controller) }),
    ),
    priority: num(spec?.priority),
    priorityClassName: str(spec?.priorityClassName),
    tolerations: tolerations(spec?.tolerations),
    containers: containers(spec?.containers, id, 'spec.containers'),
    initContainers: containers(spec?.initContainers, id, 'spec.initContainers'),
    overhead: resourceList(spec?.overhead, id, 'spec.overhead'),
    qosClass: str(status?.qosClass),
    phase: str(status?.phase),
    reason: str(status?.reason),
    ready: arr(status?.conditions).some((c) => obj(c)?.type === 'Ready' && obj(c)?.status === 'True'),
    hostNetwork: bool(spec?.hostNetwork),
    terminationGracePeriodSeconds: num(spec?.terminationGracePeriodSeconds),
    creationTimestamp: str(meta?.creationTimestamp),
    startTime: str(status?.startTime),
    deletionTimestamp: str(meta?.deletionTimestamp),
    finishedAt: finishedAt(status),
    localVolumes: localVolumeNames(spec?.volumes),
  })
  return parseSlim(CompiledSlimPodSchema, trimmed, id)
}
