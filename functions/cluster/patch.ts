/**
 * The three PATCH types the API server accepts: JSON patch (RFC 6902, via fast-json-patch),
 * JSON merge patch (RFC 7386) and strategic merge patch for the fields nodewarden and kubectl touch
 * (k8s.io/apimachinery/pkg/util/strategicpatch: merge keys, `$patch`, `$retainKeys`,
 * `$setElementOrder`, `$deleteFromPrimitiveList`, null deletes).
 */
import fastJsonPatch from 'fast-json-patch'
import { ApiError, badRequest } from './status.ts'

const { applyPatch, JsonPatchError } = fastJsonPatch

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type JsonObject = { [key: string]: Json }
export type PatchType = 'json' | 'merge' | 'strategic' | 'apply'

const CONTENT_TYPES: Record<string, PatchType> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
}

/** toPatchType maps a Content-Type to a patch type, or throws the upstream 415. */
export function toPatchType(contentType: string | undefined): PatchType {
  const base = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
  const type = CONTENT_TYPES[base]
  if (!type)
    throw new ApiError(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json`,
    )
  return type
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** applyJsonPatch applies RFC 6902 operations; a failed `test` or a missing path is a 422 naming the operation. */
export function applyJsonPatch(doc: JsonObject, ops: unknown): JsonObject {
  if (!Array.isArray(ops)) throw badRequest('json: cannot unmarshal object into Go value of type jsonpatch.Patch')
  try {
    return applyPatch(doc, ops as never, true, true).newDocument as JsonObject
  } catch (err) {
    if (err instanceof JsonPatchError) {
      const op = err.operation as { op?: string; path?: string } | undefined
      const what =
        err.name === 'TEST_OPERATION_FAILED'
          ? `testing value ${op?.path} failed: test failed`
          : err.name === 'OPERATION_PATH_UNRESOLVABLE' || err.name === 'OPERATION_PATH_CANNOT_ADD'
            ? `doc is missing path: "${op?.path}": missing value`
            : `${err.name}: ${err.message.split('\n')[0]}`
      const status = err.name.startsWith('OPERATION_') && err.name !== 'OPERATION_PATH_UNRESOLVABLE' ? 400 : 422
      if (status === 400) throw badRequest(`the server rejected our request due to an error in our request: ${what}`)
      throw new ApiError(422, 'Invalid', `the server rejected our request due to an error in our request: ${what}`)
    }
    // fast-json-patch fails with a plain TypeError on some well-formed operations (a `move` into its own child,
    // a `move`/`copy` replacing the whole document): still the request's error, never the server's.
    throw new ApiError(
      422,
      'Invalid',
      `the server rejected our request due to an error in our request: ${(err as Error).message}`,
    )
  }
}

/** applyMergePatch applies an RFC 7386 JSON merge patch: objects merge, null deletes, everything else replaces. */
export function applyMergePatch(target: Json, patch: Json): Json {
  if (!isObject(patch)) return patch
  const out: JsonObject = isObject(target) ? { ...target } : {}
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k]
    else out[k] = applyMergePatch(out[k] ?? null, v)
  }
  return out
}

/** stripDirectives removes `$patch`/`$retainKeys`/`$setElementOrder/…` keys so they are never stored. */
function stripDirectives(v: Json): Json {
  if (Array.isArray(v)) return v.filter((e) => !(isObject(e) && e.$patch === 'delete')).map(stripDirectives)
  if (!isObject(v)) return v
  const out: JsonObject = {}
  for (const [k, val] of Object.entries(v)) {
    if (k.startsWith('$')) continue
    if (val === null) continue
    out[k] = stripDirectives(val)
  }
  return out
}

/** PRIMITIVE_MERGE lists lists of scalars that merge as sets (patchStrategy=merge without a key). */
const PRIMITIVE_MERGE = new Set(['metadata.finalizers', 'spec.podCIDRs'])

/**
 * applyStrategicMergePatch merges `patch` into `original` using `mergeKeys` (dotted path → merge key);
 * lists without a merge key are replaced whole, as upstream does for `spec.taints` and `spec.tolerations`.
 */
export function applyStrategicMergePatch(original: JsonObject, patch: unknown, mergeKeys: Record<string, string>) {
  if (!isObject(patch)) throw badRequest('strategic merge patch body must be a JSON object')
  const out = mergeMap(original, patch, '', mergeKeys)
  if (out === undefined) throw badRequest('strategic merge patch may not delete the whole object')
  return out
}

function mergeMap(
  original: JsonObject,
  patch: JsonObject,
  path: string,
  keys: Record<string, string>,
): JsonObject | undefined {
  const directive = patch.$patch
  if (directive === 'delete') return undefined
  if (directive === 'replace') return stripDirectives(patch) as JsonObject
  if (directive !== undefined && directive !== 'merge') throw badRequest(`unknown patch type: ${String(directive)}`)
  const out: JsonObject = { ...original }
  for (const [key, value] of Object.entries(patch)) {
    const child = path ? `${path}.${key}` : key
    if (key.startsWith('$deleteFromPrimitiveList/')) {
      const field = key.slice('$deleteFromPrimitiveList/'.length)
      const list = out[field]
      if (Array.isArray(list) && Array.isArray(value)) out[field] = list.filter((e) => !value.includes(e))
      continue
    }
    // Other directives ($patch, $retainKeys, $setElementOrder/…) are never stored as fields.
    if (key.startsWith('$')) continue
    if (value === null) {
      delete out[key]
      continue
    }
    const current = out[key]
    if (Array.isArray(value)) {
      out[key] = mergeList(Array.isArray(current) ? current : [], value, child, keys)
    } else if (isObject(value)) {
      const merged = mergeMap(isObject(current) ? current : {}, value, child, keys)
      if (merged === undefined) delete out[key]
      else out[key] = merged
    } else out[key] = value
  }
  const retain = patch.$retainKeys
  if (Array.isArray(retain)) {
    for (const k of Object.keys(out)) if (!retain.includes(k)) delete out[k]
  }
  return out
}

function mergeList(original: Json[], patch: Json[], path: string, keys: Record<string, string>): Json[] {
  if (patch.some((e) => isObject(e) && e.$patch === 'replace')) {
    return stripDirectives(patch.filter((e) => !(isObject(e) && e.$patch === 'replace'))) as Json[]
  }
  if (PRIMITIVE_MERGE.has(path)) return [...original, ...patch.filter((e) => !original.includes(e))]
  const key = keys[path]
  if (!key) return stripDirectives(patch) as Json[]
  const out = [...original]
  for (const el of patch) {
    if (!isObject(el)) throw badRequest(`${path}: expected objects with merge key "${key}", got ${JSON.stringify(el)}`)
    const id = el[key]
    if (id === undefined) throw badRequest(`${path}: map is missing the merge key "${key}"`)
    const at = out.findIndex((o) => isObject(o) && o[key] === id)
    if (el.$patch === 'delete') {
      if (at >= 0) out.splice(at, 1)
      continue
    }
    if (at >= 0) {
      const merged = mergeMap(out[at] as JsonObject, el, path, keys)
      if (merged === undefined) out.splice(at, 1)
      else out[at] = merged
    } else out.push(stripDirectives(el))
  }
  return out
}
