import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { detectLayout, makeSignalObservations, toNodeStats, toPodUsage } from '../../../shared/pressure/signals.ts'
import { type Summary, SummarySchema } from '../../../shared/pressure/summary.ts'

const fixture = (name: string): Summary =>
  SummarySchema.parse(JSON.parse(readFileSync(new URL(`../../fixtures/summary/${name}.json`, import.meta.url), 'utf8')))
const GiB = 2 ** 30

describe('makeSignalObservations (upstream TestMakeSignalObservations)', () => {
  // upstream's table: node memory 1Gi available + 1Gi working set, allocatable (pods cgroup) the same,
  // imagefs 1Mi of 2Mi, nodefs 1Ki of 2Ki, inodes 1024 of 1Mi, maxpid 255816 with 1000 running.
  const summary = SummarySchema.parse({
    node: {
      nodeName: 'n',
      memory: { availableBytes: GiB, workingSetBytes: GiB },
      systemContainers: [{ name: 'pods', memory: { availableBytes: GiB, workingSetBytes: GiB } }],
      fs: { availableBytes: 1024, capacityBytes: 2048, inodesFree: 1024, inodes: 1024 * 1024 },
      runtime: {
        imageFs: { availableBytes: 2 ** 20, capacityBytes: 2 ** 21, inodesFree: 1024, inodes: 1024 * 1024 },
        containerFs: { availableBytes: 2 ** 21, capacityBytes: 2 ** 23, inodesFree: 2048, inodes: 2048 },
      },
      rlimit: { maxpid: 255816, curproc: 1000 },
    },
    pods: [],
  })
  const { observations, unknown } = makeSignalObservations(summary)
  it.each([
    { signal: 'memory.available', available: GiB, capacity: 2 * GiB },
    { signal: 'allocatableMemory.available', available: GiB, capacity: 2 * GiB },
    { signal: 'nodefs.available', available: 1024, capacity: 2048 },
    { signal: 'nodefs.inodesFree', available: 1024, capacity: 1024 * 1024 },
    { signal: 'imagefs.available', available: 2 ** 20, capacity: 2 ** 21 },
    { signal: 'imagefs.inodesFree', available: 1024, capacity: 1024 * 1024 },
    { signal: 'containerfs.available', available: 2 ** 21, capacity: 2 ** 23 },
    { signal: 'containerfs.inodesFree', available: 2048, capacity: 2048 },
    { signal: 'pid.available', available: 255816 - 1000, capacity: 255816 },
  ] as const)('$signal: available $available of $capacity', ({ signal, available, capacity }) => {
    expect(observations[signal]).toMatchObject({ available, capacity })
  })
  it('leaves nothing unknown when everything is reported', () => {
    expect(unknown).toEqual({})
  })
})

describe('missing or partial stats make a signal unknown, never healthy or zero', () => {
  const { observations, unknown } = makeSignalObservations(fixture('node-partial'))
  it.each([
    { signal: 'memory.available', why: 'node.memory.workingSetBytes not reported' },
    { signal: 'allocatableMemory.available', why: 'node.systemContainers["pods"].memory not reported' },
    { signal: 'nodefs.available', why: 'node.fs not reported' },
    { signal: 'nodefs.inodesFree', why: 'node.fs not reported' },
    { signal: 'imagefs.available', why: 'node.runtime.imageFs not reported' },
    { signal: 'imagefs.inodesFree', why: 'node.runtime.imageFs not reported' },
    { signal: 'pid.available', why: 'node.rlimit.curproc not reported' },
  ] as const)('$signal is unknown: $why', ({ signal, why }) => {
    expect(observations[signal]).toBeUndefined()
    expect(unknown[signal]).toBe(why)
  })

  it('keeps a pod whose containers report no filesystems, with no invented zeros', () => {
    expect(toPodUsage(fixture('node-partial').pods?.[0] as never)).toEqual({ uid: 'uid-default-web-1' })
  })
})

describe('condensing the Summary for the NodeView', () => {
  it('sums container rootfs and logs and keeps per-volume usage of volumes without a PVC', () => {
    const stats = toNodeStats(fixture('node-disk-pressure'), new Date('2026-11-22T10:00:05Z'))
    expect(stats.pods[0]).toEqual({
      uid: 'uid-default-batch-1',
      workingSetBytes: 256 * 2 ** 20,
      rootfsBytes: 30 * GiB,
      rootfsInodes: 2000,
      logsBytes: 2 * GiB,
      logsInodes: 10,
      volumes: [{ name: 'scratch', bytes: 10 * GiB, inodes: 500 }],
      processCount: 12,
    })
    expect(stats.signals['nodefs.available']).toEqual({
      available: 12 * GiB,
      capacity: 100 * GiB,
      time: '2026-11-22T10:00:00Z',
    })
  })

  it.each([
    { name: 'node-disk-pressure', layout: 'shared' },
    { name: 'node-dedicated-imagefs', layout: 'dedicatedImageFs' },
    { name: 'node-partial', layout: 'shared' },
  ])('detects the filesystem layout of $name as $layout', ({ name, layout }) => {
    expect(detectLayout(fixture(name))).toBe(layout)
  })

  it('rejects a document that is not a Summary, naming the field', () => {
    const r = SummarySchema.safeParse({ node: { nodeName: 'x', fs: { availableBytes: -1 } } })
    expect(r.success).toBe(false)
    expect(r.error?.issues[0]?.path).toEqual(['node', 'fs', 'availableBytes'])
  })
})
