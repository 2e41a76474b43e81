/**
 * Verdict: the answer of one rule for one subject, including every "no". Decisions say what to
 * do; verdicts also say what was not done and why, for logs, `explain` and simulate.
 */
export type Verdict = {
  ruleId: string
  /** `node/<name>`, `pod/<ns>/<name>` or `zone/<key>`. */
  subject: string
  /** act: a decision is due now · wait: a decision with notBefore · hold: a brake held it back · none: nothing to do. */
  outcome: 'act' | 'wait' | 'hold' | 'none'
  reason: string
}

/** verdict builds a Verdict. */
export function verdict(ruleId: string, subject: string, outcome: Verdict['outcome'], reason: string): Verdict {
  return { ruleId, subject, outcome, reason }
}

/** secs renders milliseconds as whole seconds for reasons. */
export function secs(ms: number): number {
  return Math.floor(ms / 1000)
}
