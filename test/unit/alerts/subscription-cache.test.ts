import { describe, expect, it } from 'vitest'
import type { KubeRest } from '../../../functions/alert/kube-rest.ts'
import { createSubscriptionSource } from '../../../functions/alert/read-subscriptions.ts'
import { aSubscription, T0 } from './fixtures.ts'

/** A list endpoint that serves one subscription and counts how often it is asked. */
function listingOnce(): { kube: KubeRest; lists: () => number } {
  let lists = 0
  const kube: KubeRest = async () => {
    lists += 1
    return { status: 200, body: { items: [aSubscription({ name: 'ops' })] } }
  }
  return { kube, lists: () => lists }
}

describe('subscription cache', () => {
  it('keeps both records when one batch delivers two alerts to the same subscription', async () => {
    const { kube, lists } = listingOnce()
    const source = createSubscriptionSource({ kube, namespace: 'nodewarden', ttlMs: 15_000, now: () => new Date(T0) })
    await source.list()
    source.remember('ops', 'alert-a', { at: T0, kind: 'MissingDefaultTolerations' })
    source.remember('ops', 'alert-b', { at: T0, kind: 'EvictionForecast' })
    const [ops] = (await source.list()).subscriptions
    expect(Object.keys(ops?.status.notified ?? {}).sort()).toEqual(['alert-a', 'alert-b'])
    expect(lists()).toBe(1)
  })

  it('forgets a cleared record without touching the others', async () => {
    const { kube } = listingOnce()
    const source = createSubscriptionSource({ kube, namespace: 'nodewarden', ttlMs: 15_000, now: () => new Date(T0) })
    await source.list()
    source.remember('ops', 'alert-a', { at: T0, kind: 'ZoneBrake' })
    source.remember('ops', 'alert-b', { at: T0, kind: 'ZoneBrake' })
    source.remember('ops', 'alert-a', null)
    const [ops] = (await source.list()).subscriptions
    expect(Object.keys(ops?.status.notified ?? {})).toEqual(['alert-b'])
  })
})
