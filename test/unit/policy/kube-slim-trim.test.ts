import { fc, test } from '@fast-check/vitest'
import { describe, expect } from 'vitest'
import { localVolumeNames } from '../../../shared/kube-slim/local-volumes.ts'
import { arr, bool, defined, num, obj, type Raw, str, stringMap } from '../../../shared/kube-slim/raw.ts'
import { resourceList } from '../../../shared/kube-slim/resources.ts'
import { parseSlim, SlimError } from '../../../shared/kube-slim/slim-error.ts'
import { toSlimPod } from '../../../shared/kube-slim/to-slim-pod.ts'
import { POD_ANNOTATIONS_KEPT, SlimPodSchema } from '../../../shared/messages/index.ts'

/**
 * toSlimPod builds its trimmed pod field by field, leaving undefined fields out, rather than as one
 * literal copied through `defined`. Proof that the result (values, key order, undefined-valued keys)
 * and every error message are unchanged: the literal form below, validated by the plain schema, is
 * the reference, run beside toSlimPod on generated raw pods (fields present, absent, mistyped, bad).
 */

const KEPT = new Set<string>(POD_ANNOTATIONS_KEPT)

function referenceToSlimPod(object: unknown): unknown {
  const o = obj(object)
  const meta = obj(o?.metadata)
  const ns = str(meta?.namespace) ?? 'default'
  const name = str(meta?.name)
  const id = `pod ${ns}/${name ?? '(unnamed)'}`
  if (!o || !name) throw new SlimError(id, ['metadata.name: required'])
  const spec = obj(o.spec)
  const status = obj(o.status)
  const containers = (v: unknown, field: string) =>
    arr(v).map((c, i) => {
      const x = obj(c) ?? {}
      const res = obj(x.resources)
      const path = `${field}[${i}].resources`
      return defined({
        name: str(x.name) ?? `#${i}`,
        requests: resourceList(res?.requests, id, `${path}.requests`),
        limits: resourceList(res?.limits, id, `${path}.limits`),
        restartPolicy: str(x.restartPolicy),
      })
    })
  const finishedAt = (): string | undefined => {
    const target = arr(status?.conditions).find((c) => obj(c)?.type === 'DisruptionTarget')
    const at = str(obj(target)?.lastTransitionTime)
    if (at) return at
    let latest: string | undefined
    for (const cs of arr(status?.containerStatuses)) {
      const t = str(obj(obj(obj(cs)?.state)?.terminated)?.finishedAt)
      if (t && (!latest || t > latest)) latest = t
    }
    return latest
  }
  const trimmed = defined({
    namespace: ns,
    name,
    uid: str(meta?.uid) ?? `unknown:${ns}/${name}`,
    nodeName: str(spec?.nodeName) || undefined,
    labels: stringMap(meta?.labels),
    annotations: stringMap(meta?.annotations, (k) => KEPT.has(k)),
    owners: arr(meta?.ownerReferences).map((r) =>
      defined({ kind: str(obj(r)?.kind) ?? '', name: str(obj(r)?.name) ?? '', controller: bool(obj(r)?.controller) }),
    ),
    priority: num(spec?.priority),
    priorityClassName: str(spec?.priorityClassName),
    tolerations: arr(spec?.tolerations).map((t) => {
      const x = obj(t) ?? {}
      const seconds = x.tolerationSeconds
      return defined({
        key: str(x.key),
        operator: str(x.operator),
        value: str(x.value),
        effect: str(x.effect),
        tolerationSeconds: typeof seconds === 'number' ? seconds : undefined,
      })
    }),
    containers: containers(spec?.containers, 'spec.containers'),
    initContainers: containers(spec?.initContainers, 'spec.initContainers'),
    overhead: resourceList(spec?.overhead, id, 'spec.overhead'),
    qosClass: str(status?.qosClass),
    phase: str(status?.phase),
    reason: str(status?.reason),
    ready: arr(status?.conditions).some((c) => obj(c)?.type === 'Ready' && obj(c)?.status === 'True'),
    hostNetwork: bool(spec?.hostNetwork),
    terminationGracePeriodSeconds: num(spec?.terminationGracePeriodSeconds),
    creationTimestamp: str(meta?.creationTimestamp),
    startTime: str(status?.startTime),
    deletionTimestamp: str(meta?.deletionTimestamp),
    finishedAt: finishedAt(),
    localVolumes: localVolumeNames(spec?.volumes),
  } satisfies Raw)
  return parseSlim(SlimPodSchema, trimmed, id)
}

/** ordered renders a value with its key order and its undefined-valued keys visible. */
function ordered(v: unknown): unknown {
  if (v === undefined) return '<undefined>'
  if (Array.isArray(v)) return v.map(ordered)
  if (v !== null && typeof v === 'object') return Object.entries(v).map(([k, x]) => [k, ordered(x)])
  return v
}

function outcome(convert: (o: unknown) => unknown, raw: unknown): unknown {
  try {
    return { ok: ordered(convert(raw)) }
  } catch (err) {
    return { error: (err as Error).message, name: (err as Error).name }
  }
}

const junk = fc.constantFrom<unknown>(null, 5, 1.5, true, '', [], {})
/** Mostly a valid value, sometimes absent (the key left out) or of another type. */
const maybe = (valid: fc.Arbitrary<unknown>) =>
  fc.option(fc.oneof({ weight: 6, arbitrary: valid }, junk), { nil: undefined })
const raw = (fields: Record<string, fc.Arbitrary<unknown>>) => fc.record(fields, { requiredKeys: [] })

const time = fc.constantFrom(
  '2026-11-22T10:00:00Z',
  '2026-11-20T00:00:05+02:00',
  'yesterday',
  '',
  '2026-11-21T00:00:00Z',
)
const quantity = fc.constantFrom<unknown>('100m', '256Mi', '1', 2, '1.5Gi', 'lots', null)
const resources = fc.dictionary(fc.constantFrom('cpu', 'memory', 'nvidia.com/gpu'), quantity, { maxKeys: 3 })
const container = raw({
  name: maybe(fc.constantFrom('app', 'sidecar')),
  resources: maybe(raw({ requests: maybe(resources), limits: maybe(resources) })),
  restartPolicy: maybe(fc.constantFrom('Always', 'OnFailure')),
})
const podArb = raw({
  kind: fc.constant('Pod'),
  metadata: maybe(
    raw({
      name: maybe(fc.constantFrom('web-1', 'coredns-2')),
      namespace: maybe(fc.constantFrom('shop', 'kube-system')),
      uid: maybe(fc.constantFrom('uid-1', 'uid-2')),
      creationTimestamp: maybe(time),
      deletionTimestamp: maybe(time),
      labels: maybe(fc.dictionary(fc.constantFrom('app', 'tier'), fc.constantFrom<unknown>('web', 'gold', 3))),
      annotations: maybe(
        fc.dictionary(
          fc.constantFrom(
            'kubernetes.io/config.source',
            'kubernetes.io/config.mirror',
            'nodewarden.io/protect',
            'other',
          ),
          fc.constantFrom<unknown>('file', 'api', 'true', '', 1),
        ),
      ),
      ownerReferences: maybe(
        fc.array(
          maybe(
            raw({
              kind: maybe(fc.constantFrom('DaemonSet', 'ReplicaSet')),
              name: maybe(fc.constant('o')),
              controller: maybe(fc.boolean()),
            }),
          ),
          { maxLength: 2 },
        ),
      ),
    }),
  ),
  spec: maybe(
    raw({
      nodeName: maybe(fc.constantFrom('node-a', '')),
      priority: maybe(fc.constantFrom<unknown>(0, 2_000_000_000, 1.5, Number.NaN)),
      priorityClassName: maybe(fc.constantFrom('system-node-critical')),
      hostNetwork: maybe(fc.boolean()),
      terminationGracePeriodSeconds: maybe(fc.constantFrom<unknown>(30, 0, -1)),
      overhead: maybe(resources),
      volumes: maybe(
        fc.array(
          maybe(
            raw({
              name: maybe(fc.constantFrom('data', 'token', '')),
              emptyDir: maybe(raw({ medium: maybe(fc.constantFrom('', 'Memory')) })),
              hostPath: maybe(raw({ path: fc.constant('/var/log') })),
              secret: maybe(raw({ secretName: fc.constant('s') })),
            }),
          ),
          { maxLength: 3 },
        ),
      ),
      containers: maybe(fc.array(maybe(container), { maxLength: 2 })),
      initContainers: maybe(fc.array(maybe(container), { maxLength: 2 })),
      tolerations: maybe(
        fc.array(
          maybe(
            raw({
              key: maybe(fc.constantFrom('node.kubernetes.io/unreachable', '')),
              operator: maybe(fc.constantFrom('Exists', 'Equal')),
              value: maybe(fc.constant('v')),
              effect: maybe(fc.constantFrom('NoExecute', 'NoSchedule')),
              tolerationSeconds: maybe(fc.constantFrom<unknown>(300, 0, 2.5, null)),
            }),
          ),
          { maxLength: 3 },
        ),
      ),
    }),
  ),
  status: maybe(
    raw({
      phase: maybe(fc.constantFrom('Running', 'Succeeded', 'Failed', 'Evicted')),
      qosClass: maybe(fc.constantFrom('Guaranteed', 'Burstable', 'Odd')),
      reason: maybe(fc.constant('Evicted')),
      startTime: maybe(time),
      conditions: maybe(
        fc.array(
          maybe(
            raw({
              type: maybe(fc.constantFrom('Ready', 'DisruptionTarget', 'PodScheduled')),
              status: maybe(fc.constantFrom('True', 'False')),
              lastTransitionTime: maybe(time),
            }),
          ),
          { maxLength: 3 },
        ),
      ),
      containerStatuses: maybe(
        fc.array(maybe(raw({ state: maybe(raw({ terminated: maybe(raw({ finishedAt: maybe(time) })) })) })), {
          maxLength: 2,
        }),
      ),
    }),
  ),
})

describe('toSlimPod trimming', () => {
  test.prop([fc.oneof({ weight: 9, arbitrary: podArb }, junk)], { numRuns: 3000 })(
    'gives what the literal-plus-defined form gave: the same slim pod, or the same error',
    (pod) => {
      expect(outcome(toSlimPod, pod)).toEqual(outcome(referenceToSlimPod, pod))
    },
  )
})
