/**
 * Directories of partitions that left the table (TRUNCATE, DROP PARTITION, TTL, a rewrite) while
 * statements that started before may still read them. A retired partition ({@link FilePart.retire})
 * holds its directory instead of reading every column into memory first: once `_meta` no longer
 * names the directory it moves to the data directory's trash (one rename, see
 * `removeUnreferenced`), the retired partition reads it there, and it is removed when every
 * retired partition holding it has been garbage collected (no statement can read it any more).
 * The trash is emptied when the data directory is next opened, so a crash leaks nothing.
 */
import { io } from './io.js'

/** A held directory: how many retired partitions hold it, and where it moved (undefined: still in place). */
interface Held {
  count: number
  movedTo: string | undefined
}

const held = new Map<string, Held>()
const collected = new FinalizationRegistry<string>((dir) => release(dir))
/** the directories each owner holds, for {@link releaseDirs} */
const byOwner = new WeakMap<object, string[]>()

/** `owner` (a retired partition) may read directory `dir` (absolute) for as long as it lives. */
export function holdDir(dir: string, owner: object): void {
  const h = held.get(dir)
  if (h !== undefined) h.count++
  else held.set(dir, { count: 1, movedTo: undefined })
  const dirs = byOwner.get(owner)
  if (dirs !== undefined) dirs.push(dir)
  else byOwner.set(owner, [dir])
  // the owner is its own unregister token (held weakly): releaseDirs can take its holds back
  collected.register(owner, dir, owner)
}

/**
 * `owner` no longer holds the directories it held (a partition retired by a statement that then
 * failed is the table's again, and its directories are named by `_meta` as before).
 */
export function releaseDirs(owner: object): void {
  const dirs = byOwner.get(owner)
  if (dirs === undefined) return
  byOwner.delete(owner)
  collected.unregister(owner)
  for (const d of dirs) release(d)
}

function release(dir: string): void {
  const h = held.get(dir)
  if (h === undefined || --h.count > 0) return
  held.delete(dir)
  if (h.movedTo !== undefined) void io.rmLater(h.movedTo)
}

/** True when a retired partition may still read directory `dir`: it must move, not go. */
export function isHeld(dir: string): boolean {
  return held.has(dir)
}

/** Held directory `dir` moved to `to` (it is removed from there when no longer held). */
export function movedDir(dir: string, to: string): void {
  const h = held.get(dir)
  if (h !== undefined) h.movedTo = to
}

/** Where directory `dir` is now: where it moved while held, or where it was. */
export function whereNow(dir: string): string {
  return held.get(dir)?.movedTo ?? dir
}
