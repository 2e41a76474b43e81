/**
 * What the API server rejects before storing: unknown fields (strict field validation), malformed
 * MicroTime, invalid taints, and pod spec changes other than those upstream allows
 * (pkg/apis/core/validation ValidatePodUpdate).
 */
import type { ResourceDef } from './resources.ts'
import { ApiError, badRequest, invalid, type StatusCause } from './status.ts'
import type { KubeObject } from './store.ts'

const META_FIELDS = new Set([
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
])
const TAINT_FIELDS = new Set(['key', 'value', 'effect', 'timeAdded'])
const TOLERATION_FIELDS = new Set(['key', 'operator', 'value', 'effect', 'tolerationSeconds'])
const NODE_SPEC_FIELDS = new Set([
  'podCIDR',
  'podCIDRs',
  'providerID',
  'unschedulable',
  'taints',
  'configSource',
  'externalID',
])
const EFFECTS = new Set(['NoSchedule', 'PreferNoSchedule', 'NoExecute'])

/** unknownFields lists fields no schema declares, as `.spec.foo`, for the kinds nodewarden writes. */
export function unknownFields(def: ResourceDef, obj: KubeObject): string[] {
  if (!def.strategicMerge) return []
  const out: string[] = []
  const top = new Set(['apiVersion', 'kind', 'metadata', ...def.topLevel])
  for (const k of Object.keys(obj)) if (!top.has(k)) out.push(`.${k}`)
  for (const k of Object.keys(obj.metadata ?? {})) if (!META_FIELDS.has(k)) out.push(`.metadata.${k}`)
  if (def.kind === 'Node' && def.group === '') {
    for (const k of Object.keys(obj.spec ?? {})) if (!NODE_SPEC_FIELDS.has(k)) out.push(`.spec.${k}`)
    ;(obj.spec?.taints ?? []).forEach((t: Record<string, unknown>, i: number) => {
      for (const k of Object.keys(t ?? {})) if (!TAINT_FIELDS.has(k)) out.push(`.spec.taints[${i}].${k}`)
    })
  }
  if (def.kind === 'Pod') {
    ;(obj.spec?.tolerations ?? []).forEach((t: Record<string, unknown>, i: number) => {
      for (const k of Object.keys(t ?? {})) if (!TOLERATION_FIELDS.has(k)) out.push(`.spec.tolerations[${i}].${k}`)
    })
  }
  return out
}

/** rejectUnknownFields throws the upstream strict-decoding 400 naming every unknown field. */
export function rejectUnknownFields(def: ResourceDef, obj: KubeObject): void {
  const unknown = unknownFields(def, obj)
  if (unknown.length === 0) return
  const list = unknown.map((f) => `unknown field "${f.slice(1)}"`).join(', ')
  throw badRequest(`strict decoding error: ${list}`)
}

/** pruneUnknownFields drops unknown fields (fieldValidation=Ignore/Warn) and returns their names. */
export function pruneUnknownFields(def: ResourceDef, obj: KubeObject): string[] {
  const unknown = unknownFields(def, obj)
  for (const f of unknown) {
    const parts = f.slice(1).split('.')
    let cur: KubeObject | undefined = obj
    for (const p of parts.slice(0, -1)) {
      const idx = /^(\w+)\[(\d+)\]$/.exec(p)
      cur = idx ? cur?.[idx[1] as string]?.[Number(idx[2])] : cur?.[p]
    }
    if (cur) delete cur[parts[parts.length - 1] as string]
  }
  return unknown
}

type FieldType = 'string' | 'integer' | 'boolean' | 'object' | 'stringMap' | 'objects' | 'strings' | 'intOrString'

/** The fields the emulator itself reads, with the Go types upstream decodes them into (ObjectMeta for every kind). */
const META_TYPES: Record<string, FieldType> = {
  'metadata.name': 'string',
  'metadata.generateName': 'string',
  'metadata.namespace': 'string',
  'metadata.uid': 'string',
  'metadata.resourceVersion': 'string',
  'metadata.creationTimestamp': 'string',
  'metadata.deletionTimestamp': 'string',
  'metadata.generation': 'integer',
  'metadata.deletionGracePeriodSeconds': 'integer',
  'metadata.labels': 'stringMap',
  'metadata.annotations': 'stringMap',
  'metadata.finalizers': 'strings',
  'metadata.ownerReferences': 'objects',
}
const STATUS_CONDITIONS: Record<string, FieldType> = {
  spec: 'object',
  status: 'object',
  'status.conditions': 'objects',
}
const FIELD_TYPES: Record<string, Record<string, FieldType>> = {
  Pod: {
    ...STATUS_CONDITIONS,
    'spec.nodeName': 'string',
    'spec.containers': 'objects',
    'spec.initContainers': 'objects',
    'spec.tolerations': 'objects',
    'spec.terminationGracePeriodSeconds': 'integer',
    'status.phase': 'string',
  },
  Node: {
    ...STATUS_CONDITIONS,
    'spec.taints': 'objects',
    'spec.unschedulable': 'boolean',
    'status.addresses': 'objects',
  },
  PodDisruptionBudget: {
    ...STATUS_CONDITIONS,
    'spec.selector': 'object',
    'spec.selector.matchLabels': 'stringMap',
    'spec.selector.matchExpressions': 'objects',
    'spec.minAvailable': 'intOrString',
    'spec.maxUnavailable': 'intOrString',
    'status.disruptedPods': 'stringMap',
    'status.disruptionsAllowed': 'integer',
    'status.currentHealthy': 'integer',
    'status.desiredHealthy': 'integer',
    'status.expectedPods': 'integer',
    'status.observedGeneration': 'integer',
  },
  ConfigMap: { data: 'stringMap', binaryData: 'stringMap' },
  Secret: { data: 'stringMap', stringData: 'stringMap', type: 'string' },
  Namespace: { spec: 'object', status: 'object' },
  Lease: { spec: 'object' },
  CustomResourceDefinition: { spec: 'object', 'spec.names': 'object', 'spec.versions': 'objects', status: 'object' },
}
const GO_TYPES: Record<FieldType, string> = {
  string: 'string',
  integer: 'int64',
  boolean: 'bool',
  object: 'struct',
  stringMap: 'map[string]string',
  objects: '[]struct',
  strings: '[]string',
  intOrString: 'intstr.IntOrString',
}

function hasType(value: unknown, type: FieldType): boolean {
  const isMap = typeof value === 'object' && value !== null && !Array.isArray(value)
  switch (type) {
    case 'string':
      return typeof value === 'string'
    case 'integer':
      return Number.isInteger(value)
    case 'boolean':
      return typeof value === 'boolean'
    case 'object':
      return isMap
    case 'stringMap':
      return isMap && Object.values(value).every((v) => typeof v === 'string')
    case 'objects':
      return Array.isArray(value) && value.every((v) => typeof v === 'object' && v !== null && !Array.isArray(v))
    case 'strings':
      return Array.isArray(value) && value.every((v) => typeof v === 'string')
    case 'intOrString':
      return Number.isInteger(value) || typeof value === 'string'
  }
}

function jsonTypeOf(value: unknown): string {
  if (Array.isArray(value)) return 'array'
  if (value === null) return 'null'
  return typeof value
}

/**
 * checkFieldTypes rejects a body whose fields have the wrong JSON type for the fields the emulator reads, as
 * upstream's decoder does (400 `cannot unmarshal … into Go struct field …`); nulls are absent fields.
 */
export function checkFieldTypes(def: ResourceDef, obj: KubeObject): void {
  const builtin = def.strategicMerge ? (FIELD_TYPES[def.kind] ?? {}) : {}
  for (const [path, type] of Object.entries({ ...META_TYPES, ...builtin })) {
    let value: unknown = obj
    for (const part of path.split('.')) {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        value = undefined
        break
      }
      value = (value as Record<string, unknown>)[part]
    }
    if (value === undefined || value === null || hasType(value, type)) continue
    throw badRequest(
      `${def.kind} in version "${def.version}" cannot be handled as a ${def.kind}: json: cannot unmarshal ${jsonTypeOf(value)} into Go struct field ${def.kind}.${path} of type ${GO_TYPES[type]}`,
    )
  }
}

const MICRO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}(Z|[+-]\d{2}:\d{2})$/

/** checkMicroTimes rejects MicroTime fields without six fractional digits, as Go's RFC3339Micro parser does. */
export function checkMicroTimes(def: ResourceDef, obj: KubeObject): void {
  const fields: Array<[string, unknown]> = []
  if (def.kind === 'Lease') {
    fields.push(['spec.acquireTime', obj.spec?.acquireTime], ['spec.renewTime', obj.spec?.renewTime])
  }
  if (def.kind === 'Event') fields.push(['eventTime', obj.eventTime])
  for (const [field, value] of fields) {
    if (value === undefined || value === null) continue
    if (typeof value !== 'string' || !MICRO.test(value))
      throw badRequest(
        `${def.kind} in version "${def.version}" cannot be handled as a ${def.kind}: ${field}: parsing time "${String(value)}" as "2006-01-02T15:04:05.000000Z07:00": cannot parse as RFC3339Micro`,
      )
  }
}

/** validateObject checks the fields nodewarden writes (names, taints) and returns the upstream 422 on failure. */
export function validateObject(def: ResourceDef, obj: KubeObject): void {
  const causes: Required<StatusCause>[] = []
  const name = obj.metadata?.name
  if (!name)
    causes.push(cause('metadata.name', 'Required value: name or generateName is required', 'FieldValueRequired'))
  if (def.kind === 'Node' && def.group === '') {
    const seen = new Set<string>()
    ;(obj.spec?.taints ?? []).forEach((t: { key?: string; effect?: string }, i: number) => {
      if (!t.key) causes.push(cause(`spec.taints[${i}].key`, 'Required value', 'FieldValueRequired'))
      if (!t.effect || !EFFECTS.has(t.effect))
        causes.push(
          cause(
            `spec.taints[${i}].effect`,
            `Unsupported value: "${t.effect ?? ''}": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"`,
            'FieldValueNotSupported',
          ),
        )
      const id = `${t.key}:${t.effect}`
      if (seen.has(id))
        causes.push(
          cause(
            `spec.taints[${i}]`,
            `Duplicate value: taints must be unique by key and effect pair`,
            'FieldValueDuplicate',
          ),
        )
      seen.add(id)
    })
  }
  if (causes.length > 0) throw invalid(def.kind, def.group, name ?? '', causes)
}

function cause(field: string, message: string, reason: string): Required<StatusCause> {
  return { field, message, reason }
}

const POD_UPDATE_MESSAGE =
  'Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)'

type Toleration = {
  key?: string
  operator?: string
  value?: string
  effect?: string
  tolerationSeconds?: number | null
}

/** validatePodUpdate allows only image changes and toleration additions on a live pod, else the upstream 422. */
export function validatePodUpdate(oldPod: KubeObject, newPod: KubeObject): void {
  const name = oldPod.metadata?.name ?? ''
  const causes: Required<StatusCause>[] = []
  const oldTols: Toleration[] = oldPod.spec?.tolerations ?? []
  const newTols: Toleration[] = newPod.spec?.tolerations ?? []
  for (const old of oldTols) {
    const same = newTols.find(
      (t) =>
        (t.key ?? '') === (old.key ?? '') &&
        (t.operator ?? 'Equal') === (old.operator ?? 'Equal') &&
        (t.value ?? '') === (old.value ?? '') &&
        (t.effect ?? '') === (old.effect ?? ''),
    )
    const oldSecs = old.tolerationSeconds ?? null
    const newSecs = same?.tolerationSeconds ?? null
    if (
      !same ||
      (oldSecs === null && newSecs !== null) ||
      (oldSecs !== null && (newSecs === null || newSecs > oldSecs))
    ) {
      causes.push(
        cause(
          'spec.tolerations',
          'Forbidden: existing toleration can not be modified except its tolerationSeconds',
          'FieldValueForbidden',
        ),
      )
      break
    }
  }
  // Compare the spec with the mutable fields masked out, as ValidatePodUpdate does.
  const mask = (spec: KubeObject | undefined) => {
    const copy = structuredClone(spec ?? {})
    delete copy.tolerations
    delete copy.activeDeadlineSeconds
    for (const list of ['containers', 'initContainers']) {
      for (const c of copy[list] ?? []) delete c.image
    }
    if ((spec?.terminationGracePeriodSeconds ?? 0) < 0) delete copy.terminationGracePeriodSeconds
    return JSON.stringify(sortKeys(copy))
  }
  if (mask(oldPod.spec) !== mask(newPod.spec)) causes.push(cause('spec', POD_UPDATE_MESSAGE, 'FieldValueForbidden'))
  if (causes.length > 0) throw invalid('Pod', '', name, causes)
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys)
  if (v === null || typeof v !== 'object') return v
  return Object.fromEntries(
    Object.keys(v as object)
      .sort()
      .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
  )
}

/** checkBodyIdentity rejects a body whose name or namespace disagrees with the URL, like upstream. */
export function checkBodyIdentity(def: ResourceDef, obj: KubeObject, namespace: string, name?: string): void {
  const meta = obj.metadata
  if (def.namespaced && meta.namespace && meta.namespace !== namespace)
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request')
  if (name !== undefined && meta.name && meta.name !== name)
    throw badRequest(`the name of the object (${meta.name}) does not match the name on the URL (${name})`)
  if (obj.kind && obj.kind !== def.kind)
    throw badRequest(`the kind of the object (${obj.kind}) does not match the resource ${def.resource} (${def.kind})`)
  if (obj.apiVersion && obj.apiVersion !== (def.group ? `${def.group}/${def.version}` : def.version))
    throw badRequest(`the API version in the data (${obj.apiVersion}) does not match the expected API version`)
}

/** asObject checks a decoded body is a JSON object (400 otherwise). */
export function asObject(body: unknown, what: string): KubeObject {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new ApiError(400, 'BadRequest', `${what}: the body of the request must be a JSON object`)
  const obj = body as KubeObject
  if (obj.metadata !== undefined && (obj.metadata === null || typeof obj.metadata !== 'object'))
    throw badRequest(`${what}: metadata must be an object`)
  obj.metadata = obj.metadata ?? {}
  return obj
}
