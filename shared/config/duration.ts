import * as z from 'zod'

/** Go-style durations (`90s`, `10m`, `1h30m`, `500ms`) or a number of seconds, parsed to milliseconds. */

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }
const PART = /(\d+(?:\.\d+)?)(ms|s|m|h)/g
const WHOLE = /^(\d+(?:\.\d+)?(ms|s|m|h))+$/

/** parseDuration returns milliseconds for `1h30m`-style text, or undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  if (!WHOLE.test(text)) return undefined
  let ms = 0
  for (const m of text.matchAll(PART)) ms += Number(m[1]) * (UNIT_MS[m[2] ?? ''] ?? Number.NaN)
  return Number.isFinite(ms) ? Math.round(ms) : undefined
}

/** formatDuration renders milliseconds the way the policy document writes them (`1h30m`, `45s`). */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s'
  const parts: string[] = []
  let rest = Math.round(ms)
  for (const [unit, size] of [
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ] as const) {
    const n = Math.floor(rest / size)
    if (n > 0) parts.push(`${n}${unit}`)
    rest -= n * size
  }
  if (rest > 0) parts.push(`${rest}ms`)
  return parts.join('')
}

/** DurationSchema accepts `10m` or seconds as a number; the parsed value is milliseconds. */
export const DurationSchema = z.union([z.string(), z.number().nonnegative()]).transform((v, ctx) => {
  if (typeof v === 'number') return Math.round(v * 1000)
  const ms = parseDuration(v)
  if (ms === undefined) {
    ctx.addIssue({ code: 'custom', message: `invalid duration ${JSON.stringify(v)}: use e.g. 90s, 10m, 1h30m` })
    return z.NEVER
  }
  return ms
})
