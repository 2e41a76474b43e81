import { describe, expect, it } from 'vitest'
import { renderSummary } from '../../../functions/cluster/kubelet-summary.ts'
import type { KubeObject } from '../../../functions/cluster/store.ts'
import { rankForSignal, usageLookup } from '../../../shared/pressure/rank.ts'
import { makeSignalObservations, toNodeStats } from '../../../shared/pressure/signals.ts'
import { SummarySchema } from '../../../shared/pressure/summary.ts'
import { aPod } from '../../fixtures/builders.ts'

const NOW = new Date('2026-11-22T10:00:00Z')
const MiB = 2 ** 20
const GiB = 2 ** 30
const node: KubeObject = {
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'node-a', uid: 'uid-node-a', creationTimestamp: '2026-11-01T00:00:00Z' },
  status: { capacity: { memory: '16Gi', 'ephemeral-storage': '100Gi' }, allocatable: { memory: '15Gi' } },
} as KubeObject
const pod = (name: string, containers = ['app'], volumes: object[] = []): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', uid: `uid-default-${name}`, creationTimestamp: '2026-11-20T00:00:00Z' },
    spec: { nodeName: 'node-a', containers: containers.map((c) => ({ name: c })), volumes },
  }) as KubeObject

const summary = (pods: KubeObject[], stats: Parameters<typeof renderSummary>[2]) =>
  SummarySchema.parse(renderSummary(node, pods, stats, NOW))

describe('the emulator kubelet Summary reports per-pod usage the eviction rankings read', () => {
  it.each([
    {
      name: 'defaults: 9Mi rootfs and 1Mi logs (10Mi ephemeral-storage)',
      stats: {},
      containers: ['app'],
      expected: { rootfs: [9 * MiB], logs: [MiB], ephemeral: 10 * MiB, volumes: [] as number[] },
    },
    {
      name: 'explicit rootfs, logs and an emptyDir, split over two containers',
      stats: { rootfsUsedBytes: 4 * GiB, logsUsedBytes: 2 * GiB, volumeUsedBytes: GiB },
      containers: ['app', 'sidecar'],
      volumes: [{ name: 'cache', emptyDir: {} }],
      expected: { rootfs: [2 * GiB, 2 * GiB], logs: [GiB, GiB], ephemeral: 7 * GiB, volumes: [GiB] },
    },
    {
      name: 'a total ephemeral-storage figure: the rest after logs is the rootfs',
      stats: { ephemeralStorageUsedBytes: 5 * GiB },
      containers: ['app'],
      expected: { rootfs: [5 * GiB - MiB], logs: [MiB], ephemeral: 5 * GiB, volumes: [] },
    },
    {
      name: 'a volume figure without an emptyDir in the spec',
      stats: { volumeUsedBytes: 3 * GiB },
      containers: ['app'],
      expected: { rootfs: [9 * MiB], logs: [MiB], ephemeral: 3 * GiB + 10 * MiB, volumes: [3 * GiB] },
    },
  ])('$name', ({ stats, containers, volumes, expected }) => {
    const s = summary([pod('p', containers, volumes)], { pods: { 'default/p': stats } })
    const p = s.pods?.[0]
    expect({
      rootfs: p?.containers?.map((c) => c.rootfs?.usedBytes),
      logs: p?.containers?.map((c) => c.logs?.usedBytes),
      ephemeral: p?.['ephemeral-storage']?.usedBytes,
      volumes: (p?.volume ?? []).map((v) => v.usedBytes),
    }).toEqual(expected)
  })

  it.each([
    {
      name: 'a shared filesystem: writable layers count',
      imageFsCapacityBytes: undefined,
      expected: 100 - 40 - 4 - 2 - 1,
    },
    {
      name: 'a dedicated image filesystem: only logs and emptyDirs',
      imageFsCapacityBytes: 200 * GiB,
      expected: 100 - 40 - 2 - 1,
    },
  ])('derives nodefs available from the node base use and the pods on $name', ({ imageFsCapacityBytes, expected }) => {
    const running = pod('a')
    const failed = { ...pod('gone'), status: { phase: 'Failed' } } as KubeObject
    const s = summary([running, failed], {
      fsCapacityBytes: 100 * GiB,
      fsBaseUsedBytes: 40 * GiB,
      ...(imageFsCapacityBytes ? { imageFsCapacityBytes } : {}),
      pods: {
        'default/a': { rootfsUsedBytes: 4 * GiB, logsUsedBytes: 2 * GiB, volumeUsedBytes: GiB },
        'default/gone': { logsUsedBytes: 30 * GiB },
      },
    })
    expect(s.node.fs?.availableBytes).toBe(expected * GiB)
  })

  it('reports the pods cgroup: allocatable memory minus the pods working sets', () => {
    const s = summary([pod('a'), pod('b')], { pods: { 'default/a': { memoryWorkingSetBytes: GiB } } })
    const obs = makeSignalObservations(s)
    expect(obs.observations['allocatableMemory.available']).toMatchObject({
      available: 15 * GiB - GiB - 64 * MiB,
      capacity: 15 * GiB,
    })
    expect(obs.unknown['allocatableMemory.available']).toBeUndefined()
  })

  it('lets the kubelet disk ranking put the heaviest low-priority pod first', () => {
    const pods = [pod('light'), pod('heavy'), pod('logger')]
    const s = summary(pods, {
      fsAvailableBytes: 12 * GiB,
      pods: {
        'default/heavy': { rootfsUsedBytes: 20 * GiB },
        'default/logger': { logsUsedBytes: 6 * GiB },
      },
    })
    const stats = toNodeStats(s, NOW)
    const slim = ['light', 'heavy', 'logger'].map((name) => aPod({ name, containers: [{ name: 'app' }] }))
    const ranked = rankForSignal('nodefs.available', stats.layout, slim, usageLookup(stats.pods))
    expect(ranked.map((r) => r.pod.name)).toEqual(['heavy', 'logger', 'light'])
    expect(stats.signals['nodefs.available']).toMatchObject({ available: 12 * GiB, capacity: 100 * GiB })
  })
})
