/**
 * Emulated kubelets and node lifecycle controller: every node posts a status heartbeat and renews its
 * Lease in kube-node-lease on a cadence (spread over the interval, like real kubelets); silent nodes stop,
 * and after the grace period their conditions turn Unknown and the unreachable taints are added
 * (pkg/controller/nodelifecycle). Condition-driven `node.kubernetes.io/*` taints follow the conditions.
 */
import type { Emulator } from './emulator.ts'
import type { KubeObject } from './store.ts'

export type KubeletOptions = {
  heartbeatSeconds?: number
  leaseSeconds?: number
  nodeMonitorGracePeriodSeconds?: number
}

type Taint = { key: string; value?: string; effect: string; timeAdded?: string }
const LIFECYCLE_PREFIX = 'node.kubernetes.io/'
const MANAGED = new Set([
  'node.kubernetes.io/not-ready',
  'node.kubernetes.io/unreachable',
  'node.kubernetes.io/memory-pressure',
  'node.kubernetes.io/disk-pressure',
  'node.kubernetes.io/pid-pressure',
  'node.kubernetes.io/unschedulable',
])

/** lifecycleTaints returns the `node.kubernetes.io/*` taints the control plane keeps on a node with these conditions. */
export function lifecycleTaints(node: KubeObject): Array<{ key: string; effect: string }> {
  const cond = (type: string) =>
    (node.status?.conditions ?? []).find((c: { type: string }) => c.type === type)?.status as string | undefined
  const out: Array<{ key: string; effect: string }> = []
  const ready = cond('Ready')
  if (ready === 'False')
    out.push(
      { key: `${LIFECYCLE_PREFIX}not-ready`, effect: 'NoSchedule' },
      { key: `${LIFECYCLE_PREFIX}not-ready`, effect: 'NoExecute' },
    )
  if (ready === 'Unknown' || ready === undefined)
    out.push(
      { key: `${LIFECYCLE_PREFIX}unreachable`, effect: 'NoSchedule' },
      { key: `${LIFECYCLE_PREFIX}unreachable`, effect: 'NoExecute' },
    )
  if (cond('MemoryPressure') === 'True') out.push({ key: `${LIFECYCLE_PREFIX}memory-pressure`, effect: 'NoSchedule' })
  if (cond('DiskPressure') === 'True') out.push({ key: `${LIFECYCLE_PREFIX}disk-pressure`, effect: 'NoSchedule' })
  if (cond('PIDPressure') === 'True') out.push({ key: `${LIFECYCLE_PREFIX}pid-pressure`, effect: 'NoSchedule' })
  if (node.spec?.unschedulable) out.push({ key: `${LIFECYCLE_PREFIX}unschedulable`, effect: 'NoSchedule' })
  return out
}

/** syncLifecycleTaints rewrites the node's managed taints to match its conditions; returns true if they changed. */
export function syncLifecycleTaints(node: KubeObject, nowIso: string): boolean {
  const current: Taint[] = node.spec?.taints ?? []
  const desired = lifecycleTaints(node)
  const kept = current.filter(
    (t) => !MANAGED.has(t.key) || desired.some((d) => d.key === t.key && d.effect === t.effect),
  )
  const added = desired
    .filter((d) => !current.some((t) => t.key === d.key && t.effect === d.effect))
    .map((d) => ({ ...d, ...(d.effect === 'NoExecute' ? { timeAdded: nowIso } : {}) }))
  if (added.length === 0 && kept.length === current.length) return false
  node.spec = node.spec ?? {}
  const next = [...kept, ...added]
  if (next.length > 0) node.spec.taints = next
  else delete node.spec.taints
  return true
}

function microTime(d: Date): string {
  return d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z')
}

class Cadence {
  private queue: Array<{ name: string; due: number }> = []
  private known = new Set<string>()
  constructor(private readonly intervalMs: number) {}
  sync(names: string[], nowMs: number): void {
    const fresh = names.filter((n) => !this.known.has(n))
    fresh.forEach((name, i) => {
      this.known.add(name)
      this.queue.push({ name, due: nowMs + ((i + 1) / fresh.length) * this.intervalMs })
    })
    if (fresh.length > 0) this.queue.sort((a, b) => a.due - b.due)
  }
  forget(name: string): void {
    this.known.delete(name)
    this.queue = this.queue.filter((q) => q.name !== name)
  }
  due(nowMs: number): string[] {
    const out: string[] = []
    while (this.queue.length > 0 && (this.queue[0] as { due: number }).due <= nowMs) {
      const head = this.queue.shift() as { name: string; due: number }
      out.push(head.name)
      head.due = Math.max(head.due + this.intervalMs, nowMs + 1)
      this.queue.push(head)
    }
    return out
  }
}

/** startKubeletSimulation runs heartbeats, lease renewals and node lifecycle on the emulator's clock; returns stop(). */
export function startKubeletSimulation(emulator: Emulator, options: KubeletOptions = {}) {
  const { store } = emulator.state
  const nodeDef = store.resolve('nodes')
  const leaseDef = store.resolve('leases.coordination.k8s.io')
  const heartbeat = new Cadence((options.heartbeatSeconds ?? 10) * 1000)
  const lease = new Cadence((options.leaseSeconds ?? 10) * 1000)
  const graceMs = (options.nodeMonitorGracePeriodSeconds ?? 50) * 1000
  const lastRenew = new Map<string, number>()
  let knownCount = -1
  const stats = { heartbeats: 0, leaseRenewals: 0 }

  const writeNode = (name: string, change: (node: KubeObject, nowIso: string) => boolean, nowIso: string) => {
    const entry = store.getEntry(nodeDef, '', name)
    if (!entry) return false
    const node = JSON.parse(entry.json) as KubeObject
    if (!change(node, nowIso)) return false
    store.replace(nodeDef, node)
    return true
  }

  const postStatus = (node: KubeObject, nowIso: string) => {
    for (const c of node.status?.conditions ?? []) {
      c.lastHeartbeatTime = nowIso
      if (c.type === 'Ready' && c.status !== 'True' && c.reason === 'NodeStatusUnknown') {
        Object.assign(c, {
          status: 'True',
          reason: 'KubeletReady',
          message: 'kubelet is posting ready status',
          lastTransitionTime: nowIso,
        })
      }
      if (c.reason === 'NodeStatusUnknown' && c.type !== 'Ready') {
        Object.assign(c, {
          status: 'False',
          reason: `KubeletHas${c.type === 'MemoryPressure' ? 'SufficientMemory' : c.type === 'PIDPressure' ? 'SufficientPID' : 'NoDiskPressure'}`,
          lastTransitionTime: nowIso,
        })
      }
    }
    syncLifecycleTaints(node, nowIso)
    return true
  }

  const renewLease = (name: string, now: Date) => {
    const renewTime = microTime(now)
    const entry = store.getEntry(leaseDef, 'kube-node-lease', name)
    if (entry) {
      const obj = JSON.parse(entry.json) as KubeObject
      obj.spec.renewTime = renewTime
      store.replace(leaseDef, obj)
    } else {
      const node = store.getEntry(nodeDef, '', name)
      emulator.state.ops.create(
        leaseDef,
        'kube-node-lease',
        {
          metadata: {
            name,
            namespace: 'kube-node-lease',
            ...(node
              ? { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name, uid: node.obj.metadata.uid }] }
              : {}),
          },
          spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime },
        },
        { privileged: true },
      )
    }
    lastRenew.set(name, now.getTime())
    stats.leaseRenewals++
  }

  const markUnknown = (node: KubeObject, nowIso: string) => {
    const ready = (node.status?.conditions ?? []).find((c: { type: string }) => c.type === 'Ready')
    if (ready?.status === 'Unknown') return false
    for (const c of node.status?.conditions ?? []) {
      Object.assign(c, {
        status: 'Unknown',
        reason: 'NodeStatusUnknown',
        message: 'Kubelet stopped posting node status.',
        lastTransitionTime: nowIso,
      })
    }
    syncLifecycleTaints(node, nowIso)
    return true
  }

  const ticker = (now: Date) => {
    const nowMs = now.getTime()
    const nowIso = store.nowIso()
    const count = store.count(nodeDef)
    if (count !== knownCount) {
      knownCount = count
      const names: string[] = []
      store.forEachEntry(nodeDef, (e) => names.push(e.obj.metadata.name))
      heartbeat.sync(names, nowMs)
      lease.sync(names, nowMs)
      // A running cluster already has a Lease per node: create missing ones at once, renew on the cadence.
      for (const n of names) {
        if (lastRenew.has(n)) continue
        lastRenew.set(n, nowMs)
        if (!emulator.state.silentNodes.has(n) && !store.getEntry(leaseDef, 'kube-node-lease', n)) renewLease(n, now)
      }
    }
    for (const name of heartbeat.due(nowMs)) {
      if (emulator.state.silentNodes.has(name)) continue
      if (writeNode(name, postStatus, nowIso)) stats.heartbeats++
      else if (!store.getEntry(nodeDef, '', name)) {
        heartbeat.forget(name)
        lease.forget(name)
        knownCount = -1
      }
    }
    for (const name of lease.due(nowMs)) {
      if (emulator.state.silentNodes.has(name) || !store.getEntry(nodeDef, '', name)) continue
      renewLease(name, now)
    }
    for (const name of emulator.state.silentNodes) {
      if (nowMs - (lastRenew.get(name) ?? nowMs) >= graceMs) writeNode(name, markUnknown, nowIso)
    }
  }
  const remove = emulator.addTicker(ticker)
  return { stop: remove, stats }
}
