/**
 * Server-side printing (`Accept: application/json;as=Table;v=v1;g=meta.k8s.io`) for nodes, pods and PDBs,
 * with upstream's columns (pkg/printers/internalversion/printers.go); other types are served plain.
 */
import type { KubeObject } from './store.ts'

type Column = { name: string; type: string; format: string; description: string; priority: number }
const col = (name: string, priority = 0, type = 'string', format = ''): Column => ({
  name,
  type,
  format,
  description: name,
  priority,
})

const COLUMNS: Record<string, Column[]> = {
  nodes: [
    col('Name', 0, 'string', 'name'),
    col('Status'),
    col('Roles'),
    col('Age'),
    col('Version'),
    col('Internal-IP', 1),
    col('External-IP', 1),
    col('OS-Image', 1),
    col('Kernel-Version', 1),
    col('Container-Runtime', 1),
  ],
  pods: [
    col('Name', 0, 'string', 'name'),
    col('Ready'),
    col('Status'),
    col('Restarts', 0, 'string'),
    col('Age'),
    col('IP', 1),
    col('Node', 1),
    col('Nominated Node', 1),
    col('Readiness Gates', 1),
  ],
  'poddisruptionbudgets.policy': [
    col('Name', 0, 'string', 'name'),
    col('Min Available'),
    col('Max Unavailable'),
    col('Allowed Disruptions', 0, 'integer'),
    col('Age'),
  ],
}

/** wantsTable reports whether the Accept header asks for a meta.k8s.io Table. */
export function wantsTable(accept: string | undefined): boolean {
  return !!accept && accept.includes('as=Table')
}

/** hasTable reports whether the emulator prints this resource as a Table. */
export function hasTable(resource: string): boolean {
  return resource in COLUMNS
}

/** humanDuration renders an age like kubectl (k8s.io/apimachinery/pkg/util/duration.HumanDuration). */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000)
  if (seconds < -1) return '<invalid>'
  if (seconds < 0) return '0s'
  if (seconds < 120) return `${seconds}s`
  const minutes = Math.trunc(seconds / 60)
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`
  if (minutes < 180) return `${minutes}m`
  const hours = Math.trunc(minutes / 60)
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`
  if (hours < 48) return `${hours}h`
  if (hours < 24 * 8)
    return hours % 24 === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${hours % 24}h`
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`
  const years = Math.trunc(hours / 24 / 365)
  const days = Math.trunc(hours / 24) % 365
  if (hours < 24 * 365 * 8) return days === 0 ? `${years}y` : `${years}y${days}d`
  return `${years}y`
}

function age(obj: KubeObject, now: Date): string {
  const created = Date.parse(obj.metadata?.creationTimestamp ?? '')
  return Number.isNaN(created) ? '<unknown>' : humanDuration(now.getTime() - created)
}

function nodeCells(node: KubeObject, now: Date): unknown[] {
  const ready = (node.status?.conditions ?? []).find((c: { type: string }) => c.type === 'Ready')
  let status = !ready ? 'Unknown' : ready.status === 'True' ? 'Ready' : 'NotReady'
  if (node.spec?.unschedulable) status += ',SchedulingDisabled'
  const roles = Object.keys(node.metadata?.labels ?? {})
    .filter((k) => k.startsWith('node-role.kubernetes.io/'))
    .map((k) => k.slice('node-role.kubernetes.io/'.length))
  const addr = (t: string) =>
    (node.status?.addresses ?? []).find((a: { type: string }) => a.type === t)?.address ?? '<none>'
  const info = node.status?.nodeInfo ?? {}
  return [
    node.metadata.name,
    status,
    roles.length > 0 ? roles.sort().join(',') : '<none>',
    age(node, now),
    info.kubeletVersion ?? '',
    addr('InternalIP'),
    addr('ExternalIP'),
    info.osImage ?? '<unknown>',
    info.kernelVersion ?? '<unknown>',
    info.containerRuntimeVersion ?? '<unknown>',
  ]
}

function podCells(pod: KubeObject, now: Date): unknown[] {
  const statuses: Array<{ ready?: boolean; restartCount?: number }> = pod.status?.containerStatuses ?? []
  const total = (pod.spec?.containers ?? []).length
  const ready = statuses.filter((s) => s.ready).length
  const restarts = statuses.reduce((n, s) => n + (s.restartCount ?? 0), 0)
  let status = pod.status?.reason ?? pod.status?.phase ?? 'Unknown'
  if (pod.metadata?.deletionTimestamp) status = 'Terminating'
  return [
    pod.metadata.name,
    `${ready}/${total}`,
    status,
    String(restarts),
    age(pod, now),
    pod.status?.podIP ?? '<none>',
    pod.spec?.nodeName ?? '<none>',
    pod.status?.nominatedNodeName ?? '<none>',
    '<none>',
  ]
}

function pdbCells(pdb: KubeObject, now: Date): unknown[] {
  const show = (v: unknown) => (v === undefined || v === null ? 'N/A' : String(v))
  return [
    pdb.metadata.name,
    show(pdb.spec?.minAvailable),
    show(pdb.spec?.maxUnavailable),
    pdb.status?.disruptionsAllowed ?? 0,
    age(pdb, now),
  ]
}

function cells(resource: string, obj: KubeObject, now: Date): unknown[] {
  if (resource === 'nodes') return nodeCells(obj, now)
  if (resource === 'pods') return podCells(obj, now)
  return pdbCells(obj, now)
}

/** renderTable renders objects as a meta.k8s.io/v1 Table with PartialObjectMetadata rows. */
export function renderTable(resource: string, objs: KubeObject[], resourceVersion: string, now: Date, cont?: string) {
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: { resourceVersion, ...(cont ? { continue: cont } : {}) },
    columnDefinitions: COLUMNS[resource] ?? [],
    rows: objs.map((obj) => ({
      cells: cells(resource, obj, now),
      object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata },
    })),
  }
}
