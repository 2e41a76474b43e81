/**
 * Label and field selectors as the API server parses them
 * (k8s.io/apimachinery/pkg/labels/selector.go, pkg/fields/selector.go).
 */
import { badRequest } from './status.ts'

type Labels = Record<string, string> | undefined
export type Requirement = { key: string; op: 'in' | 'notin' | 'exists' | '!exists' | '=' | '!='; values: string[] }
export type Matcher = (labels: Labels) => boolean

const KEY = /^([a-z0-9A-Z]([-a-z0-9A-Z.]*[a-z0-9A-Z])?\/)?[a-z0-9A-Z]([-a-z0-9A-Z_.]*[a-z0-9A-Z])?$/
const VALUE = /^([a-z0-9A-Z]([-a-z0-9A-Z_.]*[a-z0-9A-Z])?)?$/

/** splitTerms splits on commas outside parentheses. */
function splitTerms(text: string): string[] {
  const out: string[] = []
  let depth = 0
  let cur = ''
  for (const ch of text) {
    if (ch === '(') depth++
    if (ch === ')') depth--
    if (ch === ',' && depth === 0) {
      out.push(cur)
      cur = ''
    } else cur += ch
  }
  out.push(cur)
  return out.map((t) => t.trim()).filter((t) => t !== '')
}

function checkKey(key: string, text: string): string {
  if (!KEY.test(key) || key.length > 316)
    throw badRequest(`unable to parse requirement: invalid label key "${key}" in "${text}"`)
  return key
}
function checkValue(value: string, text: string): string {
  if (!VALUE.test(value) || value.length > 63)
    throw badRequest(`unable to parse requirement: invalid label value: "${value}" in "${text}"`)
  return value
}

/** parseLabelSelector parses `a=b,c!=d,e in (x,y),!f` into requirements; a bad selector is a 400 naming it. */
export function parseLabelSelector(text: string): Requirement[] {
  return splitTerms(text).map((term): Requirement => {
    const set = /^(\S+)\s+(in|notin)\s*\((.*)\)$/.exec(term)
    if (set) {
      const values = (set[3] ?? '')
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v !== '')
      return {
        key: checkKey(set[1] ?? '', text),
        op: set[2] as 'in' | 'notin',
        values: values.map((v) => checkValue(v, text)),
      }
    }
    const eq = /^([^=!\s]+)\s*(==|=|!=)\s*(\S*)$/.exec(term)
    if (eq) {
      const op = eq[2] === '!=' ? '!=' : '='
      return { key: checkKey(eq[1] ?? '', text), op, values: [checkValue(eq[3] ?? '', text)] }
    }
    if (term.startsWith('!')) return { key: checkKey(term.slice(1).trim(), text), op: '!exists', values: [] }
    return { key: checkKey(term, text), op: 'exists', values: [] }
  })
}

/** matchesRequirements reports whether labels satisfy every requirement. */
export function matchesRequirements(reqs: Requirement[], labels: Labels): boolean {
  for (const r of reqs) {
    const has = labels !== undefined && Object.hasOwn(labels, r.key)
    const v = has ? labels?.[r.key] : undefined
    switch (r.op) {
      case 'exists':
        if (!has) return false
        break
      case '!exists':
        if (has) return false
        break
      case '=':
      case 'in':
        if (!has || !r.values.includes(v as string)) return false
        break
      case '!=':
      case 'notin':
        if (has && r.values.includes(v as string)) return false
        break
    }
  }
  return true
}

export type LabelSelectorObject = {
  matchLabels?: Record<string, string>
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>
}

/**
 * selectorObjectToRequirements converts a metav1.LabelSelector (LabelSelectorAsSelector);
 * returns undefined for an invalid operator, which upstream treats as "matches nothing" for PDBs.
 */
export function selectorObjectToRequirements(sel: LabelSelectorObject): Requirement[] | undefined {
  const reqs: Requirement[] = Object.entries(sel.matchLabels ?? {}).map(([key, v]) => ({ key, op: '=', values: [v] }))
  for (const e of sel.matchExpressions ?? []) {
    const op = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!exists' }[e.operator]
    if (!op) return undefined
    reqs.push({ key: e.key, op: op as Requirement['op'], values: e.values ?? [] })
  }
  return reqs
}

export type FieldRequirement = { field: string; op: '=' | '!='; value: string }

/** parseFieldSelector parses `spec.nodeName=n1,status.phase!=Failed`; a malformed term is a 400 naming it. */
export function parseFieldSelector(text: string): FieldRequirement[] {
  return splitTerms(text).map((term) => {
    const m = /^([^=!]+?)\s*(==|=|!=)\s*(.*)$/.exec(term)
    if (!m) throw badRequest(`invalid field selector: invalid selector: '${text}'; can't understand '${term}'`)
    return { field: m[1] ?? '', op: m[2] === '!=' ? '!=' : '=', value: (m[3] ?? '').trim() }
  })
}

/** SUPPORTED_FIELDS lists the field labels each resource accepts, beyond metadata.name/metadata.namespace. */
const SUPPORTED_FIELDS: Record<string, string[]> = {
  pods: [
    'spec.nodeName',
    'spec.restartPolicy',
    'spec.schedulerName',
    'spec.serviceAccountName',
    'spec.hostNetwork',
    'status.phase',
    'status.podIP',
    'status.nominatedNodeName',
  ],
  nodes: ['spec.unschedulable'],
  secrets: ['type'],
  events: [
    'involvedObject.kind',
    'involvedObject.namespace',
    'involvedObject.name',
    'involvedObject.uid',
    'involvedObject.apiVersion',
    'involvedObject.resourceVersion',
    'involvedObject.fieldPath',
    'reason',
    'reportingComponent',
    'source',
    'type',
  ],
  'events.events.k8s.io': [
    'regarding.kind',
    'regarding.namespace',
    'regarding.name',
    'regarding.uid',
    'regarding.apiVersion',
    'reason',
    'reportingController',
    'type',
  ],
}

/** checkFieldSelector rejects field labels the resource does not support, like upstream (400). */
export function checkFieldSelector(resourceKey: string, reqs: FieldRequirement[]): void {
  const allowed = SUPPORTED_FIELDS[resourceKey] ?? []
  for (const r of reqs) {
    if (r.field === 'metadata.name' || r.field === 'metadata.namespace' || allowed.includes(r.field)) continue
    throw badRequest(`field label not supported: ${r.field}`)
  }
}

/** fieldValue reads a field label from an object as the API server's field set does (booleans and empties as strings). */
export function fieldValue(obj: Record<string, unknown>, field: string): string {
  if (field === 'source') return String((obj.source as { component?: string } | undefined)?.component ?? '')
  let cur: unknown = obj
  for (const part of field.split('.')) {
    if (cur === null || typeof cur !== 'object') return ''
    cur = (cur as Record<string, unknown>)[part]
  }
  if (cur === undefined || cur === null)
    return field === 'spec.unschedulable' || field === 'spec.hostNetwork' ? 'false' : ''
  return String(cur)
}

/** matchesFields reports whether an object satisfies every field requirement. */
export function matchesFields(reqs: FieldRequirement[], obj: Record<string, unknown>): boolean {
  for (const r of reqs) {
    const v = fieldValue(obj, r.field)
    if (r.op === '=' ? v !== r.value : v === r.value) return false
  }
  return true
}
