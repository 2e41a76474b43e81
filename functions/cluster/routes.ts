/** Parses an API path into the resource it addresses (`/api/v1/namespaces/ns/pods/p/eviction`). */
import type { ResourceDef } from './resources.ts'
import { ApiError } from './status.ts'
import type { ObjectStore } from './store.ts'

export type ResourceRoute = {
  def: ResourceDef
  namespace: string
  name?: string
  subresource?: string
  /** path segments after the subresource (`proxy/stats/summary` → ['stats', 'summary']). */
  rest: string[]
}

/** notFoundPath is the upstream 404 for a path no handler serves. */
export function notFoundPath(): ApiError {
  return new ApiError(404, 'NotFound', 'the server could not find the requested resource', {})
}

/** parseResourcePath maps an `/api/v1/…` or `/apis/g/v/…` path to a route; undefined for other paths. */
export function parseResourcePath(store: ObjectStore, path: string): ResourceRoute | undefined {
  const parts = path
    .split('/')
    .filter((p) => p !== '')
    .map(decodeURIComponent)
  let group: string
  let version: string
  let rest: string[]
  if (parts[0] === 'api' && parts.length >= 3) {
    group = ''
    version = parts[1] as string
    rest = parts.slice(2)
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    group = parts[1] as string
    version = parts[2] as string
    rest = parts.slice(3)
  } else return undefined
  let namespace = ''
  if (
    rest[0] === 'namespaces' &&
    rest.length >= 3 &&
    !(rest.length === 3 && (rest[2] === 'status' || rest[2] === 'finalize'))
  ) {
    namespace = rest[1] as string
    rest = rest.slice(2)
  }
  const resource = rest[0] as string
  const def = store.lookup(group, version, resource)
  if (!def) {
    const gv = group ? `${group}/${version}` : version
    throw new ApiError(404, 'NotFound', `the server could not find the requested resource (${resource} in ${gv})`, {})
  }
  if (namespace && !def.namespaced) throw notFoundPath()
  const route: ResourceRoute = { def, namespace, rest: rest.slice(3) }
  if (rest[1] !== undefined) route.name = rest[1]
  if (rest[2] !== undefined) {
    if (!def.subresources.includes(rest[2])) throw notFoundPath()
    route.subresource = rest[2]
  }
  return route
}
