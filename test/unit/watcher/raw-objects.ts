/** Full Kubernetes objects as the API server sends them (with the noise the watcher must absorb). */

export const T0 = '2026-11-22T10:00:00Z'
export const T1 = '2026-11-22T10:00:10Z'

type Raw = Record<string, unknown>

/** rawNode is a kubelet-maintained Node with managedFields, images, addresses and heartbeats. */
export function rawNode(
  name = 'node-a',
  over: { rv?: string; heartbeat?: string; patch?: (n: Raw) => void } = {},
): Raw {
  const hb = over.heartbeat ?? T0
  const node: Raw = {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      uid: `uid-${name}`,
      resourceVersion: over.rv ?? '100',
      creationTimestamp: '2026-11-01T00:00:00Z',
      labels: {
        'kubernetes.io/hostname': name,
        'topology.kubernetes.io/region': 'eu-west-1',
        'topology.kubernetes.io/zone': 'eu-west-1a',
      },
      annotations: {
        'node.alpha.kubernetes.io/ttl': '0',
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
      },
      managedFields: [{ manager: 'kubelet', operation: 'Update', time: hb, fieldsType: 'FieldsV1', fieldsV1: {} }],
    },
    spec: { podCIDR: '10.0.1.0/24', providerID: `aws:///eu-west-1a/i-${name}` },
    status: {
      capacity: { cpu: '4', memory: '16Gi', pods: '110' },
      allocatable: { cpu: '3900m', memory: '15Gi', pods: '110' },
      conditions: [
        cond('MemoryPressure', 'False', 'KubeletHasSufficientMemory', hb),
        cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure', hb),
        cond('PIDPressure', 'False', 'KubeletHasSufficientPID', hb),
        cond('Ready', 'True', 'KubeletReady', hb),
      ],
      addresses: [{ type: 'InternalIP', address: '10.0.1.5' }],
      daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
      nodeInfo: { kubeletVersion: 'v1.33.1', containerRuntimeVersion: 'containerd://1.7.0' },
      images: [{ names: ['registry/app@sha256:abc', 'registry/app:1'], sizeBytes: 123456 }],
    },
  }
  over.patch?.(node)
  return node
}

function cond(type: string, status: string, reason: string, heartbeat: string): Raw {
  return {
    type,
    status,
    reason,
    message: `kubelet says ${reason}`,
    lastHeartbeatTime: heartbeat,
    lastTransitionTime: T0,
  }
}

/** rawPod is a running Deployment pod with status noise (container statuses, IPs). */
export function rawPod(name = 'web-1', over: { node?: string; rv?: string; patch?: (p: Raw) => void } = {}): Raw {
  const pod: Raw = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-default-${name}`,
      resourceVersion: over.rv ?? '200',
      creationTimestamp: '2026-11-20T00:00:00Z',
      labels: { app: 'web', 'pod-template-hash': '5d8f' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-5d8f', uid: 'rs', controller: true }],
      managedFields: [{ manager: 'kubelet', operation: 'Update', time: T0 }],
    },
    spec: {
      nodeName: over.node ?? 'node-a',
      priority: 0,
      containers: [{ name: 'app', image: 'registry/app:1', resources: { requests: { cpu: '100m', memory: '128Mi' } } }],
      tolerations: [
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      ],
    },
    status: {
      phase: 'Running',
      qosClass: 'Burstable',
      podIP: '10.0.1.20',
      startTime: '2026-11-20T00:00:05Z',
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: T0 }],
      containerStatuses: [{ name: 'app', ready: true, restartCount: 0, state: { running: { startedAt: T0 } } }],
    },
  }
  over.patch?.(pod)
  return pod
}

/** rawPdb is a policy/v1 PodDisruptionBudget selecting app=web. */
export function rawPdb(name = 'web', over: { rv?: string; patch?: (p: Raw) => void } = {}): Raw {
  const pdb: Raw = {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name, namespace: 'default', uid: `uid-pdb-${name}`, resourceVersion: over.rv ?? '300' },
    spec: { selector: { matchLabels: { app: 'web' } }, minAvailable: 1 },
    status: { disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1, expectedPods: 2, observedGeneration: 1 },
  }
  over.patch?.(pdb)
  return pdb
}

/** at returns the object at a dotted path, for patches in tests. */
export function at(o: Raw, path: string): Raw {
  return path.split('.').reduce((cur, key) => (cur as Record<string, Raw>)[key] as Raw, o)
}
