import {
  CoreV1Api,
  EventsV1Api,
  type KubeConfig,
  PatchStrategy,
  setHeaderOptions,
  V1MicroTime,
} from '@kubernetes/client-node'
import { type ApiFailure, toApiFailure } from '../../shared/kube/api-failure.ts'
import type { Taint, Toleration } from '../../shared/messages/index.ts'
import { EMPTY_LEDGER, type Ledger, LedgerSchema } from './budget-ledger.ts'
import { type LiveNode, type LivePod, toLiveNode, toLivePod } from './live-objects.ts'

/**
 * The writer's only door to the cluster: one adapter per effect. Each returns what the API
 * answered as a value the flow branches on (conflict, gone, blocked…); only transient trouble
 * (network, timeouts, 5xx) throws. Writes carry the resourceVersion they were planned from.
 */

export type WriteResult =
  | { kind: 'written' }
  | { kind: 'conflict' }
  | { kind: 'gone' }
  | { kind: 'invalid'; failure: ApiFailure }
export type EvictResult =
  | { kind: 'evicted' }
  | { kind: 'gone' }
  | { kind: 'conflict' }
  | { kind: 'blocked'; failure: ApiFailure }
  | { kind: 'multiplePdbs'; failure: ApiFailure }
export type EventSpec = {
  /** Deterministic, so a redelivered decision records its Event once. */
  name: string
  namespace: string
  regarding: { kind: 'Node' | 'Pod'; name: string; namespace?: string; uid: string }
  type: 'Normal' | 'Warning'
  reason: string
  action: string
  note: string
}
export type StoredLedger = { ledger: Ledger; resourceVersion: string }

export type Cluster = {
  readNode: (name: string) => Promise<LiveNode | null>
  readPod: (namespace: string, name: string) => Promise<LivePod | null>
  replaceNodeTaints: (
    node: LiveNode,
    taints: Taint[],
    recordAnnotation: Record<string, string | null>,
    dryRun: boolean,
  ) => Promise<WriteResult>
  /** Merge node annotations (null removes one) with the resourceVersion read: 409 when the node changed. */
  annotateNode: (node: LiveNode, annotations: Record<string, string | null>, dryRun: boolean) => Promise<WriteResult>
  evictPod: (pod: LivePod, options: { gracePeriodSeconds?: number; dryRun: boolean }) => Promise<EvictResult>
  addPodTolerations: (pod: LivePod, tolerations: Toleration[], dryRun: boolean) => Promise<WriteResult>
  deletePod: (pod: LivePod, dryRun: boolean, gracePeriodSeconds?: number) => Promise<WriteResult>
  recordEvent: (event: EventSpec, now: Date) => Promise<void>
  readLedger: () => Promise<StoredLedger>
  writeLedger: (ledger: Ledger, resourceVersion: string, dryRun: boolean) => Promise<'written' | 'conflict'>
}

export type ClusterOptions = {
  kubeConfig: KubeConfig
  /** nodewarden's namespace and the ConfigMap holding the budget ledger (created by infra/k8s). */
  namespace: string
  ledgerName: string
  reportingInstance: string
  /** Per-call deadline; a call still running then counts as a transient failure. */
  timeoutMs: number
}

export const LEDGER_KEY = 'ledger.json'
export const REPORTING_CONTROLLER = 'nodewarden.io/writer'
const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch)
const dry = (dryRun: boolean) => (dryRun ? { dryRun: 'All' } : {})

/** makeCluster binds the writer's adapters to a KubeConfig. */
export function makeCluster(options: ClusterOptions): Cluster {
  const core = options.kubeConfig.makeApiClient(CoreV1Api)
  const events = options.kubeConfig.makeApiClient(EventsV1Api)
  const call = <T>(label: string, run: () => Promise<T>) => withTimeout(label, options.timeoutMs, run)
  return {
    readNode: async (name) => {
      const node = await call(`read node ${name}`, () => orNull(core.readNode({ name })))
      return node === null ? null : toLiveNode(node)
    },
    readPod: async (namespace, name) => {
      const pod = await call(`read pod ${namespace}/${name}`, () => orNull(core.readNamespacedPod({ name, namespace })))
      return pod === null ? null : toLivePod(pod)
    },
    // NodeSpec.taints has no merge key: the merge patch replaces the whole list, and the
    // resourceVersion in it makes the server refuse (409) a list planned from an older read.
    replaceNodeTaints: (node, taints, annotations, dryRun) =>
      call(`replace taints of node ${node.metadata.name}`, () =>
        written(
          core.patchNode(
            {
              name: node.metadata.name,
              body: { metadata: { resourceVersion: node.metadata.resourceVersion, annotations }, spec: { taints } },
              ...dry(dryRun),
            },
            merge,
          ),
        ),
      ),
    annotateNode: (node, annotations, dryRun) =>
      call(`annotate node ${node.metadata.name}`, () =>
        written(
          core.patchNode(
            {
              name: node.metadata.name,
              body: { metadata: { resourceVersion: node.metadata.resourceVersion, annotations } },
              ...dry(dryRun),
            },
            merge,
          ),
        ),
      ),
    evictPod: (pod, { gracePeriodSeconds, dryRun }) =>
      call(`evict pod ${pod.metadata.namespace}/${pod.metadata.name}`, async () => {
        const { name, namespace, uid } = pod.metadata
        try {
          await core.createNamespacedPodEviction({
            name,
            namespace,
            body: {
              apiVersion: 'policy/v1',
              kind: 'Eviction',
              metadata: { name, namespace },
              // The uid precondition makes the API refuse to evict a newer pod of the same name.
              deleteOptions: {
                preconditions: { uid },
                ...(gracePeriodSeconds === undefined ? {} : { gracePeriodSeconds }),
                ...(dryRun ? { dryRun: ['All'] } : {}),
              },
            },
            ...dry(dryRun),
          })
          return { kind: 'evicted' }
        } catch (err) {
          const failure = toApiFailure(err)
          if (failure?.code === 404) return { kind: 'gone' }
          if (failure?.code === 409) return { kind: 'conflict' }
          if (failure?.code === 429 || (failure?.code === 403 && /disrupt/i.test(failure.message)))
            return { kind: 'blocked', failure }
          if (failure?.code === 500 && /more than one PodDisruptionBudget/i.test(failure.message))
            return { kind: 'multiplePdbs', failure }
          throw err
        }
      }),
    // PodSpec.tolerations has no merge key either: send the whole (grown) list with the RV read.
    addPodTolerations: (pod, tolerations, dryRun) =>
      call(`add tolerations to pod ${pod.metadata.namespace}/${pod.metadata.name}`, () =>
        written(
          core.patchNamespacedPod(
            {
              name: pod.metadata.name,
              namespace: pod.metadata.namespace,
              body: { metadata: { resourceVersion: pod.metadata.resourceVersion }, spec: { tolerations } },
              ...dry(dryRun),
            },
            merge,
          ),
        ),
      ),
    deletePod: (pod, dryRun, gracePeriodSeconds) =>
      call(`delete pod ${pod.metadata.namespace}/${pod.metadata.name}`, () =>
        written(
          core.deleteNamespacedPod({
            name: pod.metadata.name,
            namespace: pod.metadata.namespace,
            body: {
              preconditions: { uid: pod.metadata.uid },
              ...(gracePeriodSeconds === undefined ? {} : { gracePeriodSeconds }),
              ...(dryRun ? { dryRun: ['All'] } : {}),
            },
            ...dry(dryRun),
          }),
        ),
      ),
    recordEvent: (event, now) =>
      call(`record event ${event.reason} on ${event.regarding.kind} ${event.regarding.name}`, async () => {
        try {
          await events.createNamespacedEvent({
            namespace: event.namespace,
            body: {
              apiVersion: 'events.k8s.io/v1',
              kind: 'Event',
              metadata: { name: event.name, namespace: event.namespace },
              eventTime: new V1MicroTime(now.getTime()),
              reportingController: REPORTING_CONTROLLER,
              reportingInstance: options.reportingInstance,
              action: event.action,
              reason: event.reason,
              note: event.note.slice(0, 1024),
              type: event.type,
              regarding: { apiVersion: 'v1', ...event.regarding },
            },
          })
        } catch (err) {
          const code = toApiFailure(err)?.code
          // The deterministic name already exists: this decision's Event was recorded before.
          if (code === 409) return
          if (code !== 404) throw err
          // No events.k8s.io/v1 on this server: record the same Event through core/v1.
          await recordCoreEvent(core, event, now, options.reportingInstance)
        }
      }),
    readLedger: () =>
      call('read budget ledger', async () => {
        const cm = await orNull(
          core.readNamespacedConfigMap({ name: options.ledgerName, namespace: options.namespace }),
        )
        if (cm === null)
          throw new Error(
            `budget ledger ConfigMap ${options.namespace}/${options.ledgerName} is missing (infra/k8s/writer-rbac.yaml creates it)`,
          )
        const raw = cm.data?.[LEDGER_KEY]
        const ledger = raw ? LedgerSchema.parse(JSON.parse(raw)) : EMPTY_LEDGER
        return { ledger, resourceVersion: cm.metadata?.resourceVersion ?? '' }
      }),
    writeLedger: (ledger, resourceVersion, dryRun) =>
      call('write budget ledger', async () => {
        try {
          await core.replaceNamespacedConfigMap({
            name: options.ledgerName,
            namespace: options.namespace,
            body: {
              metadata: { name: options.ledgerName, namespace: options.namespace, resourceVersion },
              data: { [LEDGER_KEY]: JSON.stringify(ledger) },
            },
            ...dry(dryRun),
          })
          return 'written'
        } catch (err) {
          if (toApiFailure(err)?.code === 409) return 'conflict'
          throw err
        }
      }),
  }
}

async function recordCoreEvent(core: CoreV1Api, event: EventSpec, now: Date, instance: string): Promise<void> {
  try {
    await core.createNamespacedEvent({
      namespace: event.namespace,
      body: {
        metadata: { name: event.name, namespace: event.namespace },
        involvedObject: { apiVersion: 'v1', ...event.regarding },
        reason: event.reason,
        message: event.note.slice(0, 1024),
        type: event.type,
        action: event.action,
        firstTimestamp: now,
        lastTimestamp: now,
        count: 1,
        source: { component: REPORTING_CONTROLLER },
        reportingComponent: REPORTING_CONTROLLER,
        reportingInstance: instance,
      },
    })
  } catch (err) {
    if (toApiFailure(err)?.code !== 409) throw err
  }
}

async function orNull<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read
  } catch (err) {
    if (toApiFailure(err)?.code === 404) return null
    throw err
  }
}

async function written(write: Promise<unknown>): Promise<WriteResult> {
  try {
    await write
    return { kind: 'written' }
  } catch (err) {
    const failure = toApiFailure(err)
    if (failure?.code === 409) return { kind: 'conflict' }
    if (failure?.code === 404) return { kind: 'gone' }
    if (failure?.code === 422 || failure?.code === 400) return { kind: 'invalid', failure }
    throw err
  }
}

async function withTimeout<T>(label: string, ms: number, run: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${label}: no answer within ${ms} ms`)), ms)
  })
  try {
    return await Promise.race([run(), deadline])
  } catch (err) {
    if ((err as Error).message?.startsWith(label)) throw err
    throw new Error(label, { cause: err })
  } finally {
    clearTimeout(timer)
  }
}

/** ensureLedger creates the empty budget ledger ConfigMap if absent: for local runs and tests (the writer cannot create). */
export async function ensureLedger(kubeConfig: KubeConfig, namespace: string, name: string): Promise<void> {
  const core = kubeConfig.makeApiClient(CoreV1Api)
  try {
    await core.createNamespacedConfigMap({
      namespace,
      body: { metadata: { name, namespace }, data: { [LEDGER_KEY]: JSON.stringify(EMPTY_LEDGER) } },
    })
  } catch (err) {
    if (toApiFailure(err)?.code !== 409) throw new Error(`create ledger ${namespace}/${name}`, { cause: err })
  }
}
