/**
 * The verbs of the API server on top of the store: create, update (+status), patch (three types and
 * server-side apply as an upsert), delete with grace periods and finalizers, dry-run, and the
 * validation the real server applies on each.
 */
import { applyJsonPatch, applyMergePatch, applyStrategicMergePatch, type Json, type PatchType } from './patch.ts'
import type { ResourceDef } from './resources.ts'
import { ApiError, badRequest, conflict, notFound } from './status.ts'
import type { Entry, KubeObject, ObjectStore } from './store.ts'
import {
  asObject,
  checkBodyIdentity,
  checkFieldTypes,
  checkMicroTimes,
  pruneUnknownFields,
  rejectUnknownFields,
  validateObject,
  validatePodUpdate,
} from './validation.ts'

export type WriteOptions = {
  dryRun?: boolean
  /** Strict (default here), Warn or Ignore, as the `fieldValidation` query parameter. */
  fieldValidation?: string
  /** collects `Warning` header texts. */
  warnings?: string[]
  /** seeding through the store facade: skip pod-update immutability and status-subresource masking. */
  privileged?: boolean
}
export type DeleteOptions = {
  gracePeriodSeconds?: number
  preconditions?: { uid?: string; resourceVersion?: string }
  dryRun?: string[]
  propagationPolicy?: string
}

/** Operations implements each verb once, for HTTP handlers and the store facade alike. */
export class Operations {
  /** pods waiting for their grace period to end: key → due time (ms). */
  readonly pendingRemovals = new Map<string, { def: ResourceDef; namespace: string; name: string; dueMs: number }>()

  constructor(
    readonly store: ObjectStore,
    readonly now: () => Date,
  ) {}

  /** create stores a new object after checking its namespace, name and fields. */
  create(def: ResourceDef, namespace: string, body: unknown, opts: WriteOptions = {}): Entry {
    const obj = asObject(body, `create ${def.resource}`)
    checkBodyIdentity(def, obj, namespace)
    if (def.namespaced) obj.metadata.namespace = namespace
    else delete obj.metadata.namespace
    if (!obj.metadata.name && obj.metadata.generateName) obj.metadata.name = '' // filled by the store
    this.checkFields(def, obj, opts)
    if (!obj.metadata.name && !obj.metadata.generateName) validateObject(def, obj)
    if (obj.metadata.name) validateObject(def, obj)
    if (def.namespaced && !this.store.namespaceExists(namespace)) {
      if (!opts.privileged) throw notFound('namespaces', '', namespace)
      this.create(this.store.resolve('namespaces'), '', { metadata: { name: namespace } }, opts)
    }
    delete obj.metadata.resourceVersion
    if (!obj.metadata.name) delete obj.metadata.name
    applyDefaults(def, obj, this.store.nowIso())
    return this.store.insert(def, obj, opts.dryRun)
  }

  /** update replaces an object (PUT); `subresource: 'status'` writes only the status. */
  update(def: ResourceDef, namespace: string, name: string, body: unknown, opts: WriteOptions = {}, sub?: string) {
    const obj = asObject(body, `update ${def.resource}`)
    checkBodyIdentity(def, obj, namespace, name)
    obj.metadata.name = name
    if (def.namespaced) obj.metadata.namespace = namespace
    const current = this.store.mustGet(def, namespace, name)
    const expectRv = obj.metadata.resourceVersion
    return this.write(def, current, obj, expectRv, opts, sub)
  }

  /** patch applies a JSON, merge or strategic merge patch (or server-side apply, as an upsert). */
  patch(
    def: ResourceDef,
    namespace: string,
    name: string,
    patchBody: unknown,
    type: PatchType,
    opts: WriteOptions = {},
    sub?: string,
  ): Entry {
    const current = this.store.getEntry(def, namespace, name)
    if (!current) {
      if (type !== 'apply' || sub) throw notFound(def.resource, def.group, name)
      const obj = asObject(patchBody, `apply ${def.resource}`)
      checkBodyIdentity(def, obj, namespace, name)
      obj.metadata.name = name
      return this.create(def, namespace, obj, opts)
    }
    const base = JSON.parse(current.json) as KubeObject
    let patched: KubeObject
    switch (type) {
      case 'json':
        patched = applyJsonPatch(base as { [k: string]: Json }, patchBody) as KubeObject
        break
      case 'merge':
      case 'apply':
        if (patchBody === null || typeof patchBody !== 'object' || Array.isArray(patchBody))
          throw badRequest('merge patch body must be a JSON object')
        patched = applyMergePatch(base as Json, patchBody as Json) as KubeObject
        break
      case 'strategic':
        if (!def.strategicMerge)
          throw new ApiError(
            415,
            'UnsupportedMediaType',
            `strategic merge patch is not supported for ${def.resource}.${def.group}: use application/merge-patch+json or application/json-patch+json`,
          )
        patched = applyStrategicMergePatch(base as { [k: string]: Json }, patchBody, def.mergeKeys) as KubeObject
        break
    }
    const obj = asObject(patched, `patch ${def.resource}`)
    if (obj.metadata.name !== name)
      throw badRequest(`metadata.name: the name of the object may not be changed by a patch`)
    if (def.namespaced && obj.metadata.namespace !== namespace)
      throw badRequest('metadata.namespace: the namespace of the object may not be changed by a patch')
    // A resourceVersion inside the patch is an optimistic lock (kubectl label --resource-version).
    const patchRv = (patchBody as KubeObject | null)?.metadata?.resourceVersion
    const expectRv = typeof patchRv === 'string' ? patchRv : obj.metadata.resourceVersion
    if (expectRv !== undefined && expectRv !== String(current.rv)) throw conflict(def.resource, def.group, name)
    return this.write(def, current, obj, String(current.rv), opts, sub)
  }

  private write(
    def: ResourceDef,
    current: Entry,
    obj: KubeObject,
    expectRv: string | undefined,
    opts: WriteOptions,
    sub?: string,
  ) {
    this.checkFields(def, obj, opts)
    let next = obj
    if (!opts.privileged) {
      if (sub === 'status') {
        // The status subresource changes only status (upstream PrepareForUpdate resets the rest).
        next = JSON.parse(current.json) as KubeObject
        next.status = obj.status
        next.metadata.resourceVersion = obj.metadata.resourceVersion
      } else if (def.subresources.includes('status')) {
        if (current.obj.status === undefined) delete next.status
        else next.status = current.obj.status
      }
      if (def.kind === 'Pod' && def.group === '' && sub !== 'status') validatePodUpdate(current.obj, next)
    }
    validateObject(def, next)
    const entry = this.store.replace(def, next, expectRv, opts.dryRun)
    if (!opts.dryRun) this.finishIfReleased(def, entry)
    return entry
  }

  private checkFields(def: ResourceDef, obj: KubeObject, opts: WriteOptions): void {
    checkFieldTypes(def, obj)
    const mode = (opts.fieldValidation ?? 'Strict').toLowerCase()
    if (mode === 'strict') rejectUnknownFields(def, obj)
    else {
      const dropped = pruneUnknownFields(def, obj)
      if (mode === 'warn') for (const f of dropped) opts.warnings?.push(`unknown field "${f.slice(1)}"`)
    }
    checkMicroTimes(def, obj)
  }

  /**
   * delete removes an object, or for a pod bound to a node starts graceful deletion (deletionTimestamp now,
   * removal after the grace period); finalizers hold removal until they are cleared.
   */
  delete(def: ResourceDef, namespace: string, name: string, options: DeleteOptions = {}, dryRun = false): Entry {
    checkDeleteOptions(options)
    const current = this.store.mustGet(def, namespace, name)
    checkPreconditions(def, current, options)
    dryRun = dryRun || (options.dryRun ?? []).includes('All')
    const grace = this.graceSeconds(def, current.obj, options)
    const finalizers: string[] = current.obj.metadata.finalizers ?? []
    if (grace > 0 || finalizers.length > 0) {
      const obj = JSON.parse(current.json) as KubeObject
      const meta = obj.metadata
      const nowMs = this.now().getTime()
      const existingDue = meta.deletionTimestamp ? Date.parse(meta.deletionTimestamp) : Number.POSITIVE_INFINITY
      const dueMs = Math.min(existingDue, nowMs + grace * 1000)
      meta.deletionTimestamp = new Date(dueMs).toISOString().replace(/\.\d{3}Z$/, 'Z')
      meta.deletionGracePeriodSeconds = Math.max(0, Math.round((dueMs - nowMs) / 1000))
      if (dryRun) return { ...current, obj }
      const entry = this.store.replace(def, obj, undefined)
      if (grace > 0)
        this.pendingRemovals.set(`${def.resource}.${def.group}|${entry.key}`, { def, namespace, name, dueMs })
      else this.finishIfReleased(def, entry)
      return entry
    }
    return this.store.remove(def, namespace, name, dryRun)
  }

  private graceSeconds(def: ResourceDef, obj: KubeObject, options: DeleteOptions): number {
    if (def.kind !== 'Pod' || def.group !== '') return 0
    // Unbound and terminal pods go at once, as the pod strategy's CheckGracefulDelete decides.
    if (!obj.spec?.nodeName || obj.status?.phase === 'Succeeded' || obj.status?.phase === 'Failed') return 0
    const requested = options.gracePeriodSeconds ?? obj.spec?.terminationGracePeriodSeconds ?? 30
    return Math.max(0, requested)
  }

  /** finishIfReleased removes an object whose deletion is due and whose finalizers are all gone. */
  private finishIfReleased(def: ResourceDef, entry: Entry): void {
    const meta = entry.obj.metadata
    if (!meta.deletionTimestamp || (meta.finalizers ?? []).length > 0) return
    if (this.pendingRemovals.has(`${def.resource}.${def.group}|${entry.key}`)) return
    this.store.remove(def, meta.namespace ?? '', meta.name)
  }

  /** removeDue removes pods whose grace period has ended by `now` (the kubelet's confirmation, emulated). */
  removeDue(nowMs: number): number {
    let removed = 0
    for (const [key, due] of this.pendingRemovals) {
      if (due.dueMs > nowMs) continue
      this.pendingRemovals.delete(key)
      const entry = this.store.getEntry(due.def, due.namespace, due.name)
      if (!entry) continue
      if ((entry.obj.metadata.finalizers ?? []).length > 0) continue
      this.store.remove(due.def, due.namespace, due.name)
      removed++
    }
    return removed
  }
}

/** checkDeleteOptions rejects DeleteOptions fields of the wrong type with a 400, as upstream's decoder does. */
export function checkDeleteOptions(options: unknown): DeleteOptions {
  if (options === undefined || options === null) return {}
  const fail = (field: string, type: string) =>
    badRequest(`DeleteOptions in version "v1" cannot be handled: json: cannot unmarshal into ${field} of type ${type}`)
  if (typeof options !== 'object' || Array.isArray(options)) throw fail('DeleteOptions', 'struct')
  const o = options as Record<string, unknown>
  if (o.gracePeriodSeconds != null && !Number.isInteger(o.gracePeriodSeconds)) throw fail('gracePeriodSeconds', 'int64')
  if (o.propagationPolicy != null && typeof o.propagationPolicy !== 'string') throw fail('propagationPolicy', 'string')
  if (o.dryRun != null && !(Array.isArray(o.dryRun) && o.dryRun.every((d) => typeof d === 'string')))
    throw fail('dryRun', '[]string')
  const pre = o.preconditions
  if (pre != null) {
    if (typeof pre !== 'object' || Array.isArray(pre)) throw fail('preconditions', 'struct')
    for (const field of ['uid', 'resourceVersion'])
      if (
        (pre as Record<string, unknown>)[field] != null &&
        typeof (pre as Record<string, unknown>)[field] !== 'string'
      )
        throw fail(`preconditions.${field}`, 'string')
  }
  return o as DeleteOptions
}

/** checkPreconditions throws the upstream 409 when a DeleteOptions precondition (uid, resourceVersion) fails. */
export function checkPreconditions(def: ResourceDef, current: Entry, options: DeleteOptions): void {
  const pre = options.preconditions
  const name = current.obj.metadata.name
  if (pre?.uid && pre.uid !== current.obj.metadata.uid)
    throw new ApiError(
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${def.resource} "${name}": Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${current.obj.metadata.uid}`,
    )
  if (pre?.resourceVersion && pre.resourceVersion !== String(current.rv))
    throw new ApiError(
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${def.resource} "${name}": Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${current.rv}`,
    )
}

/** applyDefaults fills what the API server would default on create, for the kinds nodewarden reads. */
function applyDefaults(def: ResourceDef, obj: KubeObject, nowIso: string): void {
  if (def.group === '' && def.kind === 'Pod') {
    obj.spec = obj.spec ?? {}
    obj.spec.containers = obj.spec.containers ?? []
    obj.spec.terminationGracePeriodSeconds = obj.spec.terminationGracePeriodSeconds ?? 30
    obj.status = obj.status ?? { phase: 'Pending' }
    obj.status.qosClass = obj.status.qosClass ?? qosClass(obj)
  }
  if (def.group === '' && def.kind === 'Namespace') obj.status = obj.status ?? { phase: 'Active' }
  if (def.group === '' && def.kind === 'Secret' && obj.stringData) {
    obj.data = obj.data ?? {}
    for (const [k, v] of Object.entries(obj.stringData as Record<string, string>))
      obj.data[k] = Buffer.from(String(v)).toString('base64')
    delete obj.stringData
  }
  if (def.group === 'apiextensions.k8s.io') {
    obj.status = {
      conditions: [
        {
          type: 'NamesAccepted',
          status: 'True',
          reason: 'NoConflicts',
          message: 'no conflicts found',
          lastTransitionTime: nowIso,
        },
        {
          type: 'Established',
          status: 'True',
          reason: 'InitialNamesAccepted',
          message: 'the initial names have been accepted',
          lastTransitionTime: nowIso,
        },
      ],
      acceptedNames: obj.spec?.names ?? {},
      storedVersions: (obj.spec?.versions ?? [])
        .filter((v: { storage?: boolean }) => v.storage)
        .map((v: { name: string }) => v.name),
    }
  }
  if (def.group === 'policy' && !obj.status) {
    obj.status = { currentHealthy: 0, desiredHealthy: 0, disruptionsAllowed: 0, expectedPods: 0, observedGeneration: 0 }
  }
}

/** qosClass computes the pod QoS class (pkg/apis/core/v1/helper/qos.GetPodQOS), containers only. */
export function qosClass(pod: KubeObject): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const containers: KubeObject[] = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]
  let any = false
  let guaranteed = containers.length > 0
  for (const c of containers) {
    const req = c.resources?.requests ?? {}
    const lim = c.resources?.limits ?? {}
    if (Object.keys(req).length > 0 || Object.keys(lim).length > 0) any = true
    for (const r of ['cpu', 'memory']) {
      if (lim[r] === undefined) guaranteed = false
      else if (req[r] !== undefined && req[r] !== lim[r]) guaranteed = false
    }
  }
  if (!any) return 'BestEffort'
  return guaranteed ? 'Guaranteed' : 'Burstable'
}
