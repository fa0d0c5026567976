/**
 * Reclaims the bytes an out-of-order merge's cut left behind (`FilePart.cut`): the first part of a
 * partition in parts keeps its directory's files as they were, holding also the rows after its
 * end, which the partition's next part (another directory) holds again. Until the checkpoint's
 * `_meta` replaces the one naming them, and while a statement of before holds the partition as it
 * was, those bytes are read. They are cut to the part's recorded rows when nothing can read them
 * any more: when the data directory is opened ({@link trimCutParts}), and by a later checkpoint
 * once the partition as it was before the cut has been collected ({@link trimSettledCuts}: its
 * directory is no longer held, retired-dirs.ts). The bytes past a part's rows are ignored by
 * readers anyway (after an interrupted append too). Array columns in layout 2 (a row's record then
 * its elements, array-codec.ts) are cut after the last row's elements; layout 1 files (every
 * row's header first) are left as they are: their first in-order append rewrites them.
 */
import type { PartitionEntry, TableFileMeta } from './table-files.js'
import { columnFileBytes, varDataEnd } from './table-files.js'
import { fixedWidth, isVarSize } from './column-codec.js'
import { type ColumnType, physicalOf } from '../../types/column-type.js'
import { ARR_FILE_MAGIC, arrRecordBytes, isArrFile2 } from './array-codec.js'
import { isHeld } from './retired-dirs.js'
import { io } from './io.js'

const TWO32 = 4294967296

/**
 * The partition entries of `m` (a table's `_meta`, in directory `tableDir`), a part followed by
 * another of the same partition with its column files cut to its rows and its `bytes` counted
 * again (the others as they are). Best effort: a file that cannot be read or cut stays as it is.
 */
export function trimCutParts(tableDir: string, m: TableFileMeta): PartitionEntry[] {
  return m.partitions.map((e, i) => {
    const next = m.partitions[i + 1]
    if (next === undefined || next.name !== e.name || next.lo !== e.lo) return e
    return trimEntry(tableDir, m.meta.columns, e)
  })
}

/**
 * A checkpoint's partition entries `entries` (about to be written as `_meta`), each part followed
 * by another of its partition cut to its rows when `inForce` (the `_meta` in force now) already
 * names its directory with the same rows (the cut is committed: a crash before the new `_meta`
 * finds the same rows) and no retired partition holds the directory any more (the partition as it
 * was before the cut has been collected). The others as they are. Only the bytes past the part's
 * rows go: its rows are not copied.
 */
export function trimSettledCuts(tableDir: string, columns: readonly { readonly type: ColumnType }[], inForce: TableFileMeta, entries: readonly PartitionEntry[]): PartitionEntry[] {
  // one pass each instead of a scan per entry (a table of thousands of partitions checkpoints often)
  const followed = new Set<number>()
  const later = new Set<string>()
  for (let i = entries.length - 1; i >= 0; i--) {
    const key = `${entries[i]!.name}\0${entries[i]!.lo}`
    if (later.has(key)) followed.add(i)
    else later.add(key)
  }
  const committed = new Set(inForce.partitions.map((p) => `${p.dir}\0${p.rows}`))
  return entries.map((e, i) => {
    if (!followed.has(i)) return e
    if (!committed.has(`${e.dir}\0${e.rows}`)) return e
    const path = `${tableDir}/${e.dir}`
    if (isHeld(path) || (e.files ?? []).some((f) => isHeld(`${path}/${f}`))) return e
    return trimEntry(tableDir, columns, e, false)
  })
}

/** Entry `e` of directory `tableDir` with its column files cut to its rows and its `bytes` counted again (as it is when nothing was cut). */
function trimEntry(tableDir: string, columns: readonly { readonly name?: string; readonly type: ColumnType }[], e: PartitionEntry, sync = true): PartitionEntry {
  if (e.format === 'parquet' || e.parquetFrom !== undefined) return e
  const path = `${tableDir}/${e.dir}`
  const names = e.files ?? columns.map((c) => c.name ?? '')
  let trimmed = false
  names.forEach((name, c) => {
    const type = columns[c]?.type
    if (type === undefined || name === '') return
    const base = `${path}/${name}`
    try {
      if (isVarSize(type)) {
        if (physicalOf(type) === 'arr') {
          const end = arrDataEnd(base, type, e.rows)
          if (end === undefined) return
          trimmed = cutTo(`${base}.o`, e.rows * 8, sync) || trimmed
          trimmed = cutTo(`${base}.d`, end, sync) || trimmed
          return
        }
        const end = varDataEnd(base, e.rows)
        trimmed = cutTo(`${base}.o`, e.rows * 8, sync) || trimmed
        trimmed = cutTo(`${base}.d`, end, sync) || trimmed
      } else {
        const w = fixedWidth(type)
        if (w > 0) trimmed = cutTo(`${base}.d`, e.rows * w, sync) || trimmed
      }
    } catch { /* left as it is: readers ignore the bytes past the rows */ }
  })
  if (!trimmed) return e
  let bytes = 0
  for (const name of names) bytes += columnFileBytes(path, name)
  return { ...e, bytes }
}

/**
 * Where the first `rows` rows of an array column's data file `<base>.d` end (layout 2: the last
 * row's record, then its elements), or undefined for a file in layout 1 (not cut).
 */
function arrDataEnd(base: string, type: ColumnType, rows: number): number | undefined {
  const b = Buffer.alloc(Math.max(8, arrRecordBytes(type)))
  const read = (file: string, at: number, n: number): void => {
    const fd = io.openSync(file, 'r')
    try { if (io.readSync(fd, b.subarray(0, n), at) !== n) throw new RangeError(`${file} is shorter than its rows`) } finally { io.closeSync(fd) }
  }
  read(`${base}.d`, 0, ARR_FILE_MAGIC.length)
  if (!isArrFile2(b.subarray(0, ARR_FILE_MAGIC.length))) return undefined
  if (rows === 0) return ARR_FILE_MAGIC.length
  read(`${base}.o`, (rows - 1) * 8, 8)
  const last = b.readUInt32LE(0) + b.readInt32LE(4) * TWO32
  read(`${base}.d`, last, 4)
  return last + arrRecordBytes(type) + Math.max(0, b.readInt32LE(0)) * 8
}

/**
 * Cuts file `file` to `size` bytes when it is longer; true when it was cut. `sync`: fsync'ed (at
 * open); a checkpoint does not wait for it: a crash before the cut is durable leaves the bytes,
 * which readers ignore.
 */
function cutTo(file: string, size: number, sync = true): boolean {
  if (io.statSize(file) <= size) return false
  const fd = io.openSync(file, 'r+')
  try {
    io.ftruncateSync(fd, size)
    if (sync) io.fsyncSync(fd)
  } finally {
    io.closeSync(fd)
  }
  return true
}
