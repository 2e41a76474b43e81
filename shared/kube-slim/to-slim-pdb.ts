import { type SlimPdb, SlimPdbSchema } from '../messages/index.ts'
import { defined, num, obj, str } from './raw.ts'
import { parseSlim, SlimError } from './slim-error.ts'

function intOrString(v: unknown): number | string | undefined {
  return typeof v === 'number' || typeof v === 'string' ? v : undefined
}

/** toSlimPdb trims a policy/v1 PodDisruptionBudget to what eviction planning reads; throws SlimError on a bad one. */
export function toSlimPdb(object: unknown): SlimPdb {
  const o = obj(object)
  const meta = obj(o?.metadata)
  const ns = str(meta?.namespace) ?? 'default'
  const name = str(meta?.name)
  const id = `poddisruptionbudget ${ns}/${name ?? '(unnamed)'}`
  if (!o || !name) throw new SlimError(id, ['metadata.name: required'])
  const spec = obj(o.spec)
  const status = obj(o.status)
  const trimmed = defined({
    namespace: ns,
    name,
    // policy/v1: a nil selector matches no pod, `{}` matches every pod (keep the distinction).
    selector: spec && 'selector' in spec ? (obj(spec.selector) ?? null) : null,
    minAvailable: intOrString(spec?.minAvailable),
    maxUnavailable: intOrString(spec?.maxUnavailable),
    unhealthyPodEvictionPolicy: str(spec?.unhealthyPodEvictionPolicy),
    disruptionsAllowed: num(status?.disruptionsAllowed),
    currentHealthy: num(status?.currentHealthy),
    desiredHealthy: num(status?.desiredHealthy),
    expectedPods: num(status?.expectedPods),
  })
  return parseSlim(SlimPdbSchema, trimmed, id)
}
