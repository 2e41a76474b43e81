/**
 * The pods/eviction subresource exactly as upstream's EvictionREST.Create
 * (pkg/registry/core/pod/storage/eviction.go): PDB matching, checkAndDecrement, 429/500/403/404.
 */
import { isPodReady, pdbSelects } from './disruption.ts'
import { checkDeleteOptions, checkPreconditions, type Operations } from './operations.ts'
import type { PdbController } from './pdb-controller.ts'
import { ApiError, badRequest, type Status, successStatus } from './status.ts'
import type { Entry, KubeObject } from './store.ts'
import { asObject } from './validation.ts'

const MAX_DISRUPTED_PODS = 2000

/** evictPod runs one eviction and returns the upstream success Status (HTTP 201); failures throw ApiError. */
export function evictPod(
  ops: Operations,
  pdbs: PdbController,
  namespace: string,
  name: string,
  body: unknown,
  queryDryRun: boolean,
): Status {
  const eviction = asObject(body, 'create pods/eviction')
  if (eviction.metadata.name && eviction.metadata.name !== name)
    throw badRequest('name in URL does not match name in Eviction object')
  const deleteOptions = checkDeleteOptions(eviction.deleteOptions)
  const dryRun = queryDryRun || (deleteOptions.dryRun ?? []).includes('All')
  const store = ops.store
  const podDef = store.resolve('pods')
  const pdbDef = store.resolve('poddisruptionbudgets.policy')
  const current = store.mustGet(podDef, namespace, name)
  const pod = current.obj
  // Preconditions are checked against the pod as the request found it, before anything is written.
  checkPreconditions(podDef, current, deleteOptions)
  const remove = () => {
    let options = deleteOptions
    const marked = dryRun ? undefined : markDisruptionTarget(ops, pod)
    // upstream (addConditionAndDeletePod) bumps a resourceVersion precondition past its own condition update
    if (marked && options.preconditions?.resourceVersion)
      options = { ...options, preconditions: { ...options.preconditions, resourceVersion: String(marked.rv) } }
    ops.delete(podDef, namespace, name, options, dryRun)
    return successStatus(201)
  }
  const phase = pod.status?.phase
  if (phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || pod.metadata.deletionTimestamp)
    return remove()

  pdbs.reconcile(namespace)
  const matching: KubeObject[] = []
  store.forEachEntry(pdbDef, (e) => pdbSelects(e.obj, pod) && matching.push(e.obj), namespace)
  if (matching.length > 1)
    throw new ApiError(
      500,
      'InternalError',
      'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
    )
  const pdb = matching[0]
  if (!pdb) return remove()

  const status = pdb.status ?? {}
  if (!isPodReady(pod)) {
    if (pdb.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow') return remove()
    if ((status.currentHealthy ?? 0) >= (status.desiredHealthy ?? 0) && (status.desiredHealthy ?? 0) > 0)
      return remove()
  }
  const pdbName = pdb.metadata.name
  if ((status.observedGeneration ?? 0) < (pdb.metadata.generation ?? 1))
    throw tooMany(`The disruption budget ${pdbName} is still being processed by the server.`, 10)
  if ((status.disruptionsAllowed ?? 0) < 0) throw forbidden('pdb disruptions allowed is negative')
  if (Object.keys(status.disruptedPods ?? {}).length > MAX_DISRUPTED_PODS)
    throw forbidden('DisruptedPods map too big - too many evictions not confirmed by PDB controller')
  if ((status.disruptionsAllowed ?? 0) === 0)
    throw tooMany(
      `The disruption budget ${pdbName} needs ${status.desiredHealthy ?? 0} healthy pods and has ${status.currentHealthy ?? 0} currently`,
    )
  if (!dryRun) {
    const next = structuredClone(pdb)
    next.status.disruptionsAllowed = status.disruptionsAllowed - 1
    next.status.disruptedPods = { ...(status.disruptedPods ?? {}), [name]: store.nowIso() }
    if (next.status.disruptionsAllowed === 0) {
      for (const c of next.status.conditions ?? []) {
        if (c.type === 'DisruptionAllowed') Object.assign(c, { status: 'False', reason: 'InsufficientPods' })
      }
    }
    store.replace(pdbDef, next)
  }
  return remove()
}

function tooMany(cause: string, retryAfterSeconds?: number): ApiError {
  // No Retry-After header: kubectl drain must see the 429 to print the budget message (KUBECTL.md §5).
  return new ApiError(429, 'TooManyRequests', "Cannot evict pod as it would violate the pod's disruption budget.", {
    causes: [{ reason: 'DisruptionBudget', message: cause }],
    ...(retryAfterSeconds ? { retryAfterSeconds } : {}),
  })
}

function forbidden(message: string): ApiError {
  return new ApiError(403, 'Forbidden', message)
}

/** markDisruptionTarget adds the DisruptionTarget condition the Eviction API sets before deleting (v1.31+). */
function markDisruptionTarget(ops: Operations, pod: KubeObject): Entry | undefined {
  if (!pod.spec?.nodeName || pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') return undefined
  const podDef = ops.store.resolve('pods')
  const current = ops.store.getEntry(podDef, pod.metadata.namespace, pod.metadata.name)
  if (!current) return undefined
  const next = JSON.parse(current.json) as KubeObject
  next.status = next.status ?? {}
  const conditions = (next.status.conditions ?? []).filter((c: { type: string }) => c.type !== 'DisruptionTarget')
  conditions.push({
    type: 'DisruptionTarget',
    status: 'True',
    reason: 'EvictionByEvictionAPI',
    message: 'Eviction API: evicting',
    lastTransitionTime: ops.store.nowIso(),
  })
  next.status.conditions = conditions
  return ops.store.replace(podDef, next)
}
