import type { Toleration } from '../../shared/messages/index.ts'

/**
 * Pure planning of a toleration backfill. A live pod may only gain tolerations (the API server
 * rejects any other spec change with 422), and `tolerations` has no merge key, so the whole
 * grown list is sent with the resourceVersion it was planned from.
 */

export type TolerationPlan =
  | { changed: false; reason: string }
  | { changed: true; tolerations: Toleration[]; added: Toleration[] }

const same = (a: Toleration, b: Toleration) =>
  (a.key ?? '') === (b.key ?? '') &&
  (a.operator ?? 'Equal') === (b.operator ?? 'Equal') &&
  (a.value ?? '') === (b.value ?? '') &&
  (a.effect ?? '') === (b.effect ?? '') &&
  (a.tolerationSeconds ?? null) === (b.tolerationSeconds ?? null)

/** planAddTolerations appends the wanted tolerations the pod lacks; never removes or edits one. */
export function planAddTolerations(current: readonly Toleration[], wanted: readonly Toleration[]): TolerationPlan {
  const added = wanted.filter((w, i) => !current.some((c) => same(c, w)) && wanted.findIndex((x) => same(x, w)) === i)
  if (added.length === 0) return { changed: false, reason: 'the pod already has every toleration to backfill' }
  return { changed: true, tolerations: [...current, ...added], added }
}
