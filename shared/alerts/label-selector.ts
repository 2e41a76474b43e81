import type { LabelSelector } from '../messages/kube.ts'

/**
 * matchesLabelSelector tells whether labels satisfy a Kubernetes label selector: every matchLabels
 * pair and every matchExpressions requirement must hold; an empty selector matches everything.
 * https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#resources-that-support-set-based-requirements
 */
export function matchesLabelSelector(selector: LabelSelector, labels: Record<string, string>): boolean {
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) if (labels[key] !== value) return false
  return (selector.matchExpressions ?? []).every((req) => {
    const has = Object.hasOwn(labels, req.key)
    const values = req.values ?? []
    switch (req.operator) {
      case 'In':
        return has && values.includes(labels[req.key] as string)
      case 'NotIn':
        return !has || !values.includes(labels[req.key] as string)
      case 'Exists':
        return has
      case 'DoesNotExist':
        return !has
    }
    return false
  })
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
