/** Loading scenario files: YAML or JSON text → a validated Scenario, or an error naming each bad field. */
import { readFileSync } from 'node:fs'
import { parse as parseYaml } from 'yaml'
import type * as z from 'zod'
import { type Scenario, ScenarioSchema } from './schema.ts'

/** ScenarioError lists every invalid field of a scenario, one `path: message` per line. */
export class ScenarioError extends Error {
  constructor(
    message: string,
    readonly issues: string[],
    options?: ErrorOptions,
  ) {
    super(message, options)
    this.name = 'ScenarioError'
  }
}

/** formatPath renders a zod issue path like `timeline[2].addTaint.effect`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>(
    (out, p) => (typeof p === 'number' ? `${out}[${p}]` : out ? `${out}.${String(p)}` : String(p)),
    '',
  )
}

/** parseScenario validates a decoded scenario document. */
export function parseScenario(doc: unknown, source = 'scenario'): Scenario {
  const result = ScenarioSchema.safeParse(doc)
  if (result.success) return result.data
  const issues = result.error.issues.map((i: z.core.$ZodIssue) => `${formatPath(i.path) || '(root)'}: ${i.message}`)
  throw new ScenarioError(`invalid ${source}:\n  ${issues.join('\n  ')}`, issues)
}

/** parseScenarioText parses YAML (or JSON, a YAML subset) scenario text. */
export function parseScenarioText(text: string, source = 'scenario'): Scenario {
  let doc: unknown
  try {
    doc = parseYaml(text)
  } catch (err) {
    throw new ScenarioError(`invalid ${source}: not YAML/JSON: ${(err as Error).message}`, [], { cause: err })
  }
  return parseScenario(doc, source)
}

/** loadScenarioFile reads and validates a scenario file. */
export function loadScenarioFile(path: string): Scenario {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (err) {
    throw new Error(`read scenario ${path}`, { cause: err })
  }
  return parseScenarioText(text, path)
}
