/**
 * syntheticList builds a `kubectl get nodes,pods,pdb -A -o json`-shaped List of full objects
 * (realistic field sets, deterministic) for benchmarks and demos: `nodes` nodes over three zones,
 * `podsPerNode` pods each (one DaemonSet pod, one kube-system pod, the rest Deployment pods).
 */
export function syntheticList(
  nodes: number,
  podsPerNode: number,
  at = '2026-11-22T10:00:00Z',
): { apiVersion: 'v1'; kind: 'List'; items: unknown[] } {
  const items: unknown[] = []
  for (let n = 0; n < nodes; n++) {
    const name = `ip-10-0-${n >> 8}-${n & 255}.eu-west-1.compute.internal`
    const zone = `eu-west-1${'abc'[n % 3]}`
    const sick = n % 97 === 0
    items.push(node(name, zone, sick, at))
    for (let p = 0; p < podsPerNode; p++) items.push(pod(name, n, p, at))
  }
  items.push({
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'web', namespace: 'shop', uid: 'pdb-web' },
    spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } },
    status: { disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1, expectedPods: 2 },
  })
  return { apiVersion: 'v1', kind: 'List', items }
}

function node(name: string, zone: string, sick: boolean, at: string) {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      uid: `uid-${name}`,
      resourceVersion: '123456',
      creationTimestamp: '2026-11-01T00:00:00Z',
      labels: {
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'node.kubernetes.io/instance-type': 'm6i.2xlarge',
        'topology.kubernetes.io/region': 'eu-west-1',
        'topology.kubernetes.io/zone': zone,
      },
      annotations: {
        'node.alpha.kubernetes.io/ttl': '0',
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
      },
    },
    spec: {
      providerID: `aws:///${zone}/i-0${name.length}`,
      taints: sick ? [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: at }] : [],
    },
    status: {
      capacity: { cpu: '8', 'ephemeral-storage': '104845292Ki', memory: '32386544Ki', pods: '110' },
      allocatable: { cpu: '7910m', 'ephemeral-storage': '95551679124', memory: '31369712Ki', pods: '110' },
      conditions: [
        {
          type: 'MemoryPressure',
          status: 'False',
          lastHeartbeatTime: at,
          lastTransitionTime: '2026-11-01T00:01:00Z',
          reason: 'KubeletHasSufficientMemory',
          message: 'kubelet has sufficient memory available',
        },
        {
          type: 'DiskPressure',
          status: 'False',
          lastHeartbeatTime: at,
          lastTransitionTime: '2026-11-01T00:01:00Z',
          reason: 'KubeletHasNoDiskPressure',
          message: 'kubelet has no disk pressure',
        },
        {
          type: 'KernelDeadlock',
          status: sick ? 'True' : 'False',
          lastHeartbeatTime: at,
          lastTransitionTime: '2026-11-22T09:00:00Z',
          reason: sick ? 'DockerHung' : 'KernelHasNoDeadlock',
          message: 'kernel has no deadlock',
        },
        {
          type: 'Ready',
          status: sick ? 'Unknown' : 'True',
          lastHeartbeatTime: at,
          lastTransitionTime: '2026-11-01T00:01:00Z',
          reason: 'KubeletReady',
          message: 'kubelet is posting ready status',
        },
      ],
      nodeInfo: {
        kubeletVersion: 'v1.31.2',
        containerRuntimeVersion: 'containerd://1.7.22',
        osImage: 'Amazon Linux 2023',
      },
      images: [{ names: ['public.ecr.aws/eks-distro/kubernetes/pause:3.9'], sizeBytes: 318731 }],
    },
  }
}

function pod(nodeName: string, n: number, p: number, at: string) {
  const ds = p === 0
  const system = p === 1
  const namespace = ds || system ? 'kube-system' : 'shop'
  const app = ds ? 'aws-node' : system ? 'coredns' : p % 2 ? 'web' : 'worker'
  const name = `${app}-${n}-${p}`
  const guaranteed = p % 3 === 0
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace,
      uid: `uid-${n}-${p}`,
      resourceVersion: '99',
      creationTimestamp: '2026-11-20T00:00:00Z',
      labels: { app, 'pod-template-hash': '5d8f7c' },
      annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-11-19T00:00:00Z' },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: ds ? 'DaemonSet' : 'ReplicaSet',
          name: `${app}-5d8f7c`,
          uid: 'owner',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: {
      nodeName,
      priority: system ? 2000000000 : 0,
      ...(system ? { priorityClassName: 'system-cluster-critical' } : {}),
      containers: [
        {
          name: 'app',
          image: `registry.example.com/${app}:1.2.3`,
          ports: [{ containerPort: 8080, protocol: 'TCP' }],
          resources: guaranteed
            ? { requests: { cpu: '250m', memory: '256Mi' }, limits: { cpu: '250m', memory: '256Mi' } }
            : { requests: { cpu: '100m', memory: '128Mi' } },
        },
      ],
      tolerations: ds
        ? [
            { operator: 'Exists', effect: 'NoExecute' },
            { operator: 'Exists', effect: 'NoSchedule' },
          ]
        : [
            { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
            { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
          ],
      terminationGracePeriodSeconds: 30,
      restartPolicy: 'Always',
      schedulerName: 'default-scheduler',
    },
    status: {
      phase: 'Running',
      qosClass: guaranteed ? 'Guaranteed' : 'Burstable',
      startTime: '2026-11-20T00:00:05Z',
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-11-20T00:00:10Z' }],
      containerStatuses: [{ name: 'app', ready: true, restartCount: 0, state: { running: { startedAt: at } } }],
    },
  }
}
