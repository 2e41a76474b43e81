import type { AlertKind, DecisionAction, Severity } from '../../shared/messages/index.ts'

/**
 * What the local stack reports while it runs: one event per thing a user would want to see, in
 * scenario time (`at`, the clock decide and write use). `npm start` prints them as timeline lines
 * or JSON lines; tests and the summary read the same events.
 */

export type StackEvent =
  | { kind: 'step'; at: string; action: string; detail: string }
  | { kind: 'view'; at: string; node: string; cause: string; pods: number }
  | {
      kind: 'decision'
      at: string
      id: string
      action: DecisionAction
      target: string
      reason: string
      notBefore?: string
    }
  | {
      kind: 'outcome'
      at: string
      decisionId: string
      action: DecisionAction
      target: string
      status: 'applied' | 'blocked' | 'skipped' | 'deferred'
      code: string
      reason: string
      dryRun: boolean
    }
  | {
      kind: 'k8s-event'
      at: string
      /** The Event's deterministic name. */
      name: string
      reason: string
      regarding: string
      note: string
      /** false in a dry run: the writer only logs the Event it would record. */
      recorded: boolean
    }
  | {
      kind: 'alert'
      at: string
      /** `receiver`: delivered to the local webhook receiver (signature checked); `queue`: printed from the alerts queue. */
      via: 'receiver' | 'queue'
      status: 'firing' | 'resolved'
      severity: Severity
      alertKind: AlertKind
      subject: string
      summary: string
      verified?: boolean
    }
  | { kind: 'dlq'; at: string; queue: string; messageId?: string; reason: string }
  | { kind: 'retry'; at: string; function: string; messageId: string; receiveCount: number; error?: string }
  | { kind: 'status'; at: string; counts: StackCounts }

export type StackEventKind = StackEvent['kind']

/** A StackEvent before it is stamped with the scenario time. */
export type StackEventInput = StackEvent extends infer E ? (E extends StackEvent ? Omit<E, 'at'> : never) : never

/** Running totals behind the periodic status line and the final summary. */
export type StackCounts = {
  views: number
  decisions: number
  applied: number
  blocked: number
  skipped: number
  alerts: number
  deadLettered: number
}

/** countEvents totals a list of stack events into StackCounts. */
export function countEvents(events: readonly StackEvent[]): StackCounts {
  const counts: StackCounts = { views: 0, decisions: 0, applied: 0, blocked: 0, skipped: 0, alerts: 0, deadLettered: 0 }
  for (const e of events) {
    if (e.kind === 'view') counts.views++
    else if (e.kind === 'decision') counts.decisions++
    else if (e.kind === 'outcome' && e.status !== 'deferred') counts[e.status]++
    else if (e.kind === 'alert') counts.alerts++
    else if (e.kind === 'dlq') counts.deadLettered++
  }
  return counts
}
