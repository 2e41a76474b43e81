/**
 * generateCluster builds a large synthetic scenario (e.g. 5,000 nodes × 30 pods over 3 zones),
 * deterministic for a seed: two DaemonSets on every node, ReplicaSets of 10 spread over nodes,
 * mixed QoS and priorities, a PDB for every fifth ReplicaSet. Churn comes from the kubelet simulation.
 */
import { type Scenario, type ScenarioInput, ScenarioSchema } from './schema.ts'

export type GenerateOptions = { nodes: number; podsPerNode: number; zones?: number; seed?: number; namespaces?: number }

/** mulberry32 is a small seeded PRNG. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** generateCluster returns a validated Scenario with `nodes × podsPerNode` pods. */
export function generateCluster(options: GenerateOptions): Scenario {
  const random = mulberry32(options.seed ?? 1)
  const zoneCount = options.zones ?? 3
  const zones = Array.from({ length: zoneCount }, (_, i) => `region-1${String.fromCharCode(97 + i)}`)
  const nodeNames = Array.from({ length: options.nodes }, (_, i) => `node-${String(i).padStart(5, '0')}`)
  const dsCount = Math.min(2, options.podsPerNode)
  const appPodsPerNode = options.podsPerNode - dsCount
  const input: ScenarioInput = {
    name: `generated-${options.nodes}x${options.podsPerNode}`,
    zones,
    nodes: nodeNames.map((name, i) => ({
      name,
      zone: zones[i % zoneCount],
      capacity: { cpu: '8', memory: '32Gi', pods: '110', 'ephemeral-storage': '200Gi' },
    })),
    daemonSets: [
      { name: 'kube-proxy', priorityClassName: 'system-node-critical', priority: 2000001000, qos: 'Burstable' },
      { name: 'node-exporter', namespace: 'monitoring', qos: 'BestEffort' },
    ].slice(0, dsCount) as ScenarioInput['daemonSets'],
    replicaSets: [],
    pdbs: [],
  }
  const slots: string[] = []
  for (const node of nodeNames) for (let i = 0; i < appPodsPerNode; i++) slots.push(node)
  const namespaces = options.namespaces ?? 20
  const qos = ['BestEffort', 'Burstable', 'Guaranteed'] as const
  for (let r = 0; r * 10 < slots.length; r++) {
    const nodes = slots.slice(r * 10, r * 10 + 10)
    const namespace = `team-${r % namespaces}`
    const name = `app-${r}`
    input.replicaSets?.push({
      name,
      namespace,
      replicas: nodes.length,
      nodes,
      labels: { app: name },
      qos: qos[Math.floor(random() * 3)] as (typeof qos)[number],
      priority: random() < 0.1 ? 1000 : 0,
      defaultTolerations: random() > 0.05,
    })
    if (r % 5 === 0) input.pdbs?.push({ name, namespace, selector: { app: name }, maxUnavailable: 1 })
  }
  return ScenarioSchema.parse(input)
}
