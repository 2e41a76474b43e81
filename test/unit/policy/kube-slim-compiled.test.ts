import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import type * as z from 'zod'
import { CompiledSlimNodeSchema } from '../../../shared/kube-slim/to-slim-node.ts'
import { CompiledSlimPodSchema } from '../../../shared/kube-slim/to-slim-pod.ts'
import { SlimNodeSchema, SlimPodSchema } from '../../../shared/messages/index.ts'

/**
 * The converters validate slim objects with `z.compile`d schemas. Proof that the compiled schema
 * accepts exactly what the schema accepts, with the same output (values, key order, undefined-valued
 * keys) and, on rejection, the same issues: both are run on generated inputs, mostly valid with the
 * odd wrong field (type, range, format, enum, nested element, extra key, non-object root).
 */

/** ordered renders a value with its key order and its undefined-valued keys visible. */
function ordered(v: unknown): unknown {
  if (v === undefined) return '<undefined>'
  if (Array.isArray(v)) return v.map(ordered)
  if (v !== null && typeof v === 'object') return Object.entries(v).map(([k, x]) => [k, ordered(x)])
  return v
}

function expectSameParse(compiled: z.ZodType, schema: z.ZodType, input: unknown): void {
  const fast = compiled.safeParse(input)
  const slow = schema.safeParse(input)
  expect(fast.success).toBe(slow.success)
  if (fast.success && slow.success) {
    expect(ordered(fast.data)).toEqual(ordered(slow.data))
    expect(fast.data).not.toBe(input)
  } else expect(fast.error?.issues).toEqual(slow.error?.issues)
}

/** A generator of valid values and one of invalid ones (wrong type, range, format or enum). */
type Gen = { valid: fc.Arbitrary<unknown>; bad: fc.Arbitrary<unknown> }
type Field = Gen & { required?: boolean }

const JUNK = [null, 5, 1.5, true, 'x', [], {}]
const leaf = (valid: fc.Arbitrary<unknown>, ...bad: unknown[]): Gen => ({
  valid,
  bad: fc.constantFrom(...bad, ...JUNK),
})
const required = (g: Gen): Field => ({ ...g, required: true })

/**
 * An object: valid when every field is (optional ones may be absent or undefined, an extra key is
 * stripped); invalid when one field is set to a bad value, a required one is left out, or the
 * object is not an object at all.
 */
function object(fields: Record<string, Field>): Gen {
  const keys = Object.keys(fields)
  const valid = fc
    .record(
      Object.fromEntries(
        keys.map((k) => {
          const f = fields[k] as Field
          return [k, f.required ? f.valid : fc.oneof({ weight: 4, arbitrary: f.valid }, fc.constant(undefined))]
        }),
      ),
      { requiredKeys: keys.filter((k) => fields[k]?.required) },
    )
    .chain((o) => fc.oneof({ weight: 9, arbitrary: fc.constant(o) }, fc.constant({ ...o, extra: 'stripped' })))
  const oneBadField = fc.tuple(valid, fc.constantFrom(...keys)).chain(([o, k]) => {
    const f = fields[k] as Field
    const without = Object.fromEntries(Object.entries(o).filter(([key]) => key !== k))
    const bad = f.bad.map((b) => ({ ...o, [k]: b }))
    return f.required ? fc.oneof(bad, fc.constant(without)) : bad
  })
  return { valid, bad: fc.oneof({ weight: 9, arbitrary: oneBadField }, fc.constantFrom(...JUNK)) }
}

/** A list: valid items; invalid when one item is bad or the value is not an array. */
const list = (item: Gen): Gen => ({
  valid: fc.array(item.valid, { maxLength: 3 }),
  bad: fc.oneof(
    { weight: 4, arbitrary: fc.tuple(fc.array(item.valid, { maxLength: 2 }), item.bad).map(([a, b]) => [...a, b]) },
    fc.constantFrom<unknown>('x', null, {}),
  ),
})

/** A string record (labels, ResourceList) keyed by `keys`, values from `value`. */
const record = (keys: fc.Arbitrary<string>, value: Gen): Gen => ({
  valid: fc.oneof(
    { weight: 9, arbitrary: fc.dictionary(keys, value.valid, { maxKeys: 4 }) },
    fc.constantFrom<unknown>(JSON.parse('{"__proto__":"1"}'), Object.create(null)),
  ),
  bad: fc.oneof(
    {
      weight: 4,
      arbitrary: fc.tuple(fc.dictionary(keys, value.valid), keys, value.bad).map(([o, k, b]) => ({ ...o, [k]: b })),
    },
    fc.constantFrom<unknown>('x', [], 5),
  ),
})

const text = fc.constantFrom('a', 'kube-system', 'web-0-1', 'uid-1')
const name = leaf(text, '', 5)
const str = leaf(text, 5, null)
const time = leaf(
  fc.constantFrom(
    '2026-11-22T10:00:00Z',
    '2026-11-22T10:00:10.123456Z',
    '2026-11-22T10:00:10+02:00',
    '2024-02-29T00:00:00Z',
  ),
  'yesterday',
  '2026-11-22T10:00:00',
  '2023-02-29T00:00:00Z',
  '2026-11-22 10:00:00Z',
  '',
)
const int = leaf(fc.constantFrom(0, 1, 30, 2_000_000_000, -5), 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, '5')
const quantity = leaf(
  fc.constantFrom('100m', '1Gi', '1e3', '+1', '.5', '1.', '32386544Ki', '0'),
  'lots',
  '',
  '1 Gi',
  '1gi',
  'e3',
)
const resources = record(fc.constantFrom('cpu', 'memory', 'pods', '0', '10'), quantity)
const stringMap = record(fc.constantFrom('app', 'tier', 'kubernetes.io/config.source', '1'), str)
const bool = leaf(fc.boolean(), 'true', 0)

const owner = object({ kind: required(str), name: required(str), controller: bool })
const toleration = object({
  key: leaf(fc.constantFrom('node.kubernetes.io/unreachable', ''), 5),
  operator: leaf(fc.constantFrom('Exists', 'Equal', 'Lt'), 5),
  value: str,
  effect: leaf(fc.constantFrom('NoExecute', 'NoSchedule', ''), 5),
  tolerationSeconds: { valid: fc.oneof(int.valid, fc.constant(null)), bad: int.bad },
})
const container = object({
  name: required(str),
  requests: resources,
  limits: resources,
  restartPolicy: leaf(fc.constantFrom('Always'), 5),
})
const slimPod = object({
  namespace: required(name),
  name: required(name),
  uid: required(name),
  nodeName: str,
  labels: stringMap,
  annotations: stringMap,
  owners: list(owner),
  priority: int,
  priorityClassName: str,
  tolerations: list(toleration),
  containers: list(container),
  initContainers: list(container),
  overhead: resources,
  qosClass: leaf(fc.constantFrom('Guaranteed', 'Burstable', 'BestEffort'), 'guaranteed', ''),
  phase: leaf(fc.constantFrom('Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'), 'Evicted'),
  reason: str,
  ready: bool,
  hostNetwork: bool,
  terminationGracePeriodSeconds: int,
  creationTimestamp: time,
  startTime: time,
  deletionTimestamp: time,
  finishedAt: time,
  localVolumes: list(name),
})

const taint = object({
  key: required(name),
  value: str,
  effect: required(leaf(fc.constantFrom('NoSchedule', 'PreferNoSchedule', 'NoExecute'), 'noexecute')),
  timeAdded: time,
})
const condition = object({
  type: required(name),
  status: required(leaf(fc.constantFrom('True', 'False', 'Unknown'), 'true')),
  reason: str,
  message: leaf(fc.string({ maxLength: 20 }), 5),
  lastTransitionTime: time,
  lastHeartbeatTime: time,
})
const slimNode = object({
  name: required(name),
  uid: required(name),
  resourceVersion: required(name),
  labels: stringMap,
  annotations: stringMap,
  taints: list(taint),
  conditions: list(condition),
  unschedulable: bool,
  capacity: resources,
  allocatable: resources,
  creationTimestamp: time,
})
const either = (g: Gen) => fc.oneof(g.valid, g.bad)

describe('compiled slim schemas', () => {
  it('are compiled (z.compile returns the schema itself when it cannot compile one)', () => {
    expect(CompiledSlimPodSchema).not.toBe(SlimPodSchema)
    expect(CompiledSlimNodeSchema).not.toBe(SlimNodeSchema)
  })

  test.prop([either(slimPod)], { numRuns: 3000 })('SlimPodSchema: same acceptance, output and issues', (input) => {
    expectSameParse(CompiledSlimPodSchema, SlimPodSchema, input)
  })

  test.prop([either(slimNode)], { numRuns: 3000 })('SlimNodeSchema: same acceptance, output and issues', (input) => {
    expectSameParse(CompiledSlimNodeSchema, SlimNodeSchema, input)
  })

  it('generates valid and invalid inputs alike (the properties exercise both paths)', () => {
    for (const [arb, schema] of [
      [either(slimPod), SlimPodSchema],
      [either(slimNode), SlimNodeSchema],
    ] as const) {
      const valid = fc.sample(arb, { numRuns: 1000, seed: 42 }).filter((x) => schema.safeParse(x).success).length
      expect(valid).toBeGreaterThan(100)
      expect(valid).toBeLessThan(900)
    }
  })
})
