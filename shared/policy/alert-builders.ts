import type { Alert, AlertKind, AlertSubject, Severity, SlimNode } from '../messages/index.ts'
import { contentId } from '../messages/index.ts'

/**
 * Alert ids hash the kind, the subject and a discriminator (e.g. the rule id): firing and resolved
 * notices of one problem share the id, so the alert stage can pair them and dedupe repeats.
 *
 * The decide function is stateless, so `status` comes from the view itself:
 * - edge alerts resolve when the view proves the transition (a nodewarden taint is present while
 *   its condition has cleared → `resolved`, endsAt = the condition's lastTransitionTime);
 * - level alerts (audits, forecasts, zone brakes) are `firing` with `endsAt = now + alerts.ttl`;
 *   a problem that is no longer reported lapses at endsAt (Alertmanager's rule for resolve-by-timeout).
 */

export type AlertSpec = {
  kind: AlertKind
  subject: AlertSubject
  /** Distinguishes alerts of one kind on one subject (rule id, step, zone brake cause). */
  key: string
  status: Alert['status']
  severity: Severity
  summary: string
  details?: Record<string, unknown>
  startsAt: string
  endsAt?: string
  groupKey: string
}

/** makeAlert assembles an alert with its deterministic id. */
export function makeAlert(spec: AlertSpec): Alert {
  const { key, ...rest } = spec
  return { id: alertId(spec.kind, spec.subject, key), ...rest, details: spec.details ?? {} } as Alert
}

/** alertId is the deterministic id of the alert of `kind` on `subject` with discriminator `key`. */
export function alertId(kind: AlertKind, subject: AlertSubject, key: string): string {
  return contentId({ kind, subject: subjectKey(subject), key })
}

/** subjectKey identifies a subject independently of its decorations (labels, zone). */
export function subjectKey(s: AlertSubject): string {
  return [s.kind, s.namespace ?? '', s.name].join('/')
}

/** nodeSubject is an alert subject for a node, carrying its labels for subscription filters. */
export function nodeSubject(node: Pick<SlimNode, 'name' | 'labels'>, zone: string): AlertSubject {
  return { kind: 'Node', name: node.name, node: node.name, zone, nodeLabels: node.labels }
}

/** endsAfter returns now + ttl as an ISO timestamp (the lapse time of a level alert). */
export function endsAfter(now: Date, ttlMs: number): string {
  return new Date(now.getTime() + ttlMs).toISOString()
}
