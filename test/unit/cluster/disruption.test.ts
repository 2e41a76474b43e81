import { describe, expect, it } from 'vitest'
import { computePdbStatus, resolveIntOrPercent } from '../../../functions/cluster/disruption.ts'

const NOW = new Date('2026-11-22T10:00:00Z')
const pod = (name: string, ready: boolean, extra: Record<string, unknown> = {}) => ({
  metadata: { name, namespace: 'default', labels: { app: 'web' }, ...extra },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
})
const pdb = (spec: Record<string, unknown>) => ({
  metadata: { name: 'web', namespace: 'default', generation: 1 },
  spec: { selector: { matchLabels: { app: 'web' } }, ...spec },
})

describe('PDB status like the disruption controller', () => {
  it.each([
    {
      name: 'minAvailable int',
      spec: { minAvailable: 2 },
      ready: [true, true, true],
      want: { desired: 2, healthy: 3, allowed: 1 },
    },
    {
      name: 'minAvailable percentage rounds up',
      spec: { minAvailable: '50%' },
      ready: [true, true, true],
      want: { desired: 2, healthy: 3, allowed: 1 },
    },
    {
      name: 'maxUnavailable int',
      spec: { maxUnavailable: 1 },
      ready: [true, true, false],
      want: { desired: 2, healthy: 2, allowed: 0 },
    },
    {
      name: 'maxUnavailable percentage',
      spec: { maxUnavailable: '34%' },
      ready: [true, true, true],
      want: { desired: 1, healthy: 3, allowed: 2 },
    },
    {
      name: 'no matching pods allows nothing',
      spec: { minAvailable: 0 },
      ready: [],
      want: { desired: 0, healthy: 0, allowed: 0 },
    },
  ])('$name', ({ spec, ready, want }) => {
    const pods = ready.map((r, i) => pod(`p${i}`, r))
    const status = computePdbStatus(pdb(spec), pods, NOW)
    expect({
      desired: status.desiredHealthy,
      healthy: status.currentHealthy,
      allowed: status.disruptionsAllowed,
    }).toEqual(want)
  })

  it('does not count terminating pods as healthy', () => {
    const pods = [pod('a', true), pod('b', true, { deletionTimestamp: '2026-11-22T10:00:30Z' })]
    expect(computePdbStatus(pdb({ minAvailable: 1 }), pods, NOW).currentHealthy).toBe(1)
  })

  it.each([
    { value: 3, total: 10, want: 3 },
    { value: '25%', total: 10, want: 3 },
    { value: '100%', total: 7, want: 7 },
  ])('resolves $value of $total to $want', ({ value, total, want }) => {
    expect(resolveIntOrPercent(value, total)).toBe(want)
  })
})
