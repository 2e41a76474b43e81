import * as z from 'zod'
import { checkTargetUrl, type EgressPolicy } from '../../shared/alerts/egress-guard.ts'
import { DNS_LABEL, SubscriptionSpecSchema } from '../../shared/alerts/subscription.ts'
import { selectorProblems } from '../../shared/policy/label-selector.ts'

/**
 * The body of POST /subscriptions and PUT /subscriptions/{id}: the AlertSubscription spec, except
 * that the signing key may be given inline (`signingKey`, stored in a Secret the api creates and
 * never returns) instead of as a `secretRef` to an existing Secret — exactly one of the two.
 */
export function subscriptionRequestSchema(egress: EgressPolicy) {
  return SubscriptionSpecSchema.extend({
    name: z.string().max(63).regex(DNS_LABEL, 'must be a DNS label: lower-case letters, digits and -').optional(),
    secretRef: SubscriptionSpecSchema.shape.secretRef.optional(),
    signingKey: z.string().min(16, 'must be at least 16 characters').max(4096).optional(),
  })
    .strict()
    .superRefine((body, ctx) => {
      if ((body.secretRef === undefined) === (body.signingKey === undefined))
        ctx.addIssue({ code: 'custom', path: ['secretRef'], message: 'give exactly one of secretRef or signingKey' })
      const verdict = checkTargetUrl(new URL(body.url), egress)
      if (!verdict.allowed) ctx.addIssue({ code: 'custom', path: ['url'], message: verdict.reason })
      const selector = body.filters.nodeSelector
      for (const p of selector ? selectorProblems(selector) : [])
        ctx.addIssue({ code: 'custom', path: ['filters', 'nodeSelector', ...p.path.split('.')], message: p.message })
    })
}
export type SubscriptionRequest = z.infer<ReturnType<typeof subscriptionRequestSchema>>

/** Issue is one named problem of a rejected request: `{ path: "filters.severities.0", message }`. */
export type Issue = { path: string; message: string }

/** ZodIssues is the part of a zod error toIssues reads (classic and core errors both fit). */
export type ZodIssues = { issues: readonly { path: readonly PropertyKey[]; message: string }[] }

/** toIssues names every offending field of a zod error (numeric path parts included). */
export function toIssues(error: ZodIssues): Issue[] {
  return error.issues.map((i) => ({ path: i.path.map(String).join('.') || '(body)', message: i.message }))
}
