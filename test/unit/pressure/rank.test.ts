import { describe, expect, it } from 'vitest'
import type { PodUsage, SlimPod } from '../../../shared/messages/index.ts'
import {
  diskFsStats,
  type FsStatsType,
  rankDiskPressure,
  rankMemoryPressure,
  rankPIDPressure,
  usageLookup,
} from '../../../shared/pressure/rank.ts'
import { podRequest } from '../../../shared/pressure/requests.ts'
import { aPod } from '../../fixtures/builders.ts'

/** Ported from kubernetes/kubernetes pkg/kubelet/eviction/helpers_test.go (TestOrderedBy*); case names kept. */

const Mi = 2 ** 20
type Res = { cpu?: string; memory?: string; disk?: string }
const list = (r: Res) => ({
  ...(r.cpu ? { cpu: r.cpu } : {}),
  ...(r.memory ? { memory: r.memory } : {}),
  ...(r.disk ? { 'ephemeral-storage': r.disk } : {}),
})
/** newPod(name, priority, requests, limits): uid = name, one emptyDir volume "local-volume", as upstream. */
const newPod = (name: string, priority: number, requests: Res = {}, limits: Res = {}): SlimPod =>
  aPod({
    name,
    uid: name,
    priority,
    containers: [{ name, requests: list(requests), limits: list(limits) }],
    localVolumes: ['local-volume'],
  })
const memStats = (pod: SlimPod, mi: number): PodUsage => ({ uid: pod.uid, workingSetBytes: mi * Mi })
/** newPodDiskStats: one container's rootfs and logs plus the "local-volume" volume (upstream helper). */
const diskStats = (pod: SlimPod, root: number, logs: number, vol: number, unit = Mi): PodUsage => ({
  uid: pod.uid,
  rootfsBytes: root * unit,
  logsBytes: logs * unit,
  rootfsInodes: root * unit,
  logsInodes: logs * unit,
  volumes: [{ name: 'local-volume', bytes: vol * unit, inodes: vol * unit }],
})
const names = (ranked: { pod: SlimPod }[]) => ranked.map((r) => r.pod.name)
const ALL: FsStatsType[] = ['root', 'logs', 'localVolumeSource']

describe('kubelet memory ranking', () => {
  it('TestOrderedByExceedsRequestMemory: usage above requests is evicted first', () => {
    const below = newPod('below-requests', -1, { memory: '200Mi' })
    const exceeds = newPod('exceeds-requests', 1, { memory: '100Mi' })
    const usage = usageLookup([memStats(below, 199), memStats(exceeds, 101)])
    expect(names(rankMemoryPressure([below, exceeds], usage))).toEqual(['exceeds-requests', 'below-requests'])
  })

  it('TestOrderedByPriority: lower priority first when usage does not decide', () => {
    const low = newPod('low-priority', -134)
    const medium = newPod('medium-priority', 1, { cpu: '100m', memory: '100Mi' }, { cpu: '200m', memory: '200Mi' })
    const high = newPod('high-priority', 12534, { cpu: '200m', memory: '200Mi' }, { cpu: '200m', memory: '200Mi' })
    const none = usageLookup([])
    expect(names(rankPIDPressure([high, medium, low], none))).toEqual([
      'low-priority',
      'medium-priority',
      'high-priority',
    ])
  })

  it('TestOrderedByMemory: by working set − request (priorities and "exceeds" equal within groups)', () => {
    const p = [
      newPod('best-effort-high', 0),
      newPod('best-effort-low', 0),
      newPod('burstable-high', 0, { memory: '100Mi' }, { memory: '1Gi' }),
      newPod('burstable-low', 0, { memory: '100Mi' }, { memory: '1Gi' }),
      newPod('guaranteed-high', 0, { memory: '1Gi' }, { memory: '1Gi' }),
      newPod('guaranteed-low', 0, { memory: '1Gi' }, { memory: '1Gi' }),
    ] as const
    const usage = usageLookup([500, 300, 800, 300, 800, 200].map((mi, i) => memStats(p[i] as SlimPod, mi)))
    // upstream sorts with `memory` alone; the full ranking keeps the same order here except that
    // pods above requests come first — exactly the upstream TestOrderedByPriorityMemory rule below.
    const ranked = rankMemoryPressure([...p], usage)
    expect(names(ranked)).toEqual([
      'burstable-high',
      'best-effort-high',
      'best-effort-low',
      'burstable-low',
      'guaranteed-high',
      'guaranteed-low',
    ])
  })

  it('TestOrderedByPriorityMemory: exceeds requests, then priority, then usage − request', () => {
    const specs: [string, number, string | undefined, number][] = [
      ['above-requests-low-priority-high-usage', -1, undefined, 500],
      ['above-requests-low-priority-low-usage', -1, undefined, 50],
      ['above-requests-high-priority-high-usage', 1, '100Mi', 600],
      ['above-requests-high-priority-low-usage', 1, '100Mi', 150],
      ['below-requests-low-priority-high-usage', -1, '1Gi', 800],
      ['below-requests-low-priority-low-usage', -1, '1Gi', 200],
      ['below-requests-high-priority-high-usage', 1, '1Gi', 800],
      ['below-requests-high-priority-low-usage', 1, '1Gi', 200],
    ]
    const pods = specs.map(([n, prio, mem]) => newPod(n, prio, mem ? { memory: mem } : {}))
    const usage = usageLookup(specs.map(([, , , mi], i) => memStats(pods[i] as SlimPod, mi)))
    expect(names(rankMemoryPressure([...pods].reverse(), usage))).toEqual(specs.map(([n]) => n))
  })

  it('ranks a pod without stats first, as upstream', () => {
    const a = newPod('has-stats', -5)
    const b = newPod('no-stats', 100, { memory: '1Gi' })
    const ranked = rankMemoryPressure([a, b], usageLookup([memStats(a, 900)]))
    expect(names(ranked)).toEqual(['no-stats', 'has-stats'])
    expect(ranked[0]?.hasStats).toBe(false)
  })
})

describe('kubelet PID ranking', () => {
  it('TestOrderedByPriorityProcess: priority, then more processes', () => {
    const p1 = newPod('low-priority-high-usage', -1)
    const p2 = newPod('low-priority-low-usage', -1)
    const p3 = newPod('high-priority-high-usage', 1)
    const p4 = newPod('high-priority-low-usage', 1)
    const usage = usageLookup([
      { uid: p1.uid, processCount: 20 },
      { uid: p2.uid, processCount: 6 },
      { uid: p3.uid, processCount: 20 },
      { uid: p4.uid, processCount: 5 },
    ])
    expect(names(rankPIDPressure([p4, p3, p2, p1], usage))).toEqual([p1, p2, p3, p4].map((p) => p.name))
  })
})

describe('kubelet disk ranking', () => {
  it('TestOrderedByExceedsRequestDisk', () => {
    const below = newPod('below-requests', -1, { disk: '200Mi' })
    const exceeds = newPod('exceeds-requests', 1, { disk: '100Mi' })
    const usage = usageLookup([diskStats(below, 100, 99, 0), diskStats(exceeds, 90, 11, 0)])
    expect(names(rankDiskPressure([below, exceeds], usage, ALL, 'ephemeral-storage'))).toEqual([
      'exceeds-requests',
      'below-requests',
    ])
  })

  it('TestOrderedbyDisk: usage − ephemeral-storage request, largest first (same priority)', () => {
    const specs: [string, string | undefined, number, number, number][] = [
      ['best-effort-high', undefined, 50, 100, 150],
      ['best-effort-low', undefined, 25, 25, 50],
      ['burstable-high', '100Mi', 150, 150, 50],
      ['burstable-low', '100Mi', 25, 35, 50],
      ['guaranteed-high', '400Mi', 225, 100, 50],
      ['guaranteed-low', '400Mi', 25, 45, 50],
    ]
    const pods = specs.map(([n, disk]) => newPod(n, 0, disk ? { disk } : {}))
    const usage = usageLookup(specs.map(([, , r, l, v], i) => diskStats(pods[i] as SlimPod, r, l, v)))
    // upstream sorts by `disk` alone: [pod1, pod3, pod2, pod4, pod5, pod6]; with "exceeds" first the
    // two below-request pods (5, 6) stay last and the order of the rest is the same.
    expect(names(rankDiskPressure(pods, usage, ALL, 'ephemeral-storage'))).toEqual([
      'best-effort-high',
      'burstable-high',
      'best-effort-low',
      'burstable-low',
      'guaranteed-high',
      'guaranteed-low',
    ])
  })

  it('TestOrderedbyInodes: most inodes first', () => {
    const low = newPod('low', 0)
    const medium = newPod('medium', 0)
    const high = newPod('high', 0)
    const usage = usageLookup([
      diskStats(low, 50_000, 100_000, 50_000, 1),
      diskStats(medium, 100_000, 150_000, 50_000, 1),
      diskStats(high, 200_000, 150_000, 50_000, 1),
    ])
    expect(names(rankDiskPressure([low, medium, high], usage, ALL, 'inodes'))).toEqual(['high', 'medium', 'low'])
  })

  it('TestOrderedByPriorityDisk: exceeds requests, then priority, then usage − request', () => {
    const specs: [string, number, string | undefined, number, number, number][] = [
      ['above-requests-low-priority-high-usage', -1, undefined, 200, 100, 200],
      ['above-requests-low-priority-low-usage', -1, undefined, 10, 10, 30],
      ['above-requests-high-priority-high-usage', 1, '100Mi', 200, 150, 250],
      ['above-requests-high-priority-low-usage', 1, '100Mi', 90, 50, 10],
      ['below-requests-low-priority-high-usage', -1, '1Gi', 500, 200, 100],
      ['below-requests-low-priority-low-usage', -1, '1Gi', 50, 100, 50],
      ['below-requests-high-priority-high-usage', 1, '1Gi', 250, 500, 50],
      ['below-requests-high-priority-low-usage', 1, '1Gi', 100, 60, 40],
    ]
    const pods = specs.map(([n, prio, disk]) => newPod(n, prio, disk ? { disk } : {}))
    const usage = usageLookup(specs.map(([, , , r, l, v], i) => diskStats(pods[i] as SlimPod, r, l, v)))
    expect(names(rankDiskPressure([...pods].reverse(), usage, ALL, 'ephemeral-storage'))).toEqual(specs.map(([n]) => n))
  })

  it('TestOrderedByPriorityInodes: priority, then most inodes (every pod "exceeds" its 0 inode request)', () => {
    const specs: [string, number, number, number, number][] = [
      ['low-priority-high-usage', -1, 50_000, 100_000, 250_000],
      ['low-priority-low-usage', -1, 60_000, 30_000, 10_000],
      ['high-priority-high-usage', 1, 150_000, 150_000, 50_000],
      ['high-priority-low-usage', 1, 10_000, 40_000, 100_000],
    ]
    const pods = specs.map(([n, prio]) => newPod(n, prio))
    const usage = usageLookup(specs.map(([, , r, l, v], i) => diskStats(pods[i] as SlimPod, r, l, v, 1)))
    expect(names(rankDiskPressure([...pods].reverse(), usage, ALL, 'inodes'))).toEqual(specs.map(([n]) => n))
  })

  it.each([
    { layout: 'shared', signal: 'nodefs.available', counts: ['images', 'root', 'logs', 'localVolumeSource'] },
    { layout: 'shared', signal: 'imagefs.available', counts: ['images', 'root', 'logs', 'localVolumeSource'] },
    { layout: 'dedicatedImageFs', signal: 'nodefs.available', counts: ['logs', 'localVolumeSource'] },
    { layout: 'dedicatedImageFs', signal: 'imagefs.inodesFree', counts: ['root', 'images'] },
    { layout: 'splitContainerFs', signal: 'nodefs.available', counts: ['logs', 'localVolumeSource', 'root'] },
    { layout: 'splitContainerFs', signal: 'imagefs.available', counts: ['images'] },
  ] as const)('filesystem layout $layout: $signal counts $counts', ({ layout, signal, counts }) => {
    expect(diskFsStats(signal, layout)).toEqual(counts)
  })

  it('with a dedicated imagefs, nodefs pressure ranks by logs and volumes, not the writable layer', () => {
    const writer = newPod('big-rootfs', 0)
    const logger = newPod('big-logs', 0)
    const usage = usageLookup([diskStats(writer, 900, 1, 0), diskStats(logger, 1, 300, 0)])
    const nodefs = diskFsStats('nodefs.available', 'dedicatedImageFs')
    const imagefs = diskFsStats('imagefs.available', 'dedicatedImageFs')
    expect(names(rankDiskPressure([writer, logger], usage, nodefs, 'ephemeral-storage'))).toEqual([
      'big-logs',
      'big-rootfs',
    ])
    expect(names(rankDiskPressure([writer, logger], usage, imagefs, 'ephemeral-storage'))).toEqual([
      'big-rootfs',
      'big-logs',
    ])
  })
})

describe('pod requests (GetResourceRequestQuantity)', () => {
  const r = (memory: string) => ({ memory })
  it.each([
    { name: 'sums regular containers', containers: [r('100Mi'), r('50Mi')], init: [], expected: 150 * Mi },
    {
      name: 'a larger init container wins',
      containers: [r('100Mi')],
      init: [{ requests: r('300Mi') }],
      expected: 300 * Mi,
    },
    {
      name: 'sidecars add to regular containers and to later init containers',
      containers: [r('100Mi')],
      init: [{ requests: r('50Mi'), restartPolicy: 'Always' }, { requests: r('120Mi') }],
      expected: 170 * Mi,
    },
    { name: 'nobody requests: 0', containers: [{}], init: [], expected: 0 },
  ])('$name', ({ containers, init, expected }) => {
    const pod = aPod({
      containers: containers.map((requests, i) => ({ name: `c${i}`, requests })),
      initContainers: init.map((c, i) => ({ name: `i${i}`, ...c })),
    })
    const q = podRequest(pod, 'memory')
    expect(Number(q.num) / Number(q.den)).toBe(expected)
  })

  it('adds spec.overhead', () => {
    const pod = aPod({ containers: [{ name: 'a', requests: { memory: '100Mi' } }], overhead: { memory: '28Mi' } })
    expect(Number(podRequest(pod, 'memory').num)).toBe(128 * Mi)
  })
})
