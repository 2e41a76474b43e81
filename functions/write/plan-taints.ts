import type { Taint } from '../../shared/messages/index.ts'

/**
 * Pure planning of a node's taint list. `NodeSpec.taints` has no merge key, so every write sends
 * the whole list: it must be planned from the list just read and written with that read's
 * resourceVersion. A taint is identified by key and effect, as `kubectl taint` does.
 */

export type TaintPlan = { changed: false; reason: string } | { changed: true; taints: Taint[]; reason: string }

/** NODE_TAINTS_ANNOTATION holds, per taint nodewarden set, when, which rule and why (JSON). */
export const NODE_TAINTS_ANNOTATION = 'nodewarden.io/taints'

export type TaintRecord = { at: string; rule: string; reason: string; decision: string }
export type TaintRecords = Record<string, TaintRecord>

const sameTaint = (a: Pick<Taint, 'key' | 'effect'>, b: Pick<Taint, 'key' | 'effect'>) =>
  a.key === b.key && a.effect === b.effect

/** taintLabel renders a taint as kubectl does: `key=value:Effect`. */
export function taintLabel(taint: Pick<Taint, 'key' | 'value' | 'effect'>): string {
  return `${taint.key}${taint.value ? `=${taint.value}` : ''}:${taint.effect}`
}

/** planAddTaint returns the list with `taint` added (or its value updated), or "unchanged" if already so. */
export function planAddTaint(current: readonly Taint[], taint: Taint, now: Date): TaintPlan {
  const existing = current.find((t) => sameTaint(t, taint))
  const value = taint.value ?? ''
  if (existing && (existing.value ?? '') === value)
    return { changed: false, reason: `${taintLabel(taint)} already set` }
  // Like the node lifecycle controller, stamp timeAdded on NoExecute taints: eviction countdowns read it.
  const added: Taint = {
    key: taint.key,
    ...(value ? { value } : {}),
    effect: taint.effect,
    ...(taint.effect === 'NoExecute' ? { timeAdded: now.toISOString().replace(/\.\d{3}Z$/, 'Z') } : {}),
  }
  const taints = existing ? current.map((t) => (sameTaint(t, taint) ? added : t)) : [...current, added]
  return {
    changed: true,
    taints,
    reason: existing ? `${taintLabel(taint)} value updated` : `${taintLabel(taint)} added`,
  }
}

/** planRemoveTaint returns the list without `taint` (by key and effect), or "unchanged" if it is absent. */
export function planRemoveTaint(current: readonly Taint[], taint: Pick<Taint, 'key' | 'effect'>): TaintPlan {
  if (!current.some((t) => sameTaint(t, taint)))
    return { changed: false, reason: `${taint.key}:${taint.effect} already absent` }
  return {
    changed: true,
    taints: current.filter((t) => !sameTaint(t, taint)),
    reason: `${taint.key}:${taint.effect} removed`,
  }
}

/** readTaintRecords parses the node's nodewarden taint annotation; an unreadable one counts as empty. */
export function readTaintRecords(annotations: Record<string, string>): TaintRecords {
  const raw = annotations[NODE_TAINTS_ANNOTATION]
  if (!raw) return {}
  try {
    const parsed: unknown = JSON.parse(raw)
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as TaintRecords) : {}
  } catch {
    return {}
  }
}

/** planTaintRecords returns the annotation value after setting (record) or clearing (null) one taint's entry; null deletes it. */
export function planTaintRecords(
  annotations: Record<string, string>,
  taint: Pick<Taint, 'key' | 'effect'>,
  record: TaintRecord | null,
): string | null {
  const records = { ...readTaintRecords(annotations) }
  const id = `${taint.key}:${taint.effect}`
  if (record) records[id] = { ...record, reason: record.reason.slice(0, 512) }
  else delete records[id]
  return Object.keys(records).length === 0 ? null : JSON.stringify(records)
}
