import * as z from 'zod'
import { type SlimPod, SlimPodSchema } from '../messages/index.ts'
import { POD_ANNOTATIONS_KEPT } from '../messages/node-view.ts'
import { localVolumeNames } from './local-volumes.ts'
import { arr, bool, num, obj, put, type Raw, str, stringMap } from './raw.ts'
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

// The trimmed objects below leave out undefined fields (`put`) instead of copying through
// `defined`: the schema would keep an undefined-valued key, and builds its output in its own key
// order. Equivalence with the literal-plus-`defined` form: test/unit/policy/kube-slim-compiled.test.ts.

function containers(v: unknown, object: string, field: string): Raw[] {
  const list = arr(v)
  const out: Raw[] = new Array(list.length)
  for (let i = 0; i < list.length; i++) {
    const o = obj(list[i]) ?? {}
    const res = obj(o.resources)
    const c: Raw = { name: str(o.name) ?? `#${i}` }
    if (res) {
      put(c, 'requests', resourceList(res.requests, object, `${field}[${i}].resources.requests`))
      put(c, 'limits', resourceList(res.limits, object, `${field}[${i}].resources.limits`))
    }
    put(c, 'restartPolicy', str(o.restartPolicy))
    out[i] = c
  }
  return out
}

function tolerations(v: unknown): Raw[] {
  const list = arr(v)
  const out: Raw[] = new Array(list.length)
  for (let i = 0; i < list.length; i++) {
    const o = obj(list[i]) ?? {}
    const t: Raw = {}
    put(t, 'key', str(o.key))
    put(t, 'operator', str(o.operator))
    put(t, 'value', str(o.value))
    put(t, 'effect', str(o.effect))
    if (typeof o.tolerationSeconds === 'number') t.tolerationSeconds = o.tolerationSeconds
    out[i] = t
  }
  return out
}

function owners(v: unknown): Raw[] {
  const list = arr(v)
  const out: Raw[] = new Array(list.length)
  for (let i = 0; i < list.length; i++) {
    const r = obj(list[i])
    const owner: Raw = { kind: str(r?.kind) ?? '', name: str(r?.name) ?? '' }
    put(owner, 'controller', bool(r?.controller))
    out[i] = owner
  }
  return out
}

/** conditionOf: the first pod condition of that type. */
function conditionOf(status: Raw | undefined, type: string): Raw | undefined {
  for (const c of arr(status?.conditions)) {
    const x = obj(c)
    if (x?.type === type) return x
  }
  return undefined
}

/** isReady: some Ready condition is True. */
function isReady(status: Raw | undefined): boolean {
  for (const c of arr(status?.conditions)) {
    const x = obj(c)
    if (x?.type === 'Ready' && x.status === 'True') return true
  }
  return false
}

/** finishedAt: the DisruptionTarget condition's time, else the latest container termination. */
function finishedAt(status: Raw | undefined): string | undefined {
  const at = str(conditionOf(status, 'DisruptionTarget')?.lastTransitionTime)
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
  const trimmed: Raw = {
    namespace: ns,
    name,
    uid: str(meta?.uid) ?? `unknown:${ns}/${name}`,
    labels: stringMap(meta?.labels),
    annotations: stringMap(meta?.annotations, keepAnnotation),
    owners: owners(meta?.ownerReferences),
    tolerations: tolerations(spec?.tolerations),
    containers: containers(spec?.containers, id, 'spec.containers'),
    initContainers: containers(spec?.initContainers, id, 'spec.initContainers'),
    ready: isReady(status),
  }
  put(trimmed, 'nodeName', str(spec?.nodeName) || undefined)
  put(trimmed, 'priority', num(spec?.priority))
  put(trimmed, 'priorityClassName', str(spec?.priorityClassName))
  put(trimmed, 'overhead', resourceList(spec?.overhead, id, 'spec.overhead'))
  put(trimmed, 'qosClass', str(status?.qosClass))
  put(trimmed, 'phase', str(status?.phase))
  put(trimmed, 'reason', str(status?.reason))
  put(trimmed, 'hostNetwork', bool(spec?.hostNetwork))
  put(trimmed, 'terminationGracePeriodSeconds', num(spec?.terminationGracePeriodSeconds))
  put(trimmed, 'creationTimestamp', str(meta?.creationTimestamp))
  put(trimmed, 'startTime', str(status?.startTime))
  put(trimmed, 'deletionTimestamp', str(meta?.deletionTimestamp))
  put(trimmed, 'finishedAt', finishedAt(status))
  put(trimmed, 'localVolumes', localVolumeNames(spec?.volumes))
  return parseSlim(CompiledSlimPodSchema, trimmed, id)
}
