import * as z from 'zod'

/**
 * The `nodewarden.io/last-relief` node annotation: the writer stamps it after each relief eviction
 * with when, which pod and which decision; decide reads it to keep relief at one pod per node per
 * interval. A bare RFC 3339 timestamp is accepted too (hand-written or older stamps).
 */

/** ANNOTATION_LAST_RELIEF: the writer stamps the node with the time of its last relief eviction. */
export const ANNOTATION_LAST_RELIEF = 'nodewarden.io/last-relief'

export const LastReliefSchema = z.object({
  at: z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'not a timestamp'),
  pod: z.string().optional(),
  decision: z.string().optional(),
})
export type LastRelief = z.infer<typeof LastReliefSchema>

/** parseLastRelief reads the annotation; undefined when absent or unreadable (then it holds nothing back). */
export function parseLastRelief(text: string | undefined): LastRelief | undefined {
  if (text === undefined) return undefined
  if (!text.trimStart().startsWith('{')) return Number.isNaN(Date.parse(text)) ? undefined : { at: text }
  try {
    const parsed = LastReliefSchema.safeParse(JSON.parse(text))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}

/** renderLastRelief writes the annotation value: compact JSON `{"at":…,"pod":"ns/name","decision":…}`. */
export function renderLastRelief(stamp: LastRelief): string {
  return JSON.stringify(stamp)
}
