import { describe, expect, it } from 'vitest'
import type { Toleration } from '../../../shared/messages/index.ts'
import { addOrUpdateDaemonPodTolerations } from '../../../shared/policy/daemonset-tolerations.ts'
import { applyDefaultTolerationSeconds } from '../../../shared/policy/default-tolerations.ts'

const NR = 'node.kubernetes.io/not-ready'
const UR = 'node.kubernetes.io/unreachable'
const def = (key: string, s = 300): Toleration => ({
  key,
  operator: 'Exists',
  effect: 'NoExecute',
  tolerationSeconds: s,
})

// Ported from plugin/pkg/admission/defaulttolerationseconds/admission_test.go (TestForgivenessAdmission); names kept.
describe('applyDefaultTolerationSeconds (upstream TestForgivenessAdmission)', () => {
  it.each([
    {
      description: 'pod has no tolerations, expect add tolerations for `notread:NoExecute` and `unreachable:NoExecute`',
      requested: [],
      expected: [def(NR), def(UR)],
    },
    {
      description:
        'pod has tolerations, but none is for taint `notread:NoExecute` or `unreachable:NoExecute`, expect add tolerations for `notread:NoExecute` and `unreachable:NoExecute`',
      requested: [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoSchedule', tolerationSeconds: 700 }],
      expected: [
        { key: 'foo', operator: 'Equal', value: 'bar', effect: 'NoSchedule', tolerationSeconds: 700 },
        def(NR),
        def(UR),
      ],
    },
    {
      description:
        'pod specified a toleration for taint `notReady:NoExecute`, expect add toleration for `unreachable:NoExecute`',
      requested: [def(NR, 700)],
      expected: [def(NR, 700), def(UR)],
    },
    {
      description:
        'pod specified a toleration for taint `unreachable:NoExecute`, expect add toleration for `notReady:NoExecute`',
      requested: [def(UR, 700)],
      expected: [def(UR, 700), def(NR)],
    },
    {
      description:
        'pod specified tolerations for both `notread:NoExecute` and `unreachable:NoExecute`, expect no change',
      requested: [def(NR, 700), def(UR, 700)],
      expected: [def(NR, 700), def(UR, 700)],
    },
    {
      description: 'pod specified toleration for taint `unreachable`, expect add toleration for `notReady:NoExecute`',
      requested: [{ key: UR, operator: 'Exists', tolerationSeconds: 700 }],
      expected: [{ key: UR, operator: 'Exists', tolerationSeconds: 700 }, def(NR)],
    },
    {
      description: 'pod has wildcard toleration for all kind of taints, expect no change',
      requested: [{ operator: 'Exists', tolerationSeconds: 700 }],
      expected: [{ operator: 'Exists', tolerationSeconds: 700 }],
    },
  ])('$description', ({ requested, expected }) => {
    expect(applyDefaultTolerationSeconds(requested)).toEqual(expected)
  })

  it.each([
    {
      name: 'an Equal toleration with any value counts (operator and value ignored)',
      requested: [{ key: NR, operator: 'Equal', value: 'x', effect: 'NoExecute' }],
      adds: [UR],
    },
    {
      name: 'a NoSchedule toleration of not-ready does not count',
      requested: [{ key: NR, operator: 'Exists', effect: 'NoSchedule' }],
      adds: [NR, UR],
    },
  ])('$name', ({ requested, adds }) => {
    const added = applyDefaultTolerationSeconds(requested).slice(requested.length)
    expect(added.map((t) => t.key)).toEqual(adds)
  })

  it('uses the configured seconds', () => {
    expect(applyDefaultTolerationSeconds([], { notReady: 60, unreachable: 120 })).toEqual([def(NR, 60), def(UR, 120)])
  })
})

const exists = (key: string, effect: string): Toleration => ({ key, operator: 'Exists', effect })
const DS_DEFAULTS = [
  exists(NR, 'NoExecute'),
  exists(UR, 'NoExecute'),
  exists('node.kubernetes.io/disk-pressure', 'NoSchedule'),
  exists('node.kubernetes.io/memory-pressure', 'NoSchedule'),
  exists('node.kubernetes.io/pid-pressure', 'NoSchedule'),
  exists('node.kubernetes.io/unschedulable', 'NoSchedule'),
]

describe('addOrUpdateDaemonPodTolerations (pkg/controller/daemon/util)', () => {
  it.each([
    {
      name: 'adds the six defaults in order to a pod without tolerations',
      tolerations: [],
      hostNetwork: false,
      want: DS_DEFAULTS,
    },
    {
      name: 'adds network-unavailable for hostNetwork pods',
      tolerations: [],
      hostNetwork: true,
      want: [...DS_DEFAULTS, exists('node.kubernetes.io/network-unavailable', 'NoSchedule')],
    },
    {
      name: 'replaces a matching not-ready toleration with seconds in place by the forever one',
      tolerations: [{ key: 'x', operator: 'Exists' }, def(NR)],
      hostNetwork: false,
      want: [{ key: 'x', operator: 'Exists' }, exists(NR, 'NoExecute'), ...DS_DEFAULTS.slice(1)],
    },
    {
      name: 'keeps an identical toleration once',
      tolerations: [exists(UR, 'NoExecute')],
      hostNetwork: false,
      want: [exists(UR, 'NoExecute'), exists(NR, 'NoExecute'), ...DS_DEFAULTS.slice(2)],
    },
  ])('$name', ({ tolerations, hostNetwork, want }) => {
    expect(addOrUpdateDaemonPodTolerations(tolerations, hostNetwork)).toEqual(want)
  })
  it('DefaultTolerationSeconds then adds nothing to a DaemonSet pod', () => {
    const ds = addOrUpdateDaemonPodTolerations([])
    expect(applyDefaultTolerationSeconds(ds)).toEqual(ds)
  })
})
