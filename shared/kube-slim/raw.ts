/** Tolerant readers for raw JSON: a missing or mistyped optional field reads as undefined, never throws. */

export type Raw = Record<string, unknown>

/** obj returns the value when it is a plain object. */
export function obj(v: unknown): Raw | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Raw) : undefined
}

/** arr returns the value when it is an array, else an empty one. */
export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : []
}

/** str returns the value when it is a string. */
export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined
}

/** num returns the value when it is a finite number. */
export function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined
}

/** bool returns the value when it is a boolean. */
export function bool(v: unknown): boolean | undefined {
  return typeof v === 'boolean' ? v : undefined
}

/** stringMap keeps the string-valued entries of an object (labels, annotations); `keep` filters keys. */
export function stringMap(v: unknown, keep?: (key: string) => boolean): Record<string, string> {
  const out: Record<string, string> = {}
  const o = obj(v)
  if (!o) return out
  for (const k in o) {
    const value = o[k]
    if (typeof value === 'string' && (!keep || keep(k))) out[k] = value
  }
  return out
}

/** defined copies the object without its undefined-valued keys (no `delete`: objects stay in fast mode). */
export function defined<T extends Raw>(o: T): T {
  const out: Raw = {}
  for (const k in o) if (o[k] !== undefined) out[k] = o[k]
  return out as T
}

/** describeObject names an object as `Kind namespace/name` for warnings. */
export function describeObject(o: unknown): string {
  const meta = obj(obj(o)?.metadata)
  const ns = str(meta?.namespace)
  const name = str(meta?.name) ?? '(unnamed)'
  return `${str(obj(o)?.kind) ?? 'object'} ${ns ? `${ns}/` : ''}${name}`
}

/** put sets `key` on `target` only when `value` is defined: `defined`'s result without the copy. */
export function put(target: Raw, key: string, value: unknown): void {
  if (value !== undefined) target[key] = value
}
