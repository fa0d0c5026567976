/**
 * Reading only the rows a query needs from a cold partition. When a scan's timestamp intervals
 * select a small share of a partition that is not in memory, the designated-timestamp file is
 * binary-searched with 8-byte positioned reads, and only the selected row ranges of the needed
 * columns are read and decoded. Nothing read this way enters the partition cache: a one-hour
 * query out of a day reads ~1/24 of the day's bytes instead of whole columns.
 *
 * Fixed-width columns only (var-size columns fall back to the whole-column path).
 */
import { internalError } from '../../errors.js'
import * as fs from 'node:fs'
import type { SymbolTable, Vector } from '../../types/vector.js'
import type { ColumnType } from '../../types/column-type.js'
import { sliceVector } from '../../types/vector.js'
import type { PartReader } from '../table-parts.js'
import { decodeFixed, fixedWidth, isVarSize } from './column-codec.js'
import { STORAGE_STATS } from './part-cache.js'

/** Use range reads when the selected rows are at most this share of the partition. */
export const RANGE_READ_MAX_SHARE = 1 / 8

/** What a range read needs to know about the partition. */
export interface RangeSource {
  /** `<tableDir>/<partition dir>` */
  readonly dir: string
  readonly rows: number
  readonly columns: readonly { readonly name: string; readonly type: ColumnType }[]
  readonly timestampIndex: number
  dict(c: number): SymbolTable | undefined
}

/** Reads int64 row `r` of an open fixed-width file. */
function int64At(fd: number, r: number, scratch: Buffer): number {
  fs.readSync(fd, scratch, 0, 8, r * 8)
  const lo = scratch.readUInt32LE(0)
  const hi = scratch.readInt32LE(4)
  return hi * 4294967296 + lo
}

/** First row in [0, rows) whose timestamp is >= x (rows are in timestamp order). */
function lowerBound(fd: number, rows: number, x: number, scratch: Buffer): number {
  let lo = 0
  let hi = rows
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (int64At(fd, mid, scratch) < x) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * The first row in [0, rows) of the int64 timestamp file `file` whose value, read as a double, is
 * at least `x` (nanosecond values are then rounded: callers search below the value they mean).
 */
export function firstRowAtLeast(file: string, rows: number, x: number): number {
  const fd = fs.openSync(file, 'r')
  try { return lowerBound(fd, rows, x, Buffer.alloc(8)) } finally { fs.closeSync(fd) }
}

/**
 * Row ranges of the partition inside inclusive [lo, hi] `intervals`, and a reader of `columns`
 * over just those rows; undefined when a column is var-size or the ranges are too large a share.
 */
export function readRanges(src: RangeSource, columns: readonly number[], intervals: Float64Array): { ranges: number[]; reader: PartReader } | undefined {
  if (columns.some((c) => isVarSize(src.columns[c]!.type))) return undefined
  const tsFile = `${src.dir}/${src.columns[src.timestampIndex]!.name}.d`
  const scratch = Buffer.alloc(8)
  const ranges: number[] = []
  let fd: number
  try { fd = fs.openSync(tsFile, 'r') } catch { return undefined }
  try {
    for (let k = 0; k < intervals.length; k += 2) {
      const from = intervals[k]! === -Infinity ? 0 : lowerBound(fd, src.rows, intervals[k]!, scratch)
      const to = intervals[k + 1]! === Infinity ? src.rows : lowerBound(fd, src.rows, intervals[k + 1]! + 1, scratch)
      if (to > from) ranges.push(from, to)
    }
  } finally {
    fs.closeSync(fd)
  }
  let selected = 0
  for (let k = 0; k < ranges.length; k += 2) selected += ranges[k + 1]! - ranges[k]!
  if (selected > src.rows * RANGE_READ_MAX_SHARE) return undefined
  // a file too short: let the whole-column path report the corruption (a longer one holds an interrupted append past the rows)
  for (const c of columns) {
    const col = src.columns[c]!
    try { if (fs.statSync(`${src.dir}/${col.name}.d`).size < src.rows * fixedWidth(col.type)) return undefined } catch { return undefined }
  }
  // per range, per column: the decoded rows
  const pieces: Vector[][] = []
  for (let k = 0; k < ranges.length; k += 2) {
    const from = ranges[k]!
    const n = ranges[k + 1]! - from
    pieces.push(columns.map((c) => {
      const col = src.columns[c]!
      const w = fixedWidth(col.type)
      const bytes = Buffer.alloc(n * w)
      const cfd = fs.openSync(`${src.dir}/${col.name}.d`, 'r')
      try { fs.readSync(cfd, bytes, 0, n * w, from * w) } finally { fs.closeSync(cfd) }
      STORAGE_STATS.bytesLoaded += n * w
      return decodeFixed(col.type, bytes, n, src.dict(c))
    }))
  }
  const reader: PartReader = {
    view: (k, start, end) => {
      for (let r = 0; r < ranges.length; r += 2) {
        const from = ranges[r]!
        if (start >= from && end <= ranges[r + 1]!) return sliceVector(pieces[r / 2]![k]!, start - from, end - from)
      }
      throw internalError(`rows [${start}, ${end}) are outside the ranges read`)
    },
  }
  return { ranges, reader }
}
