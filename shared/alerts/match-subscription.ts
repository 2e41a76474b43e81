import type { Alert } from '../messages/alert.ts'
import { matchesLabelSelector } from '../policy/label-selector.ts'
import type { Filters } from './subscription.ts'

export type Match = { match: boolean; reason: string }

/**
 * matchFilters tells whether an alert passes a subscription's filters, with the reason. Every set
 * filter must pass; a filter on a field the alert lacks (a namespace filter on a node alert) fails.
 */
export function matchFilters(alert: Alert, filters: Filters): Match {
  const { subject } = alert
  if (filters.severities && !filters.severities.includes(alert.severity))
    return no(`severity ${alert.severity} not in [${filters.severities.join(', ')}]`)
  if (filters.kinds && !filters.kinds.includes(alert.kind))
    return no(`kind ${alert.kind} not in [${filters.kinds.join(', ')}]`)
  if (filters.zones && !(subject.zone && filters.zones.includes(subject.zone)))
    return no(`zone ${subject.zone ?? '(none)'} not in [${filters.zones.join(', ')}]`)
  if (filters.namespaces && !(subject.namespace && filters.namespaces.includes(subject.namespace)))
    return no(`namespace ${subject.namespace ?? '(none)'} not in [${filters.namespaces.join(', ')}]`)
  if (filters.nodeSelector) {
    if (!subject.nodeLabels) return no('nodeSelector set but the alert carries no node labels')
    if (!matchesLabelSelector(filters.nodeSelector, subject.nodeLabels))
      return no('node labels do not match nodeSelector')
  }
  return { match: true, reason: 'filters match' }
}

function no(reason: string): Match {
  return { match: false, reason }
}
