/**
 * playScenario seeds a scenario's cluster and plays its timeline in real time or accelerated virtual
 * time (`speed` virtual seconds per real second; `Infinity` steps through instantly and deterministically).
 */
import type { Log } from '../../../shared/log.ts'
import type { Emulator } from '../emulator.ts'
import { startKubeletSimulation, syncLifecycleTaints } from '../kubelet-sim.ts'
import type { KubeObject } from '../store.ts'
import type { Scenario, ScenarioStep } from './schema.ts'
import { podObject, seedScenario } from './seed.ts'

export type PlayOptions = {
  clock?: 'real' | 'virtual'
  /** virtual ms per real ms (default 60); Infinity = step instantly. Ignored for the real clock. */
  speed?: number
  /** run emulated kubelets (heartbeats, leases, node lifecycle); default true. */
  kubelets?: boolean
  /** create the initial cluster first; default true. */
  seed?: boolean
  log?: Log
}

export type AppliedStep = { atMs: number; action: string; detail: string }
export type Player = {
  /** resolves when the last step has been applied. */
  done: Promise<void>
  applied: AppliedStep[]
  stop: () => void
}

/** stepAction names a step's action (`addTaint`, `silence`, …). */
export function stepAction(step: ScenarioStep): string {
  return Object.keys(step).find((k) => k !== 'at') as string
}

/** playScenario starts playing; see PlayOptions. */
export function playScenario(emulator: Emulator, scenario: Scenario, options: PlayOptions = {}): Player {
  if (options.seed !== false) seedScenario(emulator, scenario)
  const virtual = options.clock === 'virtual'
  const speed = options.speed ?? 60
  const stepping = virtual && speed === Number.POSITIVE_INFINITY
  if (virtual) emulator.clock.setSpeed(stepping ? 0 : speed)
  const kubelets = options.kubelets === false ? undefined : startKubeletSimulation(emulator, scenario.kubelet)
  const steps = [...scenario.timeline].sort((a, b) => a.at - b.at)
  const t0 = emulator.clock.now().getTime()
  const applied: AppliedStep[] = []
  let next = 0
  let stopped = false
  let resolveDone = () => {}
  const done = new Promise<void>((r) => {
    resolveDone = r
  })
  const applyDue = (nowMs: number) => {
    while (next < steps.length && t0 + (steps[next] as ScenarioStep).at <= nowMs) {
      const step = steps[next++] as ScenarioStep
      const detail = applyStep(emulator, step)
      applied.push({ atMs: step.at, action: stepAction(step), detail })
      options.log?.info('scenario step', { at: step.at / 1000, action: stepAction(step), detail })
    }
    if (next >= steps.length) resolveDone()
  }
  let removeTicker = () => {}
  if (stepping) {
    const chunk = scenario.kubelet.heartbeatSeconds * 1000
    void (async () => {
      for (const step of steps) {
        while (!stopped && emulator.clock.now().getTime() < t0 + step.at) {
          emulator.clock.advance(Math.min(chunk, t0 + step.at - emulator.clock.now().getTime()))
          await new Promise((r) => setImmediate(r))
        }
        if (stopped) return
        applyDue(emulator.clock.now().getTime())
      }
      applyDue(emulator.clock.now().getTime())
    })()
  } else {
    removeTicker = emulator.addTicker((now) => applyDue(now.getTime()))
    applyDue(t0)
  }
  return {
    done,
    applied,
    stop: () => {
      stopped = true
      removeTicker()
      kubelets?.stop()
      resolveDone()
    },
  }
}

function writeNode(emulator: Emulator, name: string, change: (node: KubeObject, nowIso: string) => void): void {
  const { store } = emulator.state
  const def = store.resolve('nodes')
  const node = JSON.parse(store.mustGet(def, '', name).json) as KubeObject
  const nowIso = store.nowIso()
  change(node, nowIso)
  store.replace(def, node)
}

function setCondition(
  node: KubeObject,
  c: { type: string; status: string; reason?: string; message?: string },
  nowIso: string,
) {
  node.status = node.status ?? {}
  const conditions: KubeObject[] = node.status.conditions ?? []
  let found = conditions.find((x) => x.type === c.type)
  if (!found) {
    found = { type: c.type, status: c.status, lastTransitionTime: nowIso }
    conditions.push(found)
  }
  if (found.status !== c.status) found.lastTransitionTime = nowIso
  Object.assign(found, {
    status: c.status,
    reason: c.reason ?? c.type,
    message: c.message ?? '',
    lastHeartbeatTime: nowIso,
  })
  node.status.conditions = conditions
  syncLifecycleTaints(node, nowIso)
}

/** applyStep performs one timeline step now and returns a short description. */
export function applyStep(emulator: Emulator, step: ScenarioStep): string {
  const { state } = emulator
  if ('setCondition' in step) {
    const { node, ...c } = step.setCondition
    writeNode(emulator, node, (n, now) => setCondition(n, c, now))
    return `${node} ${c.type}=${c.status}`
  }
  if ('clearCondition' in step) {
    const { node, type } = step.clearCondition
    const status = type === 'Ready' ? 'True' : 'False'
    writeNode(emulator, node, (n, now) => setCondition(n, { type, status, reason: `No${type}` }, now))
    return `${node} ${type}=${status}`
  }
  if ('addTaint' in step) {
    const { node, ...taint } = step.addTaint
    writeNode(emulator, node, (n, now) => {
      n.spec = n.spec ?? {}
      const taints: KubeObject[] = n.spec.taints ?? []
      if (!taints.some((t) => t.key === taint.key && t.effect === taint.effect))
        taints.push({ ...taint, ...(taint.effect === 'NoExecute' ? { timeAdded: now } : {}) })
      n.spec.taints = taints
    })
    return `${node} +${taint.key}:${taint.effect}`
  }
  if ('removeTaint' in step) {
    const { node, key, effect } = step.removeTaint
    writeNode(emulator, node, (n) => {
      const taints = (n.spec?.taints ?? []).filter(
        (t: KubeObject) => !(t.key === key && (!effect || t.effect === effect)),
      )
      if (taints.length > 0) n.spec.taints = taints
      else delete n.spec?.taints
    })
    return `${node} -${key}`
  }
  if ('setStats' in step) {
    emulator.store.setNodeStats(step.setStats.node, step.setStats.stats)
    return `${step.setStats.node} stats`
  }
  if ('silence' in step) {
    state.silentNodes.add(step.silence.node)
    return `${step.silence.node} silent`
  }
  if ('resume' in step) {
    state.silentNodes.delete(step.resume.node)
    return `${step.resume.node} resumed`
  }
  if ('createPod' in step) {
    const pod = podObject(emulator, step.createPod, new Map(), state.store.nowIso())
    state.ops.create(state.store.resolve('pods'), step.createPod.namespace, pod, { privileged: true })
    return `${step.createPod.namespace}/${step.createPod.name} created`
  }
  if ('deletePod' in step) {
    const { namespace, name, gracePeriodSeconds } = step.deletePod
    state.ops.delete(state.store.resolve('pods'), namespace, name, {
      ...(gracePeriodSeconds !== undefined ? { gracePeriodSeconds } : {}),
    })
    return `${namespace}/${name} deleted`
  }
  if ('fault' in step) {
    emulator.faults.inject(step.fault)
    return `fault ${JSON.stringify(step.fault)}`
  }
  emulator.faults.clear()
  return 'faults cleared'
}
