import type { Log } from '../../../shared/log.ts'

export type LogLine = { level: 'debug' | 'info' | 'warn' | 'error'; message: string; fields: Record<string, unknown> }

/** recordingLog is a Log that keeps every line, for tests that assert on what was logged. */
export function recordingLog(): Log & { lines: LogLine[] } {
  const lines: LogLine[] = []
  const at =
    (level: LogLine['level']) =>
    (message: unknown, ...extra: unknown[]) => {
      const fields = Object.assign({}, ...extra.filter((e) => typeof e === 'object' && e !== null)) as Record<
        string,
        unknown
      >
      lines.push({ level, message: String(message), fields })
    }
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } as Log & {
    lines: LogLine[]
  }
}
