import { isQuantity } from '../policy/quantity.ts'
import { obj, str } from './raw.ts'
import { SlimError } from './slim-error.ts'

/**
 * resourceList reads a ResourceList, rejecting any malformed quantity with the object and the
 * field path that holds it (`spec.containers[0].resources.limits.memory`).
 */
export function resourceList(v: unknown, object: string, path: string): Record<string, string> | undefined {
  const o = obj(v)
  if (!o) return undefined
  const out: Record<string, string> = {}
  for (const k in o) {
    const raw = o[k]
    const text = typeof raw === 'number' ? String(raw) : str(raw)
    if (text === undefined || !isQuantity(text))
      throw new SlimError(object, [`${path}.${k}: not a Kubernetes quantity: ${JSON.stringify(raw)}`])
    out[k] = text
  }
  return out
}
