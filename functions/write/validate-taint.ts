import type { Taint } from '../../shared/messages/index.ts'

/**
 * Taint validation as the API server does it (`validateNodeTaints`: key is a qualified name,
 * value a label value), plus nodewarden's own rule: it only touches taints under its prefix.
 * https://kubernetes.io/docs/concepts/overview/working-with-objects/names/
 */

export const NODEWARDEN_TAINT_PREFIX = 'nodewarden.io/'

const NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/

/** taintProblem returns why a taint is invalid or not nodewarden's to touch, or undefined when it is fine. */
export function taintProblem(taint: Pick<Taint, 'key' | 'value'>): string | undefined {
  const slash = taint.key.indexOf('/')
  const prefix = slash === -1 ? '' : taint.key.slice(0, slash)
  const name = slash === -1 ? taint.key : taint.key.slice(slash + 1)
  if (slash !== -1 && (prefix.length === 0 || prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix)))
    return `taint key ${JSON.stringify(taint.key)}: prefix must be a DNS subdomain`
  if (name.length === 0 || name.length > 63 || !NAME.test(name))
    return `taint key ${JSON.stringify(taint.key)}: name must be 1-63 alphanumerics, '-', '_' or '.', starting and ending alphanumeric`
  if (taint.value !== undefined && taint.value !== '' && (taint.value.length > 63 || !NAME.test(taint.value)))
    return `taint value ${JSON.stringify(taint.value)}: must be a valid label value`
  if (!taint.key.startsWith(NODEWARDEN_TAINT_PREFIX))
    return `taint key ${JSON.stringify(taint.key)}: nodewarden only writes taints under ${NODEWARDEN_TAINT_PREFIX}`
  return undefined
}
