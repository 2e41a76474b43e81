import { Logger } from '@aws-lambda-powertools/logger'

/**
 * Structured JSON logs: a constant lowercase phrase, data in fields
 * (`log.info('taint applied', { node, key })`). Never whole objects, never secrets.
 */
export type Log = Pick<Logger, 'debug' | 'info' | 'warn' | 'error'>
export type LogLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'SILENT'

/** createLogger returns a Powertools JSON logger for one service (decide, write, alert, api, watcher, local). */
export function createLogger(service: string, level: LogLevel = 'INFO'): Log {
  return new Logger({ serviceName: `nodewarden-${service}`, logLevel: level })
}

/** silentLog discards everything: for tests and benchmarks that assert on behaviour, not on log lines. */
export const silentLog: Log = createLogger('silent', 'SILENT')
