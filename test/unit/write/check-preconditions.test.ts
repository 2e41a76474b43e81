import { describe, expect, it } from 'vitest'
import { checkPreconditions, needsNode } from '../../../functions/write/check-preconditions.ts'
import { toLiveNode, toLivePod } from '../../../functions/write/live-objects.ts'
import { aNodeObject, anEvictDecision, aPodObject, aTaintDecision } from './fixtures.ts'

const node = (o: Parameters<typeof aNodeObject>[0] = {}) => toLiveNode(aNodeObject(o))
const pod = (o: Parameters<typeof aPodObject>[0] = {}) => toLivePod(aPodObject(o))

describe('checkPreconditions on a taint decision', () => {
  it.each([
    {
      name: 'passes when the condition still holds since the same transition',
      live: { node: node() },
      want: { ok: true },
    },
    {
      name: 'skips a missing node as gone',
      live: { node: null },
      want: { ok: false, kind: 'gone', reason: 'node node-a does not exist' },
    },
    {
      name: 'skips a node recreated under the same name as gone',
      live: { node: { ...node(), metadata: { ...node().metadata, uid: 'uid-new' } } },
      want: { ok: false, kind: 'gone' },
    },
    {
      name: 'skips when the condition cleared',
      live: {
        node: node({
          conditions: [{ type: 'KernelDeadlock', status: 'False', lastTransitionTime: '2026-11-22T09:58:00Z' }],
        }),
      },
      want: { ok: false, kind: 'stale', reason: 'KernelDeadlock is False, decided on True' },
    },
    {
      name: 'skips when the condition flapped and holds since a later transition',
      live: {
        node: node({
          conditions: [{ type: 'KernelDeadlock', status: 'True', lastTransitionTime: '2026-11-22T09:59:00Z' }],
        }),
      },
      want: { ok: false, kind: 'stale', reason: expect.stringContaining('transitioned at 2026-11-22T09:59:00Z') },
    },
    {
      name: 'accepts the same transition written with another timestamp format',
      live: {
        node: node({
          conditions: [{ type: 'KernelDeadlock', status: 'True', lastTransitionTime: '2026-11-22T10:55:00+01:00' }],
        }),
      },
      want: { ok: true },
    },
    {
      name: 'skips when the condition is no longer reported',
      live: { node: node({ conditions: [] }) },
      want: { ok: false, kind: 'stale', reason: 'KernelDeadlock is no longer reported' },
    },
    {
      name: 'skips when the taint is already present',
      live: { node: node({ taints: [{ key: 'nodewarden.io/kernel-deadlock', value: 'true', effect: 'NoExecute' }] }) },
      want: { ok: false, kind: 'stale', reason: 'taint nodewarden.io/kernel-deadlock:NoExecute is already present' },
    },
  ])('$name', ({ live, want }) => {
    expect(checkPreconditions(aTaintDecision(), live)).toEqual(want.ok ? want : expect.objectContaining(want))
  })
})

describe('checkPreconditions on an untaint decision', () => {
  const untaint = aTaintDecision({
    action: 'untaint',
    preconditions: [
      { type: 'conditionNot', condition: 'KernelDeadlock', status: 'True' },
      { type: 'taintPresent', key: 'nodewarden.io/kernel-deadlock', effect: 'NoExecute' },
    ],
  })
  const tainted = [{ key: 'nodewarden.io/kernel-deadlock', value: 'true', effect: 'NoExecute' }]
  it.each([
    {
      name: 'passes when the condition cleared and the taint is there',
      live: { node: node({ taints: tainted, conditions: [{ type: 'KernelDeadlock', status: 'False' }] }) },
      want: { ok: true },
    },
    {
      name: 'skips when the condition came back',
      live: { node: node({ taints: tainted }) },
      want: { ok: false, kind: 'stale', reason: 'KernelDeadlock is True again' },
    },
    {
      name: 'skips when the taint is already gone',
      live: { node: node({ conditions: [] }) },
      want: { ok: false, kind: 'stale', reason: 'taint nodewarden.io/kernel-deadlock:NoExecute is no longer present' },
    },
  ])('$name', ({ live, want }) => {
    expect(checkPreconditions(untaint, live)).toEqual(want)
  })
})

describe('checkPreconditions on a pod decision', () => {
  it.each([
    { name: 'passes when the same pod is still on the node', live: { pod: pod() }, want: { ok: true } },
    {
      name: 'treats a missing pod as gone',
      live: { pod: null },
      want: { ok: false, kind: 'gone', reason: 'pod default/web-1 does not exist' },
    },
    {
      name: 'treats another pod with the same name as gone',
      live: { pod: { ...pod(), metadata: { ...pod().metadata, uid: 'uid-other' } } },
      want: { ok: false, kind: 'gone', reason: expect.stringContaining('is another pod now') },
    },
    {
      name: 'skips a pod now bound to another node',
      live: { pod: pod({ nodeName: 'node-b' }) },
      want: { ok: false, kind: 'stale', reason: 'pod default/web-1 is on node node-b, decided for node-a' },
    },
  ])('$name', ({ live, want }) => {
    expect(checkPreconditions(anEvictDecision(), live)).toEqual(want.ok ? want : expect.objectContaining(want))
  })

  it.each([
    { name: 'passes a Failed pod for deleteEvictedPod', phase: 'Failed', want: true },
    { name: 'skips a pod that is Running again', phase: 'Running', want: false },
  ])('$name', ({ phase, want }) => {
    const decision = anEvictDecision({
      action: 'deleteEvictedPod',
      preconditions: [{ type: 'podPhase', phases: ['Failed'] }],
    })
    expect(checkPreconditions(decision, { pod: pod({ phase }) }).ok).toBe(want)
  })
})

describe('needsNode', () => {
  it.each([
    { name: 'a node decision', decision: aTaintDecision(), want: true },
    { name: 'a pod decision with pod preconditions only', decision: anEvictDecision(), want: false },
    {
      name: 'a pod decision with a node condition precondition',
      decision: anEvictDecision({
        preconditions: [{ type: 'conditionHolds', condition: 'KernelDeadlock', status: 'True' }],
      }),
      want: true,
    },
  ])('is $want for $name', ({ decision, want }) => {
    expect(needsNode(decision)).toBe(want)
  })
})
