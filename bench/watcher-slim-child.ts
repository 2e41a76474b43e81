/** Bench child: the slim watcher (startWatcher, views rendered and counted, queue left out). */
import { KubeConfig } from '@kubernetes/client-node'
import { startWatcher } from '../functions/watcher/watcher.ts'
import { measureChild } from './watcher-child.ts'

await measureChild('slim', async (kubeconfig) => {
  const kc = new KubeConfig()
  kc.loadFromFile(kubeconfig)
  let forwarded = 0
  const watcher = await startWatcher({
    kubeConfig: kc,
    leaderElection: false,
    // The kubelet stats collector (pressure relief) is a separate job with its own bench; the
    // naive baseline has no counterpart, so the comparison is the list/watch/forward shim alone.
    stats: false,
    // The queue is left out of the measurement: views are rendered (validated, gzip'd) and counted.
    events: {
      send: async (messages) => {
        forwarded += messages.length
      },
    },
  })
  await watcher.ready
  return {
    counts: async () => {
      const c = await watcher.counters()
      return { events: c.eventsReceived, forwarded, restarts: c.watchRestarts + c.relists, pending: c.pendingViews }
    },
  }
})
