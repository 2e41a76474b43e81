import {
  ApiException,
  ApiextensionsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  makeInformer,
  PatchStrategy,
  PolicyV1Api,
  setHeaderOptions,
  type V1Node,
  type V1Pod,
  Watch,
} from '@kubernetes/client-node'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type Emulator, startEmulator } from '../../../functions/cluster/emulator.ts'

let emu: Emulator
let core: CoreV1Api

const node = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { zone: 'a' } },
  spec: {},
  status: { conditions: [{ type: 'Ready', status: 'True' }] },
})
const pod = (name: string, nodeName = 'n1', labels: Record<string, string> = { app: 'web' }) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default', labels },
  spec: { nodeName, terminationGracePeriodSeconds: 30, containers: [{ name: 'c', image: 'x' }] },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
})
const statusOf = (err: unknown) => {
  expect(err).toBeInstanceOf(ApiException)
  const e = err as ApiException<string>
  return { code: e.code, ...(JSON.parse(e.body) as { reason: string; message: string }) }
}
async function failure(p: Promise<unknown>) {
  try {
    await p
  } catch (err) {
    return statusOf(err)
  }
  throw new Error('expected the call to fail')
}
const until = async (check: () => boolean, ms = 3000) => {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 10))
  }
}

beforeEach(async () => {
  emu = await startEmulator({ historyLimit: 50, bookmarkIntervalMs: 100 })
  emu.store.create(node('n1'))
  emu.store.create(node('n2'))
  core = emu.kubeConfig().makeApiClient(CoreV1Api)
})
afterEach(async () => {
  await emu.close()
})

describe('list and watch', () => {
  it('paginates with limit and continue, under one list resourceVersion', async () => {
    for (let i = 0; i < 5; i++) emu.store.create(pod(`p${i}`))
    const first = await core.listNamespacedPod({ namespace: 'default', limit: 2 })
    expect(first.items.map((p) => p.metadata?.name)).toEqual(['p0', 'p1'])
    const second = await core.listNamespacedPod({
      namespace: 'default',
      limit: 2,
      _continue: first.metadata?._continue,
    })
    expect(second.items.map((p) => p.metadata?.name)).toEqual(['p2', 'p3'])
    expect(second.metadata?.resourceVersion).toBe(first.metadata?.resourceVersion)
    const third = await core.listNamespacedPod({
      namespace: 'default',
      limit: 2,
      _continue: second.metadata?._continue,
    })
    expect(third.items.map((p) => p.metadata?.name)).toEqual(['p4'])
    expect(third.metadata?._continue).toBeUndefined()
  })

  it('filters by label and field selectors', async () => {
    emu.store.create(pod('a', 'n1', { app: 'web' }))
    emu.store.create(pod('b', 'n2', { app: 'db' }))
    const onN2 = await core.listPodForAllNamespaces({ fieldSelector: 'spec.nodeName=n2' })
    expect(onN2.items.map((p) => p.metadata?.name)).toEqual(['b'])
    const web = await core.listPodForAllNamespaces({ labelSelector: 'app in (web)' })
    expect(web.items.map((p) => p.metadata?.name)).toEqual(['a'])
  })

  it('resumes a watch from a resourceVersion and sends bookmarks when asked', async () => {
    const list = await core.listNode()
    await core.patchNode(
      { name: 'n1', body: { metadata: { labels: { x: '1' } } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    )
    const seen: string[] = []
    const ctrl = await new Watch(emu.kubeConfig()).watch(
      '/api/v1/nodes',
      { resourceVersion: list.metadata?.resourceVersion, allowWatchBookmarks: true },
      (type, obj: V1Node) => seen.push(type === 'BOOKMARK' ? type : `${type}:${obj.metadata?.name}`),
      () => {},
    )
    emu.store.delete('nodes', '', 'n2')
    await until(() => seen.includes('BOOKMARK') && seen.includes('DELETED:n2'))
    ctrl.abort()
    expect(seen.filter((s) => s !== 'BOOKMARK')).toEqual(['MODIFIED:n1', 'DELETED:n2'])
  })

  it('answers a watch from a compacted resourceVersion with an in-stream 410 Expired', async () => {
    const rv = emu.store.resourceVersion()
    for (let i = 0; i < 60; i++) emu.store.patch('nodes', '', 'n1', { metadata: { labels: { i: String(i) } } })
    const errors: Array<{ code?: number; reason?: string }> = []
    await new Watch(emu.kubeConfig()).watch(
      '/api/v1/nodes',
      { resourceVersion: rv },
      (type, obj) => type === 'ERROR' && errors.push(obj),
      () => {},
    )
    await until(() => errors.length > 0)
    expect(errors[0]).toMatchObject({ code: 410, reason: 'Expired' })
  })

  it('lets an informer relist after a forced 410 and see objects created meanwhile', async () => {
    const informer = makeInformer(emu.kubeConfig(), '/api/v1/nodes', () => core.listNode())
    await informer.start()
    emu.faults.forceGone('nodes')
    emu.store.create(node('n3'))
    await until(() => informer.list().some((n) => n.metadata?.name === 'n3'))
    await informer.stop()
    expect(emu.requests.filter({ resource: 'nodes', verb: 'list' }).length).toBeGreaterThanOrEqual(2)
  })
})

describe('writes', () => {
  it.each([
    {
      name: 'JSON patch',
      type: PatchStrategy.JsonPatch,
      body: [{ op: 'add', path: '/spec/taints', value: [{ key: 'k', effect: 'NoSchedule' }] }],
    },
    {
      name: 'merge patch',
      type: PatchStrategy.MergePatch,
      body: { spec: { taints: [{ key: 'k', effect: 'NoSchedule' }] } },
    },
    {
      name: 'strategic merge patch',
      type: PatchStrategy.StrategicMergePatch,
      body: { spec: { taints: [{ key: 'k', effect: 'NoSchedule' }] } },
    },
  ])('applies a $name to node taints', async ({ type, body }) => {
    const out = await core.patchNode({ name: 'n1', body }, setHeaderOptions('Content-Type', type))
    expect(out.spec?.taints).toEqual([{ key: 'k', effect: 'NoSchedule' }])
    expect(emu.store.get('nodes', '', 'n1')?.spec.taints).toEqual([{ key: 'k', effect: 'NoSchedule' }])
  })

  it('rejects a write with a stale resourceVersion with 409 Conflict and keeps the stored object', async () => {
    const n = await core.readNode({ name: 'n1' })
    await core.patchNode({ name: 'n1', body: [{ op: 'add', path: '/metadata/labels/a', value: 'b' }] })
    const status = await failure(core.replaceNode({ name: 'n1', body: { ...n, spec: { unschedulable: true } } }))
    expect(status).toMatchObject({ code: 409, reason: 'Conflict' })
    expect(emu.store.get('nodes', '', 'n1')?.spec.unschedulable).toBeUndefined()
  })

  it('hands out strictly increasing resourceVersions across types', async () => {
    const a = await core.patchNode({ name: 'n1', body: [{ op: 'add', path: '/metadata/labels/a', value: '1' }] })
    const b = await core.createNamespacedConfigMap({
      namespace: 'default',
      body: { metadata: { name: 'cm' }, data: {} },
    })
    const c = await core.patchNode({ name: 'n2', body: [{ op: 'add', path: '/metadata/labels/a', value: '1' }] })
    const rvs = [a, b, c].map((o) => Number(o.metadata?.resourceVersion))
    expect(rvs).toEqual([...rvs].sort((x, y) => x - y))
    expect(new Set(rvs).size).toBe(3)
  })

  it('stores nothing on dryRun=All', async () => {
    const out = await core.patchNode(
      { name: 'n1', dryRun: 'All', body: { spec: { unschedulable: true } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    )
    expect(out.spec?.unschedulable).toBe(true)
    expect(emu.store.get('nodes', '', 'n1')?.spec.unschedulable).toBeUndefined()
  })

  it('allows adding tolerations to a live pod but refuses other spec changes with 422', async () => {
    emu.store.create(pod('p'))
    const tol = {
      key: 'node.kubernetes.io/unreachable',
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: 300,
    }
    const out = await core.patchNamespacedPod(
      { name: 'p', namespace: 'default', body: { spec: { tolerations: [tol] } } },
      setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
    )
    expect(out.spec?.tolerations).toEqual([tol])
    const status = await failure(
      core.patchNamespacedPod(
        { name: 'p', namespace: 'default', body: { spec: { nodeName: 'n2' } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      ),
    )
    expect(status.code).toBe(422)
    expect(status.message).toContain('Pod "p" is invalid: spec: Forbidden: pod updates may not change fields')
  })

  it('deletes a bound pod gracefully: deletionTimestamp first, removal after the grace period', async () => {
    emu.store.create(pod('p'))
    const deleted = (await core.deleteNamespacedPod({
      name: 'p',
      namespace: 'default',
      gracePeriodSeconds: 20,
    })) as V1Pod
    expect(deleted.metadata?.deletionTimestamp).toBeDefined()
    expect(emu.store.get('pods', 'default', 'p')).toBeDefined()
    emu.clock.advance(21_000)
    expect(emu.store.get('pods', 'default', 'p')).toBeUndefined()
  })
})

describe('eviction', () => {
  const evict = (name: string) =>
    core.createNamespacedPodEviction({
      name,
      namespace: 'default',
      body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: 'default' } },
    })
  const addPdb = (minAvailable: number | string) =>
    emu.store.create({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'web', namespace: 'default' },
      spec: { minAvailable, selector: { matchLabels: { app: 'web' } } },
    })

  it('evicts a pod no budget protects', async () => {
    emu.store.create(pod('p'))
    await evict('p')
    expect(emu.store.get('pods', 'default', 'p')?.metadata.deletionTimestamp).toBeDefined()
  })

  it('answers 429 with the upstream message and cause when the budget would be violated', async () => {
    emu.store.create(pod('a'))
    emu.store.create(pod('b'))
    addPdb(2)
    const status = await failure(evict('a'))
    expect(status).toMatchObject({
      code: 429,
      reason: 'TooManyRequests',
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
    })
    expect(JSON.stringify(status)).toContain('The disruption budget web needs 2 healthy pods and has 2 currently')
  })

  it('evicts within the budget, records the disruption and then blocks the next one', async () => {
    emu.store.create(pod('a'))
    emu.store.create(pod('b'))
    addPdb('50%')
    await evict('a')
    const pdb = await emu
      .kubeConfig()
      .makeApiClient(PolicyV1Api)
      .readNamespacedPodDisruptionBudget({ name: 'web', namespace: 'default' })
    expect(pdb.status?.disruptionsAllowed).toBe(0)
    expect((await failure(evict('b'))).code).toBe(429)
  })

  it('answers 500 when more than one budget matches and 404 for a missing pod', async () => {
    emu.store.create(pod('a'))
    addPdb(0)
    emu.store.create({
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'all', namespace: 'default' },
      spec: { maxUnavailable: 1, selector: {} },
    })
    expect((await failure(evict('a'))).code).toBe(500)
    expect((await failure(evict('nope'))).code).toBe(404)
  })
})

describe('custom resources and bad input', () => {
  it('serves a CRD-defined AlertSubscription round trip', async () => {
    await emu
      .kubeConfig()
      .makeApiClient(ApiextensionsV1Api)
      .createCustomResourceDefinition({
        body: {
          metadata: { name: 'alertsubscriptions.nodewarden.io' },
          spec: {
            group: 'nodewarden.io',
            scope: 'Namespaced',
            names: { plural: 'alertsubscriptions', singular: 'alertsubscription', kind: 'AlertSubscription' },
            versions: [
              {
                name: 'v1alpha1',
                served: true,
                storage: true,
                schema: { openAPIV3Schema: { type: 'object', x_kubernetes_preserve_unknown_fields: true } },
              },
            ],
          },
        },
      })
    const custom = emu.kubeConfig().makeApiClient(CustomObjectsApi)
    const coords = { group: 'nodewarden.io', version: 'v1alpha1', namespace: 'default', plural: 'alertsubscriptions' }
    await custom.createNamespacedCustomObject({
      ...coords,
      body: {
        apiVersion: 'nodewarden.io/v1alpha1',
        kind: 'AlertSubscription',
        metadata: { name: 'ops' },
        spec: { url: 'https://example.test/hook' },
      },
    })
    const got = (await custom.getNamespacedCustomObject({ ...coords, name: 'ops' })) as { spec: { url: string } }
    expect(got.spec.url).toBe('https://example.test/hook')
    const listed = (await custom.listNamespacedCustomObject(coords)) as { kind: string; items: unknown[] }
    expect(listed).toMatchObject({ kind: 'AlertSubscriptionList' })
    expect(listed.items).toHaveLength(1)
  })

  it.each([
    {
      name: 'malformed JSON',
      path: '/api/v1/namespaces/default/configmaps',
      method: 'POST',
      body: '{nope',
      code: 400,
      text: 'not valid JSON',
    },
    {
      name: 'an unknown field',
      path: '/api/v1/nodes/n1',
      method: 'PATCH',
      body: '{"spec":{"colour":"red"}}',
      code: 400,
      text: 'unknown field "spec.colour"',
    },
    {
      name: 'an invalid selector',
      path: '/api/v1/pods?labelSelector=a%20b%3Dc',
      method: 'GET',
      body: undefined,
      code: 400,
      text: 'invalid label key',
    },
    {
      name: 'an unsupported field label',
      path: '/api/v1/pods?fieldSelector=spec.colour%3Dred',
      method: 'GET',
      body: undefined,
      code: 400,
      text: 'field label not supported: spec.colour',
    },
    {
      name: 'an unknown resource',
      path: '/api/v1/widgets',
      method: 'GET',
      body: undefined,
      code: 404,
      text: 'widgets',
    },
    {
      name: 'a missing node',
      path: '/api/v1/nodes/nx',
      method: 'GET',
      body: undefined,
      code: 404,
      text: 'nodes "nx" not found',
    },
  ])('answers $name with a Status naming the problem', async ({ path, method, body, code, text }) => {
    const res = await fetch(`${emu.url}${path}`, {
      method,
      ...(body
        ? {
            body,
            headers: { 'Content-Type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' },
          }
        : {}),
    })
    const status = (await res.json()) as { kind: string; code: number; message: string }
    expect(res.status).toBe(code)
    expect(status).toMatchObject({ kind: 'Status', code })
    expect(status.message).toContain(text)
    expect(emu.store.get('nodes', '', 'n1')?.spec).toEqual({})
  })

  it('serves kubelet stats for a node through the proxy path', async () => {
    emu.store.setNodeStats('n1', { fsAvailableBytes: 1234 })
    const res = await fetch(`${emu.url}/api/v1/nodes/n1/proxy/stats/summary`)
    const summary = (await res.json()) as { node: { nodeName: string; fs: { availableBytes: number } } }
    expect(summary.node).toMatchObject({ nodeName: 'n1', fs: { availableBytes: 1234 } })
  })
})

describe('fault injection', () => {
  it('fails matching requests with the injected code a given number of times and logs them', async () => {
    emu.faults.fail(500, { resource: 'nodes', verb: 'get', times: 1 })
    expect((await failure(core.readNode({ name: 'n1' }))).code).toBe(500)
    await expect(core.readNode({ name: 'n1' })).resolves.toBeDefined()
    expect(emu.requests.filter({ resource: 'nodes', verb: 'get' }).map((r) => r.status)).toEqual([500, 200])
  })

  it('drops open watches without an error event', async () => {
    let ended = false
    await new Watch(emu.kubeConfig()).watch(
      '/api/v1/nodes',
      {},
      () => {},
      () => {
        ended = true
      },
    )
    await until(() => emu.store.resourceVersion() !== '' && emu.faults.liveWatches.size === 1)
    expect(emu.faults.dropWatches('nodes')).toBe(1)
    await until(() => ended)
  })
})
