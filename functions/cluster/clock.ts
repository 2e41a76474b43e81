/**
 * The emulator's clock: real time by default, or virtual time that runs `speed` times faster than
 * real time and can jump forward (`advance`), so graceful deletions, heartbeats and scenario steps
 * fire on virtual time.
 */

export type EmulatorClock = {
  now: () => Date
  /** speed sets how many virtual ms pass per real ms from now on (1 = real time). */
  setSpeed: (speed: number) => void
  /** advance jumps virtual time forward by `ms`. */
  advance: (ms: number) => void
  readonly speed: number
}

/** createClock returns a clock starting at `base()` that follows real time at speed 1 until told otherwise. */
export function createClock(base: () => Date = () => new Date(), realNow: () => number = () => performance.now()) {
  let anchorVirtual = base().getTime()
  let anchorReal = realNow()
  let speed = 1
  let pinned = false
  const current = () => anchorVirtual + (pinned ? 0 : (realNow() - anchorReal) * speed)
  const clock: EmulatorClock = {
    now: () => new Date(current()),
    setSpeed: (next: number) => {
      anchorVirtual = current()
      anchorReal = realNow()
      pinned = next === 0
      speed = next
    },
    advance: (ms: number) => {
      anchorVirtual = current() + ms
      anchorReal = realNow()
    },
    get speed() {
      return speed
    },
  }
  return clock
}
