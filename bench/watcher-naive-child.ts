/** Bench child: the naive baseline — client-node informers caching full objects, every event forwarded as JSON. */
import { CoreV1Api, KubeConfig, makeInformer, PolicyV1Api } from '@kubernetes/client-node'
import { measureChild } from './watcher-child.ts'

await measureChild('naive', async (kubeconfig) => {
  const kc = new KubeConfig()
  kc.loadFromFile(kubeconfig)
  const core = kc.makeApiClient(CoreV1Api)
  const policy = kc.makeApiClient(PolicyV1Api)
  let events = 0
  let bytes = 0
  const informers = [
    makeInformer(kc, '/api/v1/nodes', () => core.listNode()),
    makeInformer(kc, '/api/v1/pods', () => core.listPodForAllNamespaces()),
    makeInformer(kc, '/apis/policy/v1/poddisruptionbudgets', () => policy.listPodDisruptionBudgetForAllNamespaces()),
  ]
  for (const informer of informers) {
    const forward = (obj: unknown) => {
      events++
      // Naive forwarding: every event goes out as its full object.
      bytes += JSON.stringify(obj).length
    }
    for (const verb of ['add', 'update', 'delete'] as const) informer.on(verb as 'error', forward)
    informer.on('error', () => setTimeout(() => informer.start(), 1000))
  }
  await Promise.all(informers.map((i) => i.start()))
  const synced = events
  return { counts: async () => ({ events: events - synced, forwarded: events - synced + 0 * bytes }) }
})
