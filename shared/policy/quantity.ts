/**
 * Kubernetes resource quantities as exact rationals (bigint numerator / denominator), so that
 * `1Gi == 1024Mi` and `1 == 1000m` compare equal and nothing is lost to floating point.
 * Grammar and rounding follow apimachinery `resource.ParseQuantity` / `Quantity.Value()`:
 * https://github.com/kubernetes/apimachinery/blob/master/pkg/api/resource/quantity.go
 */

export type Quantity = { readonly num: bigint; readonly den: bigint }

/** QuantityError names the text that is not a Kubernetes quantity. */
export class QuantityError extends Error {
  override name = 'QuantityError'
}

const BINARY: Record<string, bigint> = { Ki: 10n, Mi: 20n, Gi: 30n, Ti: 40n, Pi: 50n, Ei: 60n }
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 }
const SHAPE = /^([+-]?)(\d*)(?:\.(\d*))?(.*)$/
/** Exponents beyond this are refused: real quantities never need them and a huge power is a cheap DoS. */
const MAX_EXPONENT = 1000

/** parseQuantity parses `100Mi`, `1.5Gi`, `500m`, `1e3`, `-2k` into an exact rational; throws QuantityError. */
export function parseQuantity(text: string): Quantity {
  const m = SHAPE.exec(text)
  const [, sign = '', whole = '', frac = '', suffix = ''] = m ?? []
  if (!m || whole + frac === '') throw new QuantityError(`not a Kubernetes quantity: ${JSON.stringify(text)}`)
  let num = BigInt(whole + frac || '0') * (sign === '-' ? -1n : 1n)
  let den = 10n ** BigInt(frac.length)
  const exp = suffixExponent(suffix, text)
  if (exp.base === 2) num *= 1n << exp.power
  else if (exp.power >= 0n) num *= 10n ** exp.power
  else den *= 10n ** -exp.power
  return normalize(num, den)
}

function suffixExponent(suffix: string, text: string): { base: 2 | 10; power: bigint } {
  const binary = BINARY[suffix]
  if (binary !== undefined) return { base: 2, power: binary }
  const decimal = DECIMAL[suffix]
  if (decimal !== undefined) return { base: 10, power: BigInt(decimal) }
  const e = /^[eE]([+-]?\d+)$/.exec(suffix)
  if (e?.[1] !== undefined && Math.abs(Number(e[1])) <= MAX_EXPONENT) return { base: 10, power: BigInt(e[1]) }
  throw new QuantityError(`not a Kubernetes quantity: ${JSON.stringify(text)} (bad suffix ${JSON.stringify(suffix)})`)
}

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a
  let y = b
  while (y !== 0n) [x, y] = [y, x % y]
  return x
}

function normalize(num: bigint, den: bigint): Quantity {
  if (num === 0n) return { num: 0n, den: 1n }
  const g = gcd(num, den)
  return { num: num / g, den: den / g }
}

const QUANTITY_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE]([+-]?\d+))?$/

/** isQuantity reports whether the text parses as a Kubernetes quantity (same grammar as parseQuantity, no bigint work). */
export function isQuantity(text: string): boolean {
  const m = QUANTITY_TEXT.exec(text)
  return m !== null && (m[3] === undefined || Math.abs(Number(m[3])) <= MAX_EXPONENT)
}

/** compareQuantities returns -1, 0 or 1 by exact value (`1Gi` vs `1024Mi` → 0). */
export function compareQuantities(a: Quantity, b: Quantity): -1 | 0 | 1 {
  const l = a.num * b.den
  const r = b.num * a.den
  return l < r ? -1 : l > r ? 1 : 0
}

/** addQuantities returns the exact sum. */
export function addQuantities(a: Quantity, b: Quantity): Quantity {
  return normalize(a.num * b.den + b.num * a.den, a.den * b.den)
}

/** subtractQuantities returns the exact difference a − b. */
export function subtractQuantities(a: Quantity, b: Quantity): Quantity {
  return normalize(a.num * b.den - b.num * a.den, a.den * b.den)
}

/** isPositive reports value > 0 (upstream QoS counts only quantities that are > 0). */
export function isPositive(q: Quantity): boolean {
  return q.num > 0n
}

function ceilDiv(num: bigint, den: bigint): bigint {
  const q = num / den
  return num % den !== 0n && num > 0n ? q + 1n : q
}

/** quantityValue is upstream `Value()`: the integer value, rounded up (ceil) when fractional. */
export function quantityValue(q: Quantity): bigint {
  return ceilDiv(q.num, q.den)
}

/** quantityMilliValue is upstream `MilliValue()`: value × 1000, rounded up. */
export function quantityMilliValue(q: Quantity): bigint {
  return ceilDiv(q.num * 1000n, q.den)
}

/** quantityToNumber is an approximate float for display and ranking; never use it for equality. */
export function quantityToNumber(q: Quantity): number {
  return Number(q.num) / Number(q.den)
}

export const ZERO_QUANTITY: Quantity = { num: 0n, den: 1n }
