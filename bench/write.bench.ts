/**
 * Writer throughput against the Kubernetes API emulator with 10 % injected 409 conflicts: taint
 * and eviction decisions through the full writer (re-read, re-check, ledger CAS, write with RV,
 * Event) beside the same operations issued by a bare client-node loop without checks.
 */
import { CoreV1Api } from '@kubernetes/client-node'
import { startEmulator } from '../functions/cluster/emulator.ts'
import { BudgetLimitsSchema } from '../functions/write/budget-ledger.ts'
import { ensureLedger, makeCluster } from '../functions/write/cluster.ts'
import { handleDecision, type WriteDeps } from '../functions/write/handle-decision.ts'
import { silentLog } from '../shared/log.ts'
import { DecisionSchema } from '../shared/messages/index.ts'

export const name = 'write'

const N = 150
const ZONE = 'bench:\u0000:bench-a'

async function setup() {
  const emulator = await startEmulator()
  emulator.store.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'nodewarden' } })
  for (let i = 0; i < N; i++) {
    for (const prefix of ['w', 'b']) {
      emulator.store.create({ apiVersion: 'v1', kind: 'Node', metadata: { name: `${prefix}-node-${i}` }, spec: {} })
      emulator.store.create({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: `${prefix}-pod-${i}`, namespace: 'default', labels: { app: 'bench' } },
        spec: { nodeName: `${prefix}-node-${i}`, containers: [{ name: 'c', image: 'x' }] },
        status: { phase: 'Running' },
      })
    }
  }
  await ensureLedger(emulator.kubeConfig(), 'nodewarden', 'ledger')
  return emulator
}

/** run measures writer and bare-loop operations/s under 10 % conflicts, and API requests per applied action. */
export async function run(): Promise<Record<string, unknown>> {
  const emulator = await setup()
  const kc = emulator.kubeConfig()
  try {
    const deps: WriteDeps = {
      cluster: makeCluster({
        kubeConfig: kc,
        namespace: 'nodewarden',
        ledgerName: 'ledger',
        reportingInstance: 'bench',
        timeoutMs: 10_000,
      }),
      now: () => new Date(),
      dryRun: false,
      limits: BudgetLimitsSchema.parse({ burst: 1_000_000, globalPerHour: 1_000_000, maxZoneFraction: 1 }),
      requeue: async () => {},
      sendAlert: async () => {},
      log: silentLog,
      maxConflictRetries: 10,
      maxBlockedAttempts: 3,
    }
    const stopNodes = emulator.faults.fail(409, { resource: 'nodes', verb: 'patch', rate: 0.1 })
    const stopEvict = emulator.faults.fail(409, { resource: 'pods/eviction', verb: 'create', rate: 0.1 })
    const store = emulator.store
    const decision = (i: number, action: 'taint' | 'evict') =>
      DecisionSchema.parse({
        id: `bench-${action}-${i}`,
        ruleId: 'bench',
        reason: 'bench',
        decidedAt: new Date().toISOString(),
        budget: {
          kind: action === 'taint' ? 'noExecuteTaint' : 'evict',
          zone: ZONE,
          zoneNodes: 1_000_000,
          ratePerSecond: 1_000_000,
        },
        ...(action === 'taint'
          ? {
              action,
              target: { kind: 'Node', name: `w-node-${i}`, uid: store.get('nodes', '', `w-node-${i}`)?.metadata.uid },
              taint: { key: 'nodewarden.io/bench', effect: 'NoExecute' },
              preconditions: [{ type: 'taintAbsent', key: 'nodewarden.io/bench', effect: 'NoExecute' }],
            }
          : {
              action,
              target: {
                kind: 'Pod',
                namespace: 'default',
                name: `w-pod-${i}`,
                uid: store.get('pods', 'default', `w-pod-${i}`)?.metadata.uid,
                nodeName: `w-node-${i}`,
              },
            }),
      })

    emulator.requests.clear()
    let applied = 0
    const writerStart = performance.now()
    for (const action of ['taint', 'evict'] as const)
      for (let i = 0; i < N; i++) if ((await handleDecision(decision(i, action), deps)).status === 'applied') applied++
    const writerMs = performance.now() - writerStart
    const writerRequests = emulator.requests.all().length
    const writerConflicts = emulator.requests.all().filter((r) => r.status === 409).length

    emulator.requests.clear()
    const core = kc.makeApiClient(CoreV1Api)
    let bareOk = 0
    const bareStart = performance.now()
    for (let i = 0; i < N; i++) {
      try {
        await core.patchNode({
          name: `b-node-${i}`,
          body: [{ op: 'add', path: '/spec/taints', value: [{ key: 'nodewarden.io/bench', effect: 'NoExecute' }] }],
        })
        bareOk++
      } catch {}
    }
    for (let i = 0; i < N; i++) {
      try {
        await core.createNamespacedPodEviction({
          name: `b-pod-${i}`,
          namespace: 'default',
          body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: `b-pod-${i}`, namespace: 'default' } },
        })
        bareOk++
      } catch {}
    }
    const bareMs = performance.now() - bareStart
    const bareRequests = emulator.requests.all().length
    stopNodes()
    stopEvict()

    const writerOps = (2 * N * 1000) / writerMs
    const bareOps = (2 * N * 1000) / bareMs
    return {
      operations: 2 * N,
      injectedConflictRate: 0.1,
      writer: {
        opsPerSecond: Math.round(writerOps),
        applied,
        apiRequests: writerRequests,
        conflictsSeen: writerConflicts,
        apiRequestsPerAppliedAction: Number((writerRequests / applied).toFixed(2)),
      },
      bareClientNode: {
        opsPerSecond: Math.round(bareOps),
        succeeded: bareOk,
        lostToConflicts: 2 * N - bareOk,
        apiRequestsPerSucceededAction: Number((bareRequests / Math.max(1, bareOk)).toFixed(2)),
      },
      ratioWriterToBare: Number((writerOps / bareOps).toFixed(3)),
    }
  } finally {
    await emulator.close()
  }
}
