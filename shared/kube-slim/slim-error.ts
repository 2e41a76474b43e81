import type * as z from 'zod'

/** SlimError: a Kubernetes object nodewarden cannot read; the message names the object and every bad field. */
export class SlimError extends Error {
  override name = 'SlimError'
  constructor(
    readonly object: string,
    readonly fields: string[],
  ) {
    super(`${object}: ${fields.join('; ')}`)
  }
}

/** parseSlim validates a trimmed object with its slim schema, naming the object and field paths on failure. */
export function parseSlim<S extends z.ZodType>(
  schema: S,
  trimmed: unknown,
  object: string,
  paths: Record<string, string> = {},
): z.output<S> {
  const result = schema.safeParse(trimmed)
  if (result.success) return result.data
  const fields = result.error.issues.map((i) => {
    const slimPath = i.path.map(String).join('.')
    return `${paths[slimPath] ?? slimPath}: ${i.message}`
  })
  throw new SlimError(object, fields)
}
