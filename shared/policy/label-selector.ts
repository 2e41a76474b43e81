import type { LabelSelector } from '../messages/index.ts'

const NO_EXPRESSIONS: Readonly<NonNullable<LabelSelector['matchExpressions']>> = []

/**
 * matchesLabelSelector is `metav1.LabelSelectorAsSelector(...).Matches(labels)`: every matchLabels
 * pair and every expression must hold; an empty selector `{}` matches everything.
 */
export function matchesLabelSelector(selector: LabelSelector, labels: Readonly<Record<string, string>>): boolean {
  // Own keys read in place (no Object.entries arrays): this runs per pod and per PDB or protected selector.
  const matchLabels = selector.matchLabels
  for (const k in matchLabels) if (Object.hasOwn(matchLabels, k) && labels[k] !== matchLabels[k]) return false
  for (const e of selector.matchExpressions ?? NO_EXPRESSIONS) {
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
