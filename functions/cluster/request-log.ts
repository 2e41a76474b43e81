/** A bounded log of the requests the emulator served, for tests to assert on. */

export type RequestRecord = {
  at: string
  method: string
  path: string
  query: Record<string, string>
  /** `pods`, `nodes/status`, `pods/eviction`, or the raw path for non-resource URLs. */
  resource: string
  verb: string
  namespace?: string
  name?: string
  contentType?: string
  status: number
  /** the request body as parsed JSON, when it was JSON. */
  body?: unknown
  userAgent?: string
}

/** RequestLog keeps the newest `limit` requests. */
export class RequestLog {
  private records: RequestRecord[] = []
  constructor(private readonly limit = 10_000) {}

  /** add appends one record, dropping the oldest beyond the limit. */
  add(record: RequestRecord): void {
    this.records.push(record)
    if (this.records.length > this.limit) this.records.splice(0, this.records.length - this.limit)
  }
  /** all returns every kept record, oldest first. */
  all(): RequestRecord[] {
    return [...this.records]
  }
  /** filter returns the records matching every given field. */
  filter(match: Partial<Pick<RequestRecord, 'method' | 'resource' | 'verb' | 'namespace' | 'name' | 'status'>>) {
    return this.records.filter((r) => Object.entries(match).every(([k, v]) => (r as Record<string, unknown>)[k] === v))
  }
  /** clear forgets everything. */
  clear(): void {
    this.records = []
  }
}
