import * as z from 'zod'
import { TimestampSchema } from './kube.ts'

/** Alert: a firing or resolved notice, fanned out to subscriptions by the alert function. */

export const SeveritySchema = z.enum(['info', 'warning', 'critical'])
export type Severity = z.infer<typeof SeveritySchema>

export const AlertKindSchema = z.enum([
  'ConditionTainted',
  'RemediationEscalation',
  'EvictionForecast',
  'MissingDefaultTolerations',
  'CriticalWithoutSystemPriority',
  'CriticalPodPending',
  'EvictedPodsCleanup',
  'ZoneBrake',
  'DrainBlocked',
  'PressureRelief',
  'ProtectedPodAtRisk',
  'AllocatableMisconfigured',
  'ActionOutcome',
  'Test',
])
export type AlertKind = z.infer<typeof AlertKindSchema>

export const AlertSubjectSchema = z.object({
  kind: z.enum(['Node', 'Pod', 'Zone', 'Cluster']),
  name: z.string(),
  namespace: z.string().optional(),
  node: z.string().optional(),
  zone: z.string().optional(),
  /** Node labels, so subscriptions can filter by a node label selector. */
  nodeLabels: z.record(z.string(), z.string()).optional(),
})
export type AlertSubject = z.infer<typeof AlertSubjectSchema>

export const AlertSchema = z.object({
  /** Deterministic per problem: firing and resolved notices of one problem share it. */
  id: z.string().min(8),
  status: z.enum(['firing', 'resolved']),
  severity: SeveritySchema,
  kind: AlertKindSchema,
  subject: AlertSubjectSchema,
  summary: z.string().min(1),
  details: z.record(z.string(), z.unknown()).default({}),
  startsAt: TimestampSchema,
  endsAt: TimestampSchema.optional(),
  /** Alerts sharing a group key fold together (e.g. every node of a braked zone). */
  groupKey: z.string().min(1),
  /**
   * Set by decide on a node's or pod's alert while its zone's brake holds: the id of that zone's
   * ZoneBrake alert. A subscription that received the zone alert is not sent this one.
   */
  foldInto: z.string().min(8).optional(),
})
export type Alert = z.infer<typeof AlertSchema>
export type AlertInput = z.input<typeof AlertSchema>
