import * as z from 'zod'
import {
  ContainerResourcesSchema,
  LabelSelectorSchema,
  LabelsSchema,
  NodeConditionSchema,
  OwnerRefSchema,
  ResourceListSchema,
  TaintSchema,
  TimestampSchema,
  TolerationSchema,
} from './kube.ts'

/**
 * NodeView: everything the decide stage needs to judge one node, self-contained.
 * The watcher builds it from its slim cache; only fields policy reads are carried,
 * so a node with 250 pods stays far below the 256 KiB SQS limit.
 */

/** Pod annotations the policy reads; all others are dropped by the watcher. */
export const POD_ANNOTATIONS_KEPT = [
  'kubernetes.io/config.source',
  'kubernetes.io/config.mirror',
  'scheduler.alpha.kubernetes.io/critical-pod',
  'scheduler.alpha.kubernetes.io/not-evicted-pod',
  'nodewarden.io/protect',
] as const

export const SlimPodSchema = z.object({
  namespace: z.string().min(1),
  name: z.string().min(1),
  uid: z.string().min(1),
  nodeName: z.string().optional(),
  labels: LabelsSchema.default({}),
  annotations: LabelsSchema.default({}),
  owners: z.array(OwnerRefSchema).default([]),
  priority: z.number().int().optional(),
  priorityClassName: z.string().optional(),
  tolerations: z.array(TolerationSchema).default([]),
  containers: z.array(ContainerResourcesSchema).default([]),
  initContainers: z.array(ContainerResourcesSchema).default([]),
  overhead: ResourceListSchema.optional(),
  /** status.qosClass as reported by the API server, when present (upstream GetPodQOS prefers it). */
  qosClass: z.enum(['Guaranteed', 'Burstable', 'BestEffort']).optional(),
  phase: z.enum(['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown']).default('Pending'),
  reason: z.string().optional(),
  /** The pod's Ready condition is True (PDB health and unhealthy-pod eviction policy use it). */
  ready: z.boolean().default(false),
  hostNetwork: z.boolean().optional(),
  terminationGracePeriodSeconds: z.number().int().nonnegative().optional(),
  creationTimestamp: TimestampSchema.optional(),
  startTime: TimestampSchema.optional(),
  deletionTimestamp: TimestampSchema.optional(),
  /** When a terminal pod finished (DisruptionTarget condition or last container exit), when known: evicted-pod retention. */
  finishedAt: TimestampSchema.optional(),
  /**
   * Names of the pod's volumes whose usage the kubelet counts as the pod's disk usage when ranking
   * for disk pressure (upstream eviction `localVolumeNames`: hostPath, gitRepo, configMap, emptyDir
   * on the node's default medium); omitted when none. secret, projected, downwardAPI and
   * emptyDir{medium: Memory|HugePages} are tmpfs and never count (shared/kube-slim/local-volumes.ts).
   */
  localVolumes: z.array(z.string().min(1)).optional(),
})
export type SlimPod = z.infer<typeof SlimPodSchema>

export const SlimPdbSchema = z.object({
  namespace: z.string().min(1),
  name: z.string().min(1),
  selector: LabelSelectorSchema.nullable().optional(),
  minAvailable: z.union([z.number().int(), z.string()]).optional(),
  maxUnavailable: z.union([z.number().int(), z.string()]).optional(),
  unhealthyPodEvictionPolicy: z.enum(['IfHealthyBudget', 'AlwaysAllow']).optional(),
  disruptionsAllowed: z.number().int().default(0),
  currentHealthy: z.number().int().default(0),
  desiredHealthy: z.number().int().default(0),
  expectedPods: z.number().int().default(0),
})
export type SlimPdb = z.infer<typeof SlimPdbSchema>

export const SlimNodeSchema = z.object({
  name: z.string().min(1),
  uid: z.string().min(1),
  resourceVersion: z.string().min(1),
  labels: LabelsSchema.default({}),
  /** Only `nodewarden.io/*` annotations are carried. */
  annotations: LabelsSchema.default({}),
  taints: z.array(TaintSchema).default([]),
  conditions: z.array(NodeConditionSchema).default([]),
  unschedulable: z.boolean().default(false),
  capacity: ResourceListSchema.default({}),
  allocatable: ResourceListSchema.default({}),
  creationTimestamp: TimestampSchema.optional(),
})
export type SlimNode = z.infer<typeof SlimNodeSchema>

/** Per-zone health as upstream ComputeZoneState counts it (nodes labelled exclude-disruption left out). */
export const ZoneSummarySchema = z.object({
  /** Upstream GetZoneKey: `region + ":\x00:" + zone`, or "" when the node has neither label. */
  zone: z.string(),
  ready: z.number().int().nonnegative(),
  notReady: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  /** Nodes of the zone nodewarden currently affects (its NoExecute taints or drains), when the sender knows. */
  affected: z.number().int().nonnegative().optional(),
})
export type ZoneSummary = z.infer<typeof ZoneSummarySchema>

export const ViewCauseSchema = z.enum(['initial', 'node', 'pod', 'pdb', 'relist', 'resync', 'deleted'])

/**
 * Kubelet stats for pressure relief (issue 8), condensed from the Summary API by the watcher's stats
 * collector. A signal absent from `signals` is UNKNOWN (never healthy, never zero); `unknown` says why.
 * Per-pod figures are sums over the pod's containers; an absent figure was not reported.
 */
export const SignalObservationSchema = z.object({
  available: z.number(),
  capacity: z.number().nonnegative(),
  time: z.string().optional(),
})
export const PodVolumeUsageSchema = z.object({
  name: z.string(),
  bytes: z.number().nonnegative().optional(),
  inodes: z.number().nonnegative().optional(),
})
export const PodUsageSchema = z.object({
  uid: z.string().min(1),
  workingSetBytes: z.number().nonnegative().optional(),
  rootfsBytes: z.number().nonnegative().optional(),
  rootfsInodes: z.number().nonnegative().optional(),
  logsBytes: z.number().nonnegative().optional(),
  logsInodes: z.number().nonnegative().optional(),
  /**
   * Per-volume usage of the pod's volumes without a PVC, by volume name; omitted when none. Disk
   * ranking counts only the volumes the pod lists in `localVolumes` (tmpfs volumes are reported too).
   */
  volumes: z.array(PodVolumeUsageSchema).optional(),
  processCount: z.number().nonnegative().optional(),
})
export const NodeStatsSchema = z.object({
  observedAt: TimestampSchema,
  /** Which filesystems are separate devices; decides which pod usage counts for disk signals. */
  layout: z.enum(['shared', 'dedicatedImageFs', 'splitContainerFs']),
  signals: z.record(z.string(), SignalObservationSchema).default({}),
  unknown: z.record(z.string(), z.string()).default({}),
  pods: z.array(PodUsageSchema).default([]),
  /** Threshold id → when the collector first saw it met (soft-threshold grace periods). */
  firstObservedAt: z.record(z.string(), TimestampSchema).default({}),
})
export type NodeStats = z.infer<typeof NodeStatsSchema>
export type PodUsage = z.infer<typeof PodUsageSchema>
export type PodVolumeUsage = z.infer<typeof PodVolumeUsageSchema>
export type SignalObservation = z.infer<typeof SignalObservationSchema>

export const NodeViewSchema = z.object({
  node: SlimNodeSchema,
  pods: z.array(SlimPodSchema).default([]),
  pdbs: z.array(SlimPdbSchema).default([]),
  zones: z.array(ZoneSummarySchema).default([]),
  /** Total nodes in the cluster, for the large-cluster threshold of the zone rates. */
  clusterSize: z.number().int().nonnegative().optional(),
  observedAt: TimestampSchema,
  cause: ViewCauseSchema,
  /** Set when the watcher trimmed the view to fit the SQS limit (see README: NodeView size rule). */
  truncated: z.object({ droppedPods: z.number().int().nonnegative(), rule: z.string() }).optional(),
  /** Kubelet Summary API stats for pressure relief; absent when not collected. */
  stats: NodeStatsSchema.optional(),
})
export type NodeView = z.infer<typeof NodeViewSchema>
export type NodeViewInput = z.input<typeof NodeViewSchema>
