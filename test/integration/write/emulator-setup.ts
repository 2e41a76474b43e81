import { type Emulator, startEmulator } from '../../../functions/cluster/emulator.ts'
import { ensureLedger, makeCluster } from '../../../functions/write/cluster.ts'
import { aNodeObject, aPodObject } from '../../unit/write/fixtures.ts'

export const NAMESPACE = 'nodewarden'
export const LEDGER = 'nodewarden-writer-ledger'

/** startWriterEmulator starts the emulator with nodewarden's namespace, its ledger, nodes and web pods. */
export async function startWriterEmulator(options: { nodes?: number; podsPerNode?: number } = {}) {
  const emulator = await startEmulator()
  emulator.store.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } })
  const nodes = options.nodes ?? 2
  for (let i = 0; i < nodes; i++) {
    const node = aNodeObject({ name: `node-${String.fromCharCode(97 + i)}` })
    emulator.store.create({ apiVersion: 'v1', kind: 'Node', ...node })
    for (let j = 0; j < (options.podsPerNode ?? 1); j++) {
      const pod = aPodObject({ name: `web-${i}-${j}`, nodeName: node.metadata.name })
      emulator.store.create({
        apiVersion: 'v1',
        kind: 'Pod',
        ...pod,
        status: { ...pod.status, conditions: [{ type: 'Ready', status: 'True' }] },
      })
    }
  }
  await ensureLedger(emulator.kubeConfig(), NAMESPACE, LEDGER)
  return emulator
}

/** clusterFor binds the writer's adapters to an emulator. */
export function clusterFor(emulator: Emulator, reportingInstance = 'writer-test') {
  return makeCluster({
    kubeConfig: emulator.kubeConfig(),
    namespace: NAMESPACE,
    ledgerName: LEDGER,
    reportingInstance,
    timeoutMs: 5_000,
  })
}
