import { describe, expect, it } from 'vitest'
import { defaultPolicy } from '../../../shared/config/index.ts'
import { isProtected } from '../../../shared/policy/protection.ts'
import { aPod } from '../../fixtures/builders.ts'

const protection = defaultPolicy({
  protection: {
    namespaces: ['payments'],
    selectors: [{ matchLabels: { tier: 'db' } }, { matchExpressions: [{ key: 'keep', operator: 'Exists' }] }],
  },
}).protection

describe('isProtected returns every reason that applies', () => {
  it.each([
    { name: 'plain ReplicaSet pod is not protected', pod: aPod(), reasons: [] },
    {
      name: 'system-cluster-critical priority',
      pod: aPod({ priority: 2_000_000_000 }),
      reasons: ['priority 2000000000 ≥ 2000000000 (system critical)'],
    },
    {
      name: 'static pod',
      pod: aPod({ annotations: { 'kubernetes.io/config.source': 'file' } }),
      reasons: ['static pod (config.source file)'],
    },
    {
      name: 'mirror pod (also static by source)',
      pod: aPod({ annotations: { 'kubernetes.io/config.mirror': 'abc', 'kubernetes.io/config.source': 'file' } }),
      reasons: ['static pod (config.source file)', 'mirror pod'],
    },
    {
      name: 'DaemonSet-owned',
      pod: aPod({ owners: [{ kind: 'DaemonSet', name: 'cni' }] }),
      reasons: ['owned by a DaemonSet'],
    },
    {
      name: 'not-evicted-pod annotation in kube-system',
      pod: aPod({ namespace: 'kube-system', annotations: { 'scheduler.alpha.kubernetes.io/not-evicted-pod': '' } }),
      reasons: ['scheduler.alpha.kubernetes.io/not-evicted-pod annotation in kube-system'],
    },
    {
      name: 'not-evicted-pod annotation outside kube-system does not count',
      pod: aPod({ namespace: 'default', annotations: { 'scheduler.alpha.kubernetes.io/not-evicted-pod': '' } }),
      reasons: [],
    },
    {
      name: 'not-evicted-pod annotation with a non-empty value does not count',
      pod: aPod({ namespace: 'kube-system', annotations: { 'scheduler.alpha.kubernetes.io/not-evicted-pod': 'true' } }),
      reasons: [],
    },
    {
      name: 'legacy critical-pod annotation in kube-system',
      pod: aPod({ namespace: 'kube-system', annotations: { 'scheduler.alpha.kubernetes.io/critical-pod': '' } }),
      reasons: ['legacy scheduler.alpha.kubernetes.io/critical-pod annotation in kube-system'],
    },
    {
      name: 'nodewarden.io/protect "true"',
      pod: aPod({ annotations: { 'nodewarden.io/protect': 'true' } }),
      reasons: ['nodewarden.io/protect: "true"'],
    },
    {
      name: 'nodewarden.io/protect "yes" does not count',
      pod: aPod({ annotations: { 'nodewarden.io/protect': 'yes' } }),
      reasons: [],
    },
    {
      name: 'configured namespace',
      pod: aPod({ namespace: 'payments' }),
      reasons: ['namespace payments is protected by policy'],
    },
    {
      name: 'configured selectors, each reported',
      pod: aPod({ labels: { tier: 'db', keep: '1' } }),
      reasons: ['labels match protected selector tier=db', 'labels match protected selector keep'],
    },
    {
      name: 'several reasons at once',
      pod: aPod({
        namespace: 'kube-system',
        priority: 2_000_001_000,
        owners: [{ kind: 'DaemonSet', name: 'proxy' }],
        annotations: { 'scheduler.alpha.kubernetes.io/critical-pod': '' },
      }),
      reasons: [
        'priority 2000001000 ≥ 2000000000 (system critical)',
        'owned by a DaemonSet',
        'legacy scheduler.alpha.kubernetes.io/critical-pod annotation in kube-system',
      ],
    },
  ])('$name', ({ pod, reasons }) => {
    expect(isProtected(pod, protection)).toEqual(reasons)
  })
})
