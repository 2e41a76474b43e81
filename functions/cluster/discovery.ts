/**
 * Discovery documents kubectl and client libraries read (KUBECTL.md §2): legacy /api, /apis,
 * /api/v1, /apis/<g>/<v>, and aggregated discovery (apidiscovery.k8s.io v2 and v2beta1).
 */
import { RESOURCE_VERBS, type ResourceDef } from './resources.ts'

const SUB_KINDS: Record<string, { group: string; version: string; kind: string; verbs: string[] }> = {
  eviction: { group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'] },
  proxy: { group: '', version: 'v1', kind: 'NodeProxyOptions', verbs: ['create', 'delete', 'get', 'patch', 'update'] },
}

/** SERVER_VERSION is what `/version` reports; minor 32 makes kubectl's dispatcher run its default 1.32 client. */
export const SERVER_VERSION = {
  major: '1',
  minor: '32',
  gitVersion: 'v1.32.0-nodewarden-emulator',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2026-01-01T00:00:00Z',
  goVersion: 'go1.23.0',
  compiler: 'gc',
  platform: 'linux/amd64',
}

function subKind(def: ResourceDef, sub: string) {
  return SUB_KINDS[sub] ?? { group: def.group, version: def.version, kind: def.kind, verbs: ['get', 'patch', 'update'] }
}

/** groupVersions lists served group/versions (core excluded), sorted by group. */
function groupVersions(defs: ResourceDef[]): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (const d of defs) {
    if (d.group === '') continue
    const versions = out.get(d.group) ?? []
    if (!versions.includes(d.version)) versions.push(d.version)
    out.set(d.group, versions)
  }
  return out
}

/** legacyApiVersions renders `GET /api`. */
export function legacyApiVersions(host: string) {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: host }],
  }
}

/** legacyGroupList renders `GET /apis`. */
export function legacyGroupList(defs: ResourceDef[]) {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: [...groupVersions(defs)].map(([name, versions]) => ({
      name,
      versions: versions.map((v) => ({ groupVersion: `${name}/${v}`, version: v })),
      preferredVersion: { groupVersion: `${name}/${versions[0]}`, version: versions[0] },
    })),
  }
}

/** apiGroup renders `GET /apis/<group>`. */
export function apiGroup(defs: ResourceDef[], group: string) {
  const versions = groupVersions(defs).get(group)
  if (!versions) return undefined
  return {
    kind: 'APIGroup',
    apiVersion: 'v1',
    name: group,
    versions: versions.map((v) => ({ groupVersion: `${group}/${v}`, version: v })),
    preferredVersion: { groupVersion: `${group}/${versions[0]}`, version: versions[0] },
  }
}

/** resourceList renders `GET /api/v1` or `GET /apis/<g>/<v>` (APIResourceList), or undefined if not served. */
export function resourceList(defs: ResourceDef[], group: string, version: string) {
  const mine = defs.filter((d) => d.group === group && d.version === version)
  if (mine.length === 0) return undefined
  const resources: object[] = []
  for (const d of mine) {
    resources.push({
      name: d.resource,
      singularName: d.singular,
      namespaced: d.namespaced,
      kind: d.kind,
      verbs: RESOURCE_VERBS,
      ...(d.shortNames ? { shortNames: d.shortNames } : {}),
      ...(d.categories ? { categories: d.categories } : {}),
    })
    for (const sub of d.subresources) {
      const k = subKind(d, sub)
      resources.push({
        name: `${d.resource}/${sub}`,
        singularName: '',
        namespaced: d.namespaced,
        ...(sub === 'eviction' ? { group: k.group, version: k.version } : {}),
        kind: k.kind,
        verbs: k.verbs,
      })
    }
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: group ? `${group}/${version}` : version, resources }
}

function aggregatedResource(d: ResourceDef) {
  return {
    resource: d.resource,
    responseKind: { group: d.group, version: d.version, kind: d.kind },
    scope: d.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: d.singular,
    verbs: RESOURCE_VERBS,
    ...(d.shortNames ? { shortNames: d.shortNames } : {}),
    ...(d.categories ? { categories: d.categories } : {}),
    ...(d.subresources.length > 0
      ? {
          subresources: d.subresources.map((sub) => {
            const k = subKind(d, sub)
            return {
              subresource: sub,
              responseKind: { group: k.group, version: k.version, kind: k.kind },
              verbs: k.verbs,
            }
          }),
        }
      : {}),
  }
}

/** aggregatedDiscovery renders the APIGroupDiscoveryList for `/api` (core) or `/apis` (groups). */
export function aggregatedDiscovery(defs: ResourceDef[], core: boolean, apiVersion: 'v2' | 'v2beta1') {
  const items: object[] = []
  if (core) {
    items.push({
      metadata: { creationTimestamp: null },
      versions: [
        { version: 'v1', freshness: 'Current', resources: defs.filter((d) => d.group === '').map(aggregatedResource) },
      ],
    })
  } else {
    for (const [group, versions] of groupVersions(defs)) {
      items.push({
        metadata: { name: group, creationTimestamp: null },
        versions: versions.map((v) => ({
          version: v,
          freshness: 'Current',
          resources: defs.filter((d) => d.group === group && d.version === v).map(aggregatedResource),
        })),
      })
    }
  }
  return { kind: 'APIGroupDiscoveryList', apiVersion: `apidiscovery.k8s.io/${apiVersion}`, metadata: {}, items }
}

/** aggregatedVersionFromAccept returns the aggregated discovery version a client accepts, if any. */
export function aggregatedVersionFromAccept(accept: string | undefined): 'v2' | 'v2beta1' | undefined {
  if (!accept?.includes('as=APIGroupDiscoveryList')) return undefined
  if (/v=v2(;|,|$)/.test(accept.replace(/\s/g, ''))) return 'v2'
  if (accept.includes('v=v2beta1')) return 'v2beta1'
  return undefined
}
