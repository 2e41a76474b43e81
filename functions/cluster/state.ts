/** Everything one emulator instance holds, shared by the HTTP handler, the facade and the scenario player. */
import type { NodeStats } from './kubelet-summary.ts'
import type { Operations } from './operations.ts'
import type { PdbController } from './pdb-controller.ts'
import type { ObjectStore } from './store.ts'

export type EmulatorState = {
  store: ObjectStore
  ops: Operations
  pdbs: PdbController
  now: () => Date
  /** simulated kubelet stats per node name. */
  nodeStats: Map<string, NodeStats>
  /** nodes whose kubelet is unreachable: no heartbeats, no lease renewals, proxy answers 503. */
  silentNodes: Set<string>
}
