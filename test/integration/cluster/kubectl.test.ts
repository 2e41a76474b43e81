import { execFile, spawn } from 'node:child_process'
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Emulator, startEmulator } from '../../../functions/cluster/emulator.ts'

const KUBECTL = ['/usr/bin/kubectl', '/usr/local/bin/kubectl'].find((p) => existsSync(p))
if (!KUBECTL) console.warn('kubectl not installed: skipping the kubectl tests against the emulator')

type Run = { code: number; stdout: string; stderr: string }
let emu: Emulator
let env: NodeJS.ProcessEnv

function kubectl(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(KUBECTL as string, args, { env, timeout: 25_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    )
  })
}

const labels = { app: 'web' }
function seed() {
  const ready = { conditions: [{ type: 'Ready', status: 'True' }] }
  emu.store.create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' }, spec: {}, status: ready })
  emu.store.create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n2' }, spec: {}, status: ready })
  const ds = emu.store.create({
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'ds1', namespace: 'kube-system' },
    spec: {},
  })
  const rs = emu.store.create({
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'web', namespace: 'default' },
    spec: { replicas: 2 },
  })
  const owner = (o: typeof ds, kind: string) => [
    { apiVersion: 'apps/v1', kind, name: o.metadata.name, uid: o.metadata.uid, controller: true },
  ]
  const pod = (name: string, ns: string, node: string, ownerReferences: unknown, l: Record<string, string> = {}) =>
    emu.store.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: ns, labels: l, ownerReferences },
      spec: { nodeName: node, terminationGracePeriodSeconds: 1, containers: [{ name: 'c', image: 'x' }] },
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
    })
  pod('ds1-n1', 'kube-system', 'n1', owner(ds, 'DaemonSet'))
  pod('web-1', 'default', 'n1', owner(rs, 'ReplicaSet'), labels)
  pod('web-2', 'default', 'n2', owner(rs, 'ReplicaSet'), labels)
  pod('cache-1', 'default', 'n1', owner(rs, 'ReplicaSet'), { app: 'cache' })
  emu.store.create({
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'web-pdb', namespace: 'default' },
    spec: { minAvailable: 2, selector: { matchLabels: labels } },
  })
}

describe.skipIf(!KUBECTL)('kubectl against the emulator', () => {
  beforeAll(async () => {
    emu = await startEmulator()
    seed()
    const home = mkdtempSync(join(tmpdir(), 'kubectl-home-'))
    env = { ...process.env, HOME: home, KUBECONFIG: emu.writeKubeconfig(home) }
  })
  afterAll(async () => {
    await emu?.close()
  })

  it('lists nodes, pods and PDBs as JSON with kinds and the PDB status', async () => {
    const run = await kubectl('get', 'nodes,pods,pdb', '-A', '-o', 'json')
    expect(run.code).toBe(0)
    const list = JSON.parse(run.stdout) as {
      items: Array<{ kind: string; metadata: { name: string }; status?: { disruptionsAllowed?: number } }>
    }
    expect(list.items.map((i) => `${i.kind}/${i.metadata.name}`)).toEqual(
      expect.arrayContaining(['Node/n1', 'Node/n2', 'Pod/web-1', 'Pod/ds1-n1', 'PodDisruptionBudget/web-pdb']),
    )
    expect(list.items.find((i) => i.kind === 'PodDisruptionBudget')?.status?.disruptionsAllowed).toBe(0)
  })

  it('prints server-side tables with cordon state', async () => {
    await emu.store.patch('nodes', '', 'n2', { spec: { unschedulable: true } })
    const run = await kubectl('get', 'nodes')
    expect(run.stdout).toMatch(/n2\s+Ready,SchedulingDisabled/)
    await emu.store.patch('nodes', '', 'n2', { spec: { unschedulable: null } })
  })

  it('taints a node with a strategic merge patch that replaces the list', async () => {
    expect((await kubectl('taint', 'nodes', 'n2', 'a=1:NoSchedule')).code).toBe(0)
    expect((await kubectl('taint', 'nodes', 'n2', 'b=2:NoExecute')).code).toBe(0)
    expect((await kubectl('taint', 'nodes', 'n2', 'a-')).stdout).toContain('node/n2 untainted')
    expect(emu.store.get('nodes', '', 'n2')?.spec.taints).toEqual([{ key: 'b', value: '2', effect: 'NoExecute' }])
  })

  it('cordons a node', async () => {
    const run = await kubectl('cordon', 'n2')
    expect(run.stdout).toContain('node/n2 cordoned')
    expect(emu.store.get('nodes', '', 'n2')?.spec.unschedulable).toBe(true)
  })

  it('drains with --ignore-daemonsets, evicting what it may and stopping at the PDB like a real cluster', async () => {
    const run = await kubectl('drain', 'n1', '--ignore-daemonsets', '--timeout=3s')
    expect(run.code).toBe(1)
    expect(run.stderr).toContain("Cannot evict pod as it would violate the pod's disruption budget.")
    expect(run.stdout).toContain('pod/cache-1 evicted')
    expect(emu.store.get('pods', 'default', 'cache-1')).toBeUndefined()
    expect(emu.store.get('pods', 'default', 'web-1')?.metadata.deletionTimestamp).toBeUndefined()
    expect(emu.store.get('pods', 'kube-system', 'ds1-n1')).toBeDefined()
    expect(emu.requests.filter({ resource: 'pods/eviction', status: 429 }).length).toBeGreaterThan(0)
  })

  it('streams watch events with kubectl get --watch', async () => {
    const child = spawn(KUBECTL as string, ['get', 'nodes', '--watch', '-o', 'name'], { env })
    let out = ''
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString()
    })
    const until = async (check: () => boolean) => {
      const end = Date.now() + 15_000
      while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 50))
    }
    await until(() => out.includes('node/n2'))
    await until(() => emu.faults.liveWatches.size > 0)
    emu.store.create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n3' }, spec: {} })
    await until(() => out.includes('node/n3'))
    child.kill()
    expect(out).toContain('node/n3')
  })
})
