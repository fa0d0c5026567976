/**
 * The default wall clock, to the nanosecond: a monotonic high-resolution counter
 * (`process.hrtime.bigint()`, or `performance.now()` where there is no `process`) anchored once
 * to `Date.now()`. `now()` / `systimestamp()` read it in microseconds, `now_ns()` /
 * `systimestamp_ns()` in nanoseconds, so both have their unit's resolution instead of
 * `Date.now()`'s millisecond. (Like QuestDB's clock it does not follow later jumps of the
 * system time; a process restart re-anchors it.)
 *
 * Browser-safe: reads `process` only when it exists.
 */

type Counter = () => bigint

const hrtime = (globalThis as { process?: { hrtime?: { bigint?: () => bigint } } }).process?.hrtime?.bigint
/** nanoseconds of a monotonic counter with an arbitrary origin */
const counter: Counter = typeof hrtime === 'function'
  ? () => hrtime()
  : () => BigInt(Math.round(performance.now() * 1e6))

/** the wall time, in nanoseconds, when the counter read `counterAtAnchor` */
let anchorWall: bigint | undefined
let counterAtAnchor = 0n

/** Nanoseconds since the epoch, from the anchored high-resolution counter. */
export function wallClockNanos(): bigint {
  if (anchorWall === undefined) {
    counterAtAnchor = counter()
    anchorWall = BigInt(Date.now()) * 1_000_000n
  }
  return anchorWall + (counter() - counterAtAnchor)
}

/** Microseconds since the epoch (whole), from {@link wallClockNanos}. */
export function wallClockMicros(): number {
  return Number(wallClockNanos() / 1000n)
}

/**
 * A nanosecond clock that agrees with a microsecond one: the default clock's nanoseconds when
 * `micros` is the default, else `micros()` widened (its fraction, if any, gives the sub-microsecond
 * digits), so an injected clock keeps `now_ns()` deterministic.
 */
export function nanoClockOf(micros: (() => number) | undefined): () => bigint {
  if (micros === undefined) return wallClockNanos
  return () => {
    const us = micros()
    const whole = Math.floor(us)
    return BigInt(whole) * 1000n + BigInt(Math.min(999, Math.floor((us - whole) * 1000)))
  }
}
