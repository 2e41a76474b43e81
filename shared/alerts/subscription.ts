import * as z from 'zod'
import { parseDuration } from '../config/duration.ts'
import { AlertKindSchema, SeveritySchema } from '../messages/alert.ts'
import { LabelSelectorSchema, TimestampSchema } from '../messages/kube.ts'

/**
 * AlertSubscription: a custom resource (`alertsubscriptions.nodewarden.io`) naming a webhook, its
 * signing secret, a payload format and filters. Managed with kubectl/GitOps or through the api,
 * which writes the same objects. `infra/k8s/alertsubscription-crd.yaml` mirrors this schema.
 */

export const SUBSCRIPTION_GROUP = 'nodewarden.io'
export const SUBSCRIPTION_VERSION = 'v1alpha1'
export const SUBSCRIPTION_API_VERSION = `${SUBSCRIPTION_GROUP}/${SUBSCRIPTION_VERSION}`
export const SUBSCRIPTION_KIND = 'AlertSubscription'
export const SUBSCRIPTION_PLURAL = 'alertsubscriptions'

export const FormatSchema = z.enum(['cloudevents', 'slack', 'alertmanager'])
export type Format = z.infer<typeof FormatSchema>

/** DurationSchema accepts Go-style durations (`30s`, `5m`, `4h`, `1h30m`). */
export const DurationSchema = z
  .string()
  .regex(/^(\d+(ms|s|m|h))+$/, 'not a duration like 30s, 5m, 4h or 1h30m')
  .refine((d) => (parseDuration(d) ?? 0) >= 60_000, 'must be at least 1m')

export const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/
export const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/
const SECRET_KEY = /^[-._a-zA-Z0-9]+$/

export const SecretRefSchema = z.object({
  name: z.string().max(253).regex(DNS_SUBDOMAIN, 'not a valid Secret name'),
  key: z.string().max(253).regex(SECRET_KEY, 'not a valid Secret key').default('signingKey'),
})

export const FiltersSchema = z.object({
  severities: z.array(SeveritySchema).min(1).optional(),
  kinds: z.array(AlertKindSchema).min(1).optional(),
  zones: z.array(z.string().min(1)).min(1).optional(),
  nodeSelector: LabelSelectorSchema.optional(),
  namespaces: z.array(z.string().regex(DNS_LABEL, 'not a valid namespace')).min(1).optional(),
})
export type Filters = z.infer<typeof FiltersSchema>

/** The target URL is any absolute http(s) URL here; the SSRF guard decides what may be reached. */
export const TargetUrlSchema = z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' }).max(2048)

export const SubscriptionSpecSchema = z.object({
  url: TargetUrlSchema,
  secretRef: SecretRefSchema,
  format: FormatSchema.default('cloudevents'),
  filters: FiltersSchema.default({}),
  sendResolved: z.boolean().default(true),
  repeatInterval: DurationSchema.default('4h'),
})
export type SubscriptionSpec = z.infer<typeof SubscriptionSpecSchema>
export type SubscriptionSpecInput = z.input<typeof SubscriptionSpecSchema>

/** NoticeSchema records one firing notice a subscription received (kept until its resolved notice). */
export const NoticeSchema = z.object({
  at: TimestampSchema,
  kind: AlertKindSchema,
  zone: z.string().optional(),
  /** The notice was dead-lettered, not received: it still paces repeats, but earns no resolved notice. */
  failed: z.boolean().optional(),
  /**
   * Claimed, not yet delivered: the SQS message id of the alerts-queue message whose fan-out
   * enqueued the delivery. It paces repeats (copies arriving meanwhile are skipped), but earns no
   * resolved notice; the delivery replaces it with the notice received.
   */
  pending: z.string().min(1).optional(),
})
export type Notice = z.infer<typeof NoticeSchema>

export const SubscriptionStatusSchema = z.object({
  /** Firing notices delivered, by alert id: the record behind repeat intervals, resolved notices and zone folding. */
  notified: z.record(z.string(), NoticeSchema).default({}),
})

/** AlertSubscriptionSchema is the custom resource trimmed to the fields nodewarden reads. */
export const AlertSubscriptionSchema = z.object({
  apiVersion: z.literal(SUBSCRIPTION_API_VERSION).optional(),
  kind: z.literal(SUBSCRIPTION_KIND).optional(),
  metadata: z.object({
    name: z.string().min(1),
    namespace: z.string().min(1),
    uid: z.string().optional(),
    resourceVersion: z.string().optional(),
    creationTimestamp: TimestampSchema.optional(),
    labels: z.record(z.string(), z.string()).optional(),
    annotations: z.record(z.string(), z.string()).optional(),
  }),
  spec: SubscriptionSpecSchema,
  status: SubscriptionStatusSchema.default({ notified: {} }),
})
export type AlertSubscription = z.infer<typeof AlertSubscriptionSchema>
export type AlertSubscriptionInput = z.input<typeof AlertSubscriptionSchema>
