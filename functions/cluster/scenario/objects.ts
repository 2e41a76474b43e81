/** Pure builders: scenario specs → Kubernetes objects as a real cluster would show them. */
import type { KubeObject } from '../store.ts'
import type { NodeSpec, PodSpec, Scenario } from './schema.ts'

type Zone = Scenario['zones'][number]

/** zoneRegion returns the region of a zone (explicit, or the zone name minus its last letter: eu-west-1a → eu-west-1). */
export function zoneRegion(zones: Zone[], zone: string): string {
  const found = zones.find((z) => (typeof z === 'string' ? z : z.name) === zone)
  if (found && typeof found !== 'string' && found.region) return found.region
  return zone.replace(/[a-z]$/, '') || zone
}

/** DEFAULT_TOLERATIONS are what the DefaultTolerationSeconds admission plugin adds. */
export const DEFAULT_TOLERATIONS = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
]

/** DAEMONSET_TOLERATIONS are what the DaemonSet controller adds to its pods (UPSTREAM.md §8). */
export const DAEMONSET_TOLERATIONS = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
]

/** toNode builds a Node with Ready=True (unless overridden), capacity, zone labels and node info. */
export function toNode(spec: NodeSpec, zones: Zone[], nowIso: string, index = 0): KubeObject {
  const labels: Record<string, string> = {
    'kubernetes.io/hostname': spec.name,
    'kubernetes.io/os': 'linux',
    'kubernetes.io/arch': 'amd64',
    ...(spec.zone
      ? { 'topology.kubernetes.io/zone': spec.zone, 'topology.kubernetes.io/region': zoneRegion(zones, spec.zone) }
      : {}),
    ...Object.fromEntries((spec.roles ?? []).map((r) => [`node-role.kubernetes.io/${r}`, ''])),
    ...spec.labels,
  }
  const base = ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure']
  const given = new Map((spec.conditions ?? []).map((c) => [c.type, c]))
  const defaults: Record<string, { status: string; reason: string; message: string }> = {
    Ready: { status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' },
    MemoryPressure: {
      status: 'False',
      reason: 'KubeletHasSufficientMemory',
      message: 'kubelet has sufficient memory available',
    },
    DiskPressure: { status: 'False', reason: 'KubeletHasNoDiskPressure', message: 'kubelet has no disk pressure' },
    PIDPressure: {
      status: 'False',
      reason: 'KubeletHasSufficientPID',
      message: 'kubelet has sufficient PID available',
    },
  }
  const conditions = [
    ...base.map((type) => ({ type, ...defaults[type], ...given.get(type) })),
    ...(spec.conditions ?? [])
      .filter((c) => !base.includes(c.type))
      .map((c) => ({ reason: c.type, message: '', ...c })),
  ].map((c) => ({ ...c, lastHeartbeatTime: nowIso, lastTransitionTime: nowIso }))
  const ip = `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: spec.name, labels, ...(spec.annotations ? { annotations: spec.annotations } : {}) },
    spec: {
      ...(spec.taints && spec.taints.length > 0 ? { taints: spec.taints } : {}),
      ...(spec.unschedulable ? { unschedulable: true } : {}),
      providerID: `emulator://${spec.zone ?? 'none'}/${spec.name}`,
    },
    status: {
      capacity: stringify(spec.capacity),
      allocatable: stringify(spec.allocatable ?? spec.capacity),
      conditions,
      addresses: [
        { type: 'InternalIP', address: ip },
        { type: 'Hostname', address: spec.name },
      ],
      nodeInfo: {
        kubeletVersion: 'v1.32.0',
        kubeProxyVersion: 'v1.32.0',
        osImage: 'Emulated Linux',
        kernelVersion: '6.1.0-emulated',
        containerRuntimeVersion: 'containerd://1.7.0',
        operatingSystem: 'linux',
        architecture: 'amd64',
        machineID: '',
        systemUUID: '',
        bootID: '',
      },
    },
  }
}

function stringify(r: Record<string, string | number>): Record<string, string> {
  return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, String(v)]))
}

type PodFields = Omit<PodSpec, 'name' | 'namespace' | 'node' | 'owner' | 'static'>

function resourcesFor(spec: PodFields) {
  if (spec.requests || spec.limits)
    return {
      ...(spec.requests ? { requests: stringify(spec.requests) } : {}),
      ...(spec.limits ? { limits: stringify(spec.limits) } : {}),
    }
  if (spec.qos === 'BestEffort') return {}
  if (spec.qos === 'Guaranteed')
    return { requests: { cpu: '500m', memory: '512Mi' }, limits: { cpu: '500m', memory: '512Mi' } }
  return { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } }
}

export type PodOwner = { apiVersion: string; kind: string; name: string; uid: string }

/** toPod builds a Pod bound to `node` with its owner, priority, tolerations, QoS inputs and status. */
export function toPod(
  spec: PodFields & { name: string; namespace: string; node?: string; static?: boolean },
  owner: PodOwner | undefined,
  nowIso: string,
  extraTolerations: object[] = [],
): KubeObject {
  const annotations: Record<string, string> = { ...spec.annotations }
  if (spec.static) {
    annotations['kubernetes.io/config.source'] = 'file'
    annotations['kubernetes.io/config.mirror'] = `mirror-${spec.name}`
    annotations['kubernetes.io/config.hash'] = `mirror-${spec.name}`
  }
  const tolerations = [
    ...(spec.tolerations ?? []),
    ...extraTolerations,
    ...(spec.defaultTolerations && !spec.static ? DEFAULT_TOLERATIONS : []),
  ]
  const ready = spec.ready ?? spec.phase === 'Running'
  const phaseDone = spec.phase === 'Failed' || spec.phase === 'Succeeded'
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: spec.name,
      namespace: spec.namespace,
      labels: spec.labels ?? {},
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
      ...(owner ? { ownerReferences: [{ ...owner, controller: true, blockOwnerDeletion: true }] } : {}),
    },
    spec: {
      ...(spec.node ? { nodeName: spec.node } : {}),
      containers: [{ name: 'app', image: 'registry.example/app:1', resources: resourcesFor(spec) }],
      ...(spec.emptyDir ? { volumes: [{ name: 'scratch', emptyDir: {} }] } : {}),
      ...(spec.priority !== undefined ? { priority: spec.priority } : {}),
      ...(spec.priorityClassName ? { priorityClassName: spec.priorityClassName } : {}),
      ...(tolerations.length > 0 ? { tolerations } : {}),
      terminationGracePeriodSeconds: spec.terminationGracePeriodSeconds ?? 30,
    },
    status: {
      phase: spec.node ? spec.phase : 'Pending',
      ...(spec.reason ? { reason: spec.reason } : {}),
      ...(spec.message ? { message: spec.message } : {}),
      conditions: [
        { type: 'PodScheduled', status: spec.node ? 'True' : 'False', lastTransitionTime: nowIso },
        { type: 'Ready', status: ready && !phaseDone ? 'True' : 'False', lastTransitionTime: nowIso },
      ],
      ...(spec.node ? { startTime: nowIso, hostIP: '10.0.0.1', podIP: '10.244.0.1' } : {}),
      containerStatuses: [
        {
          name: 'app',
          ready: ready && !phaseDone,
          restartCount: 0,
          image: 'registry.example/app:1',
          imageID: '',
          started: ready,
        },
      ],
    },
  }
}

/** toWorkload builds a DaemonSet or ReplicaSet object whose pod template carries `fields`. */
export function toWorkload(
  kind: 'DaemonSet' | 'ReplicaSet',
  name: string,
  namespace: string,
  fields: PodFields,
  replicas?: number,
) {
  const labels = fields.labels && Object.keys(fields.labels).length > 0 ? fields.labels : { app: name }
  return {
    apiVersion: 'apps/v1',
    kind,
    metadata: { name, namespace, labels },
    spec: {
      ...(replicas !== undefined ? { replicas } : {}),
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: 'app', image: 'registry.example/app:1' }] } },
    },
    status: replicas !== undefined ? { replicas, readyReplicas: replicas } : {},
  }
}

/** toPdb builds a policy/v1 PodDisruptionBudget. */
export function toPdb(spec: Scenario['pdbs'][number]): KubeObject {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: spec.name, namespace: spec.namespace },
    spec: {
      selector: { matchLabels: spec.selector },
      ...(spec.minAvailable !== undefined ? { minAvailable: spec.minAvailable } : {}),
      ...(spec.maxUnavailable !== undefined ? { maxUnavailable: spec.maxUnavailable } : {}),
      ...(spec.unhealthyPodEvictionPolicy ? { unhealthyPodEvictionPolicy: spec.unhealthyPodEvictionPolicy } : {}),
    },
  }
}
