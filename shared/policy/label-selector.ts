import type { LabelSelector } from '../messages/index.ts'

/**
 * matchesLabelSelector is `metav1.LabelSelectorAsSelector(...).Matches(labels)`: every matchLabels
 * pair and every expression must hold; an empty selector `{}` matches everything.
 */
export function matchesLabelSelector(selector: LabelSelector, labels: Readonly<Record<string, string>>): boolean {
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (labels[k] !== v) return false
  for (const e of selector.matchExpressions ?? []) {
    const value = labels[e.key]
    const values = e.values ?? []
    if (e.operator === 'In' && (value === undefined || !values.includes(value))) return false
    if (e.operator === 'NotIn' && value !== undefined && values.includes(value)) return false
    if (e.operator === 'Exists' && value === undefined) return false
    if (e.operator === 'DoesNotExist' && value !== undefined) return false
  }
  return true
}

/** describeLabelSelector renders a selector the way kubectl prints one (`app=web,tier in (a,b)`). */
export function describeLabelSelector(selector: LabelSelector): string {
  const parts = Object.entries(selector.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`)
  for (const e of selector.matchExpressions ?? []) {
    if (e.operator === 'Exists') parts.push(e.key)
    else if (e.operator === 'DoesNotExist') parts.push(`!${e.key}`)
    else parts.push(`${e.key} ${e.operator === 'In' ? 'in' : 'notin'} (${(e.values ?? []).join(',')})`)
  }
  return parts.join(',') || '{}'
}

/** selectorProblems lists why a selector is invalid (In/NotIn need values, Exists/DoesNotExist take none). */
export function selectorProblems(selector: LabelSelector): { path: string; message: string }[] {
  return (selector.matchExpressions ?? []).flatMap((req, i) => {
    const n = req.values?.length ?? 0
    if ((req.operator === 'In' || req.operator === 'NotIn') && n === 0)
      return [{ path: `matchExpressions.${i}.values`, message: `${req.operator} needs at least one value` }]
    if ((req.operator === 'Exists' || req.operator === 'DoesNotExist') && n > 0)
      return [{ path: `matchExpressions.${i}.values`, message: `${req.operator} takes no values` }]
    return []
  })
}
