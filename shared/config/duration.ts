import * as z from 'zod'

/**
 * Durations everywhere in nodewarden (policy document, kubelet grace periods, subscription repeat
 * intervals) use Go's `time.ParseDuration` grammar (`90s`, `10m`, `1h30m`, `500ms`, `-5s`, `0`);
 * the policy document also accepts a number of seconds.
 */

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, μs: 1e-3, ms: 1, s: 1e3, m: 6e4, h: 3.6e6 }
const WHOLE = /^([+-]?)((?:\d+\.?\d*|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+$/
const PART = /(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g

/** parseGoDuration parses Go `time.ParseDuration` text (`30s`, `1m30s`, `-5s`, `0`) to milliseconds. */
export function parseGoDuration(text: string): number | undefined {
  if (text === '0' || text === '+0' || text === '-0') return 0
  const whole = WHOLE.exec(text)
  if (!whole) return undefined
  let ms = 0
  for (const part of text.matchAll(PART)) ms += Number(part[1]) * (UNIT_MS[part[2] ?? ''] ?? Number.NaN)
  return whole[1] === '-' ? -ms : ms
}

/** parseDuration returns whole milliseconds for a non-negative Go duration, or undefined when it is not one. */
export function parseDuration(text: string): number | undefined {
  const ms = parseGoDuration(text)
  return ms === undefined || ms < 0 || !Number.isFinite(ms) ? undefined : Math.round(ms)
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
