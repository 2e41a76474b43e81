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
  for (const [key, s] of [
    [TAINT_NOT_READY, seconds.notReady],
    [TAINT_UNREACHABLE, seconds.unreachable],
  ] as const) {
    if (!tolerations.some((t) => coversDefaultTaint(t, key)))
      missing.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: s })
  }
  return missing
}

/** applyDefaultTolerationSeconds is the plugin's Admit on a pod's tolerations: the list with the missing defaults appended. */
export function applyDefaultTolerationSeconds(
  tolerations: readonly Toleration[],
  seconds: DefaultTolerationSeconds = DEFAULT_TOLERATION_SECONDS,
): Toleration[] {
  return [...tolerations, ...missingDefaultTolerations(tolerations, seconds)]
}
