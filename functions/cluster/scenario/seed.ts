/** seedScenario creates a scenario's initial cluster in an emulator (namespaces, nodes, workloads, pods, PDBs). */
import type { Emulator } from '../emulator.ts'
import type { KubeObject } from '../store.ts'
import { DAEMONSET_TOLERATIONS, type PodOwner, toNode, toPdb, toPod, toWorkload } from './objects.ts'
import type { Scenario } from './schema.ts'

/** seedScenario stores every object of the initial cluster; returns how many objects it created. */
export function seedScenario(emulator: Emulator, scenario: Scenario): number {
  const { ops, store } = emulator.state
  const nowIso = store.nowIso()
  let created = 0
  const create = (obj: KubeObject): KubeObject => {
    const def = store.defForObject(obj)
    created++
    return ops.create(def, obj.metadata.namespace ?? 'default', obj, { privileged: true }).obj
  }
  const nodeUids = new Map<string, string>()
  scenario.nodes.forEach((spec, i) => {
    const node = create(toNode(spec, scenario.zones, nowIso, i + 1))
    nodeUids.set(spec.name, node.metadata.uid)
    if (spec.stats) emulator.store.setNodeStats(spec.name, spec.stats)
    if (spec.silent) emulator.state.silentNodes.add(spec.name)
  })
  const allNodes = scenario.nodes.map((n) => n.name)
  const ownerOf = (obj: KubeObject): PodOwner => ({
    apiVersion: obj.apiVersion as string,
    kind: obj.kind as string,
    name: obj.metadata.name,
    uid: obj.metadata.uid,
  })
  for (const ds of scenario.daemonSets) {
    const owner = ownerOf(create(toWorkload('DaemonSet', ds.name, ds.namespace, ds)))
    const labels = ds.labels && Object.keys(ds.labels).length > 0 ? ds.labels : { app: ds.name }
    for (const node of ds.nodes ?? allNodes) {
      create(toPod({ ...ds, labels, name: `${ds.name}-${node}`, node }, owner, nowIso, DAEMONSET_TOLERATIONS))
    }
  }
  for (const rs of scenario.replicaSets) {
    const owner = ownerOf(create(toWorkload('ReplicaSet', rs.name, rs.namespace, rs, rs.replicas)))
    const labels = rs.labels && Object.keys(rs.labels).length > 0 ? rs.labels : { app: rs.name }
    const nodes = rs.nodes ?? allNodes
    for (let i = 0; i < rs.replicas; i++) {
      const node = nodes.length > 0 ? nodes[i % nodes.length] : undefined
      create(toPod({ ...rs, labels, name: `${rs.name}-${i}`, ...(node ? { node } : {}) }, owner, nowIso))
    }
  }
  for (const pod of scenario.pods) create(podObject(emulator, pod, nodeUids, nowIso))
  for (const pdb of scenario.pdbs) create(toPdb(pdb))
  for (const obj of scenario.objects) create(structuredClone(obj) as KubeObject)
  emulator.state.pdbs.reconcile()
  return created
}

/** podObject builds a scenario pod, resolving its owner (a Node owner for static pods). */
export function podObject(
  emulator: Emulator,
  pod: Scenario['pods'][number],
  nodeUids: Map<string, string>,
  nowIso: string,
): KubeObject {
  let owner: PodOwner | undefined
  if (pod.static || pod.owner?.kind === 'Node') {
    const node = pod.owner?.kind === 'Node' ? pod.owner.name : (pod.node ?? '')
    const uid = nodeUids.get(node) ?? emulator.store.get('nodes', '', node)?.metadata.uid ?? ''
    owner = { apiVersion: 'v1', kind: 'Node', name: node, uid }
  } else if (pod.owner) {
    const resource = { ReplicaSet: 'replicasets', DaemonSet: 'daemonsets', StatefulSet: '', Job: '' }[pod.owner.kind]
    const existing = resource ? emulator.store.get(resource, pod.namespace, pod.owner.name) : undefined
    const apiVersion = pod.owner.kind === 'Job' ? 'batch/v1' : 'apps/v1'
    owner = {
      apiVersion,
      kind: pod.owner.kind,
      name: pod.owner.name,
      uid: existing?.metadata.uid ?? `uid-${pod.owner.name}`,
    }
  }
  return toPod({ ...pod, static: pod.static || pod.owner?.kind === 'Node' }, owner, nowIso)
}
