import { describe, expect, it } from 'vitest'
import { localVolumeNames } from '../../../shared/kube-slim/local-volumes.ts'
import { toSlimPod } from '../../../shared/kube-slim/to-slim-pod.ts'
import type { PodUsage } from '../../../shared/messages/index.ts'
import { diskFsStats, localVolumeUsage, rankDiskPressure, usageLookup } from '../../../shared/pressure/rank.ts'
import { toPodUsage } from '../../../shared/pressure/signals.ts'

/**
 * Which volumes are a pod's disk usage for disk-pressure ranking: upstream
 * pkg/kubelet/eviction/helpers.go `localVolumeNames` (hostPath or `volumeutil.IsLocalEphemeralVolume`:
 * gitRepo, configMap, emptyDir on the default medium) feeding `podDiskUsage`/`podLocalVolumeUsage`.
 * Upstream's own ranking tests (TestOrderedbyDisk & co., ported in rank.test.ts) only use
 * `emptyDir: {}` volumes; these cases cover the other kinds, through the raw Pod → slim pod path.
 */

const Gi = 2 ** 30
const ALL = diskFsStats('nodefs.available', 'shared')

/** A raw BestEffort pod with one volume `vol` of the given source, as the API server returns it. */
const rawPod = (name: string, source: Record<string, unknown>) => ({
  metadata: { name, namespace: 'default', uid: name },
  spec: {
    nodeName: 'node-a',
    containers: [{ name: 'app', volumeMounts: [{ name: 'vol', mountPath: '/v' }] }],
    volumes: [{ name: 'vol', ...source }],
  },
  status: { phase: 'Running' },
})

/** Summary pod stats: no rootfs or logs, `bytes` used on the volume `vol`. */
const volumeStats = (uid: string, bytes: number, extra: Record<string, unknown> = {}) =>
  toPodUsage({
    podRef: { name: uid, namespace: 'default', uid },
    containers: [{ name: 'app', rootfs: { usedBytes: 0, inodesUsed: 0 }, logs: { usedBytes: 0, inodesUsed: 0 } }],
    volume: [{ name: 'vol', usedBytes: bytes, inodesUsed: 100, ...extra }],
  } as Parameters<typeof toPodUsage>[0])

describe('disk ranking counts only local volumes (upstream localVolumeNames)', () => {
  it.each([
    { kind: 'emptyDir (default medium)', source: { emptyDir: {} }, counts: true },
    { kind: 'emptyDir medium ""', source: { emptyDir: { medium: '', sizeLimit: '1Gi' } }, counts: true },
    { kind: 'configMap', source: { configMap: { name: 'settings' } }, counts: true },
    { kind: 'gitRepo', source: { gitRepo: { repository: 'https://example.com/r.git' } }, counts: true },
    { kind: 'hostPath', source: { hostPath: { path: '/var/log' } }, counts: true },
    { kind: 'emptyDir medium Memory', source: { emptyDir: { medium: 'Memory' } }, counts: false },
    { kind: 'emptyDir medium HugePages', source: { emptyDir: { medium: 'HugePages-2Mi' } }, counts: false },
    { kind: 'secret', source: { secret: { secretName: 'tls' } }, counts: false },
    {
      kind: 'projected',
      source: { projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } },
      counts: false,
    },
    // Older upstream releases counted downwardAPI; it is tmpfs (its plugin wraps a Memory emptyDir)
    // and current `IsLocalEphemeralVolume` leaves it out.
    { kind: 'downwardAPI', source: { downwardAPI: { items: [] } }, counts: false },
    { kind: 'persistentVolumeClaim', source: { persistentVolumeClaim: { claimName: 'data' } }, counts: false },
    { kind: 'csi', source: { csi: { driver: 'secrets-store.csi.k8s.io' } }, counts: false },
    { kind: 'ephemeral', source: { ephemeral: { volumeClaimTemplate: { spec: {} } } }, counts: false },
  ])('$kind with a big usage counts: $counts', ({ source, counts }) => {
    const big = toSlimPod(rawPod('big-volume', source))
    const disk = toSlimPod(rawPod('real-emptydir', { emptyDir: {} }))
    expect(big.localVolumes).toEqual(counts ? ['vol'] : undefined)
    const usage = usageLookup([volumeStats('big-volume', 5 * Gi), volumeStats('real-emptydir', 1 * Gi)])
    const ranked = rankDiskPressure([disk, big], usage, ALL, 'ephemeral-storage')
    expect(ranked.map((r) => r.pod.name)).toEqual(
      counts ? ['big-volume', 'real-emptydir'] : ['real-emptydir', 'big-volume'],
    )
    expect(ranked.find((r) => r.pod.name === 'big-volume')?.usage).toBe(counts ? 5 * Gi : 0)
  })

  it('a secret, a projected token and a memory emptyDir do not outrank a pod writing to an emptyDir', () => {
    const tmpfsHeavy = toSlimPod({
      ...rawPod('tmpfs-heavy', { emptyDir: { medium: 'Memory' } }),
      spec: {
        containers: [{ name: 'app' }],
        volumes: [
          { name: 'cache', emptyDir: { medium: 'Memory' } },
          { name: 'tls', secret: { secretName: 'tls' } },
          { name: 'kube-api-access-x7k2p', projected: { sources: [] } },
          { name: 'settings', configMap: { name: 'settings' } },
        ],
      },
    })
    const writer = toSlimPod(rawPod('disk-writer', { emptyDir: {} }))
    expect(tmpfsHeavy.localVolumes).toEqual(['settings'])
    const usage = usageLookup([
      {
        uid: 'tmpfs-heavy',
        volumes: [
          { name: 'cache', bytes: 8 * Gi },
          { name: 'tls', bytes: 2 * Gi },
          { name: 'kube-api-access-x7k2p', bytes: 1 * Gi },
          { name: 'settings', bytes: 0.25 * Gi },
        ],
      },
      { uid: 'disk-writer', volumes: [{ name: 'vol', bytes: 3 * Gi }] },
    ])
    const ranked = rankDiskPressure([tmpfsHeavy, writer], usage, ALL, 'ephemeral-storage')
    expect(ranked.map((r) => [r.pod.name, r.usage])).toEqual([
      ['disk-writer', 3 * Gi],
      ['tmpfs-heavy', 0.25 * Gi],
    ])
  })

  it('counts inodes of local volumes only, and a stat for a volume the pod does not declare not at all', () => {
    const u: PodUsage = {
      uid: 'p',
      volumes: [
        { name: 'scratch', bytes: 10, inodes: 3 },
        { name: 'tls', bytes: 1000, inodes: 700 },
        { name: 'gone', bytes: 50, inodes: 50 },
      ],
    }
    expect(localVolumeUsage(u, ['scratch'], false)).toBe(10)
    expect(localVolumeUsage(u, ['scratch'], true)).toBe(3)
    expect(localVolumeUsage(u, ['scratch', 'missing'], false)).toBe(10)
    expect(localVolumeUsage(u, undefined, false)).toBe(0)
  })

  it('takes the first stat of a name, as upstream podLocalVolumeUsage', () => {
    const u: PodUsage = {
      uid: 'p',
      volumes: [
        { name: 'scratch', bytes: 10 },
        { name: 'scratch', bytes: 99 },
      ],
    }
    expect(localVolumeUsage(u, ['scratch'], false)).toBe(10)
  })

  it('keeps spec order, skips nameless and malformed volumes, omits an empty list', () => {
    expect(
      localVolumeNames([
        { name: 'b', configMap: {} },
        { emptyDir: {} },
        { name: 'tls', secret: {} },
        'junk',
        { name: 'a', emptyDir: null },
        { name: 'c', emptyDir: { medium: null } },
      ]),
    ).toEqual(['b', 'c'])
    expect(localVolumeNames([{ name: 'tls', secret: {} }])).toBeUndefined()
    expect(localVolumeNames(undefined)).toBeUndefined()
  })

  it('condenses Summary volume stats by name, PVC-backed ones left out', () => {
    expect(volumeStats('p', 7, {}).volumes).toEqual([{ name: 'vol', bytes: 7, inodes: 100 }])
    expect(volumeStats('p', 7, { pvcRef: { name: 'data', namespace: 'default' } }).volumes).toBeUndefined()
  })
})
