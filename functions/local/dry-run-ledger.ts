import { EMPTY_LEDGER } from '../write/budget-ledger.ts'
import type { Cluster, StoredLedger } from '../write/cluster.ts'

/**
 * withMemoryLedger keeps the writer's budget ledger in memory, starting from the cluster's copy
 * when there is one. For dry runs against a real cluster: nodewarden's namespace and ledger
 * ConfigMap may not exist there, and a dry run must not create them; budgets still count the
 * actions the run would have taken, so "would have" outcomes respect the same limits.
 */
export function withMemoryLedger(cluster: Cluster): Cluster {
  let stored: StoredLedger | undefined
  let version = 0
  const load = async (): Promise<StoredLedger> => {
    if (stored) return stored
    try {
      stored = await cluster.readLedger()
    } catch {
      // Missing (or unreadable) on the cluster: a dry run starts from an empty ledger instead.
      stored = { ledger: EMPTY_LEDGER, resourceVersion: 'local-0' }
    }
    return stored
  }
  return {
    ...cluster,
    readLedger: load,
    writeLedger: async (ledger, resourceVersion) => {
      const current = await load()
      if (current.resourceVersion !== resourceVersion) return 'conflict'
      stored = { ledger, resourceVersion: `local-${++version}` }
      return 'written'
    },
  }
}
