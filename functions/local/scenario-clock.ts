/**
 * The clock the local stack runs on. Against the emulator it is the emulator's (virtual) clock,
 * `speed` scenario seconds per real second; against a real cluster it is real time at speed 1.
 * Everything that waits in scenario time (SQS delays for `notBefore`, visibility timeouts, the
 * watcher's resync) is shortened by the same factor, so a 10-minute rule fires after 20 real
 * seconds at speed 30 and the decisions still carry scenario timestamps.
 */
export type ScenarioClock = {
  now: () => Date
  /** Scenario seconds per real second (1 = real time). */
  speed: number
}

/** toRealSeconds turns a wait in scenario seconds into whole real seconds (never 0 for a positive wait). */
export function toRealSeconds(clock: ScenarioClock, scenarioSeconds: number): number {
  if (scenarioSeconds <= 0) return 0
  return Math.max(1, Math.ceil(scenarioSeconds / clock.speed))
}

/** toRealMs turns a wait in scenario milliseconds into real milliseconds (at least 1). */
export function toRealMs(clock: ScenarioClock, scenarioMs: number): number {
  return Math.max(1, Math.round(scenarioMs / clock.speed))
}

/** realClock is real time at speed 1 (the `--kubeconfig` mode). */
export const realClock: ScenarioClock = { now: () => new Date(), speed: 1 }

/** sleepUntil waits on real timers until `clock` reads `at` or later, or `signal` aborts. */
export async function sleepUntil(clock: ScenarioClock, at: Date, signal?: AbortSignal): Promise<void> {
  while (!signal?.aborted) {
    const left = at.getTime() - clock.now().getTime()
    if (left <= 0) return
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, Math.min(toRealMs(clock, left), 250))
      function done() {
        clearTimeout(timer)
        signal?.removeEventListener('abort', done)
        resolve()
      }
      signal?.addEventListener('abort', done)
    })
  }
}
