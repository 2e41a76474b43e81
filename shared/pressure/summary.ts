import * as z from 'zod'

/**
 * The kubelet Summary API document (`GET /api/v1/nodes/{node}/proxy/stats/summary`,
 * k8s.io/kubelet/pkg/apis/stats/v1alpha1), trimmed to what eviction signals and pod ranking read.
 * Every figure is optional, as upstream's pointers are: a missing figure makes its signal unknown.
 */

const bytes = z.number().nonnegative().optional()

export const FsStatsSchema = z.object({
  time: z.string().optional(),
  availableBytes: bytes,
  capacityBytes: bytes,
  usedBytes: bytes,
  inodesFree: bytes,
  inodes: bytes,
  inodesUsed: bytes,
})
export type FsStats = z.infer<typeof FsStatsSchema>

export const MemoryStatsSchema = z.object({
  time: z.string().optional(),
  availableBytes: bytes,
  usageBytes: bytes,
  workingSetBytes: bytes,
})

export const ContainerStatsSchema = z.object({
  name: z.string(),
  memory: MemoryStatsSchema.optional(),
  rootfs: FsStatsSchema.optional(),
  logs: FsStatsSchema.optional(),
})

export const VolumeStatsSchema = FsStatsSchema.extend({
  name: z.string(),
  pvcRef: z.object({ name: z.string(), namespace: z.string() }).optional(),
})

export const PodStatsSchema = z.object({
  podRef: z.object({ name: z.string(), namespace: z.string(), uid: z.string() }),
  containers: z.array(ContainerStatsSchema).nullish(),
  memory: MemoryStatsSchema.optional(),
  volume: z.array(VolumeStatsSchema).nullish(),
  'ephemeral-storage': FsStatsSchema.optional(),
  process_stats: z.object({ process_count: z.number().nonnegative().optional() }).optional(),
})
export type PodStats = z.infer<typeof PodStatsSchema>

export const SummarySchema = z.object({
  node: z.object({
    nodeName: z.string(),
    systemContainers: z.array(ContainerStatsSchema).nullish(),
    memory: MemoryStatsSchema.optional(),
    fs: FsStatsSchema.optional(),
    runtime: z.object({ imageFs: FsStatsSchema.optional(), containerFs: FsStatsSchema.optional() }).optional(),
    rlimit: z.object({ time: z.string().optional(), maxpid: bytes, curproc: bytes }).optional(),
  }),
  pods: z.array(PodStatsSchema).nullish(),
})
export type Summary = z.infer<typeof SummarySchema>
