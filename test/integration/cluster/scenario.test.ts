import { afterEach, describe, expect, it } from 'vitest'
import { type Emulator, startEmulator } from '../../../functions/cluster/emulator.ts'
import { loadScenarioFile } from '../../../functions/cluster/scenario/load.ts'
import { playScenario } from '../../../functions/cluster/scenario/player.ts'

let emu: Emulator | undefined
afterEach(async () => {
  await emu?.close()
})

const demo = () => loadScenarioFile(new URL('../../../functions/cluster/scenarios/demo.yaml', import.meta.url).pathname)
const conditionOf = (e: Emulator, node: string, type: string) =>
  e.store.get('nodes', '', node)?.status.conditions.find((c: { type: string }) => c.type === type)?.status

describe('scenario player', () => {
  it('plays the demo in virtual time: silent zone goes Unknown and tainted, then recovers', async () => {
    emu = await startEmulator()
    const player = playScenario(emu, demo(), { clock: 'virtual', speed: Number.POSITIVE_INFINITY })
    const e = emu
    // stop halfway: just after the zone went silent and the grace period passed
    const stepsBeforeResume = player.applied
    await new Promise<void>((resolve) => {
      const check = () => (e.clock.now().getTime() - Date.now() > 4 * 60_000 ? resolve() : setImmediate(check))
      check()
    })
    expect(stepsBeforeResume.map((s) => s.action)).toContain('silence')
    expect(conditionOf(e, 'node-c1', 'Ready')).toBe('Unknown')
    expect(
      e.store
        .get('nodes', '', 'node-c1')
        ?.spec.taints.map((t: { key: string; effect: string }) => `${t.key}:${t.effect}`),
    ).toEqual(['node.kubernetes.io/unreachable:NoSchedule', 'node.kubernetes.io/unreachable:NoExecute'])
    expect((await fetch(`${e.url}/api/v1/nodes/node-c1/proxy/stats/summary`)).status).toBe(503)
    expect(conditionOf(e, 'node-a2', 'DiskPressure')).toBe('True')
    expect(conditionOf(e, 'node-b2', 'KernelDeadlock')).toBe('True')
    await player.done
    player.stop()
    expect(conditionOf(e, 'node-c1', 'Ready')).toBe('True')
    expect(e.store.get('nodes', '', 'node-c1')?.spec.taints).toBeUndefined()
    expect(conditionOf(e, 'node-b2', 'KernelDeadlock')).toBe('False')
    expect(e.store.list('leases', { namespace: 'kube-node-lease' })).toHaveLength(6)
    expect(e.store.list('pods', { fieldSelector: 'status.phase=Failed' }).map((p) => p.status.reason)).toEqual([
      'Evicted',
      'Evicted',
    ])
  })

  it('renews leases and posts heartbeats every 10 s of virtual time', async () => {
    emu = await startEmulator()
    const player = playScenario(emu, { ...demo(), timeline: [] }, { clock: 'virtual', speed: Number.POSITIVE_INFINITY })
    await player.done
    emu.clock.advance(10_000)
    const before = emu.store.get('leases', 'kube-node-lease', 'node-a1')?.spec.renewTime
    emu.clock.advance(10_000)
    const after = emu.store.get('leases', 'kube-node-lease', 'node-a1')?.spec.renewTime
    player.stop()
    expect(before).toMatch(/\.\d{6}Z$/)
    expect(Date.parse(after) - Date.parse(before)).toBeGreaterThanOrEqual(10_000 - 1)
  })
})
