/** The resource types the emulator serves: one registry drives routing, discovery and storage. */

export type ResourceDef = {
  group: string
  version: string
  /** plural, lower-case: the path segment (`pods`). */
  resource: string
  singular: string
  kind: string
  listKind: string
  namespaced: boolean
  shortNames?: string[]
  categories?: string[]
  /** subresources beyond the main one: `status`, `eviction`, `proxy`. */
  subresources: string[]
  /** merge keys for strategic merge patch, by dotted path (`spec.containers` → `name`); absent = replace. */
  mergeKeys: Record<string, string>
  /** false for custom resources: strategic merge patch is refused like upstream. */
  strategicMerge: boolean
  /** top-level fields an object may carry besides apiVersion/kind/metadata (unknown field check). */
  topLevel: string[]
}

const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']
export const RESOURCE_VERBS = VERBS

const podKeys = {
  'spec.containers': 'name',
  'spec.initContainers': 'name',
  'spec.ephemeralContainers': 'name',
  'spec.volumes': 'name',
  'spec.imagePullSecrets': 'name',
  'spec.containers.env': 'name',
  'spec.containers.ports': 'containerPort',
  'spec.containers.volumeMounts': 'mountPath',
  'spec.initContainers.env': 'name',
  'status.conditions': 'type',
}
const common = { 'metadata.ownerReferences': 'uid', 'status.conditions': 'type' }

function def(
  group: string,
  resource: string,
  kind: string,
  namespaced: boolean,
  extra: Partial<ResourceDef> = {},
): ResourceDef {
  return {
    group,
    version: 'v1',
    resource,
    singular: kind.toLowerCase(),
    kind,
    listKind: `${kind}List`,
    namespaced,
    subresources: [],
    mergeKeys: common,
    strategicMerge: true,
    topLevel: ['spec', 'status'],
    ...extra,
  }
}

const eventFields = [
  'involvedObject',
  'reason',
  'message',
  'source',
  'firstTimestamp',
  'lastTimestamp',
  'count',
  'type',
  'eventTime',
  'series',
  'action',
  'related',
  'reportingComponent',
  'reportingInstance',
]
const eventsV1Fields = [
  'eventTime',
  'series',
  'reportingController',
  'reportingInstance',
  'action',
  'reason',
  'regarding',
  'related',
  'note',
  'type',
  'deprecatedSource',
  'deprecatedFirstTimestamp',
  'deprecatedLastTimestamp',
  'deprecatedCount',
]

/** BUILTIN_RESOURCES lists the built-in types, in discovery order. */
export const BUILTIN_RESOURCES: ResourceDef[] = [
  def('', 'namespaces', 'Namespace', false, { shortNames: ['ns'], subresources: ['status'] }),
  def('', 'nodes', 'Node', false, {
    shortNames: ['no'],
    subresources: ['status', 'proxy'],
    mergeKeys: { ...common, 'status.addresses': 'type', 'status.images': '' },
  }),
  def('', 'pods', 'Pod', true, {
    shortNames: ['po'],
    categories: ['all'],
    subresources: ['status', 'eviction'],
    mergeKeys: { ...common, ...podKeys },
  }),
  def('', 'secrets', 'Secret', true, { topLevel: ['data', 'stringData', 'type', 'immutable'] }),
  def('', 'configmaps', 'ConfigMap', true, { shortNames: ['cm'], topLevel: ['data', 'binaryData', 'immutable'] }),
  def('', 'events', 'Event', true, { shortNames: ['ev'], topLevel: eventFields }),
  def('coordination.k8s.io', 'leases', 'Lease', true, { topLevel: ['spec'] }),
  def('policy', 'poddisruptionbudgets', 'PodDisruptionBudget', true, {
    shortNames: ['pdb'],
    subresources: ['status'],
  }),
  def('apps', 'daemonsets', 'DaemonSet', true, {
    shortNames: ['ds'],
    categories: ['all'],
    subresources: ['status'],
  }),
  def('apps', 'replicasets', 'ReplicaSet', true, {
    shortNames: ['rs'],
    categories: ['all'],
    subresources: ['status'],
  }),
  def('events.k8s.io', 'events', 'Event', true, { shortNames: ['ev'], topLevel: eventsV1Fields }),
  def('apiextensions.k8s.io', 'customresourcedefinitions', 'CustomResourceDefinition', false, {
    shortNames: ['crd', 'crds'],
    subresources: ['status'],
  }),
]

/** apiVersionOf returns `v1` or `group/v1`. */
export function apiVersionOf(def: Pick<ResourceDef, 'group' | 'version'>): string {
  return def.group === '' ? def.version : `${def.group}/${def.version}`
}

/** resourceKey names a resource type uniquely: `pods`, `events.events.k8s.io`, `alertsubscriptions.nodewarden.io`. */
export function resourceKey(def: Pick<ResourceDef, 'group' | 'resource'>): string {
  return def.group === '' ? def.resource : `${def.resource}.${def.group}`
}

type CrdLike = {
  spec?: {
    group?: string
    names?: {
      plural?: string
      singular?: string
      kind?: string
      listKind?: string
      shortNames?: string[]
      categories?: string[]
    }
    scope?: string
    versions?: Array<{ name?: string; served?: boolean; storage?: boolean; subresources?: { status?: unknown } }>
  }
}

/** toCustomResourceDefs turns a CustomResourceDefinition into the resource types it serves (one per served version). */
export function toCustomResourceDefs(crd: CrdLike): ResourceDef[] {
  const spec = crd.spec ?? {}
  const names = spec.names ?? {}
  if (!spec.group || !names.plural || !names.kind) return []
  return (spec.versions ?? [])
    .filter((v) => v.served !== false && v.name)
    .map((v) => ({
      group: spec.group as string,
      version: v.name as string,
      resource: names.plural as string,
      singular: names.singular ?? (names.kind as string).toLowerCase(),
      kind: names.kind as string,
      listKind: names.listKind ?? `${names.kind}List`,
      namespaced: spec.scope !== 'Cluster',
      shortNames: names.shortNames,
      categories: names.categories,
      subresources: v.subresources?.status ? ['status'] : [],
      mergeKeys: {},
      strategicMerge: false,
      topLevel: [],
    }))
}
