import type { Toleration } from '../messages/index.ts'
import { TAINT_NOT_READY, TAINT_UNREACHABLE } from './well-known.ts'

/**
 * The DefaultTolerationSeconds admission plugin
 * (plugin/pkg/admission/defaulttolerationseconds/admission.go): a pod without a not-ready /
 * unreachable NoExecute toleration gets one with `tolerationSeconds` (300 s by default).
 */

export type DefaultTolerationSeconds = { notReady: number; unreachable: number }
export const DEFAULT_TOLERATION_SECONDS: DefaultTolerationSeconds = { notReady: 300, unreachable: 300 }

/** coversDefaultTaint is the plugin's test: key equals `key` or is empty, effect NoExecute or empty; operator and value ignored. */
export function coversDefaultTaint(toleration: Toleration, key: string): boolean {
  const keyOk = !toleration.key || toleration.key === key
  const effectOk = !toleration.effect || toleration.effect === 'NoExecute'
  return keyOk && effectOk
}

/** missingDefaultTolerations returns the tolerations the plugin would append, in its order (not-ready, unreachable). */
export function missingDefaultTolerations(
  tolerations: readonly Toleration[],
  seconds: DefaultTolerationSeconds = DEFAULT_TOLERATION_SECONDS,
): Toleration[] {
  const missing: Toleration[] = []
  if (!coversAny(tolerations, TAINT_NOT_READY))
    missing.push({ key: TAINT_NOT_READY, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds.notReady })
  if (!coversAny(tolerations, TAINT_UNREACHABLE))
    missing.push({
      key: TAINT_UNREACHABLE,
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: seconds.unreachable,
    })
  return missing
}

/** coversAny: some toleration covers the default taint `key` (a loop: this runs for every pod of every view). */
function coversAny(tolerations: readonly Toleration[], key: string): boolean {
  for (const t of tolerations) if (coversDefaultTaint(t, key)) return true
  return false
}

/** applyDefaultTolerationSeconds is the plugin's Admit on a pod's tolerations: the list with the missing defaults appended. */
export function applyDefaultTolerationSeconds(
  tolerations: readonly Toleration[],
  seconds: DefaultTolerationSeconds = DEFAULT_TOLERATION_SECONDS,
): Toleration[] {
  return [...tolerations, ...missingDefaultTolerations(tolerations, seconds)]
}
