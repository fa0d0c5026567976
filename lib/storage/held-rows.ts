/**
 * A table's in-memory rows as they are held — the frozen segments an out-of-order merge left
 * (table.ts), then the newest rows — read as one run of rows without joining them. A checkpoint
 * writes its partitions from this: a partition's rows that span segments are encoded a segment's
 * piece at a time, so the segments are never copied into one version first (that join was one
 * more copy of every in-memory row per checkpoint, on top of encoding them).
 */
import { type Vector, type SymbolTable } from '../types/vector.js'
import type { ColumnType } from '../types/column-type.js'
import { ColumnBuffer } from './column-buffer.js'
import type { TableData } from './table.js'

/** One column of {@link HeldRows}. */
export interface HeldColumn {
  readonly type: ColumnType
  readonly dict: SymbolTable | undefined
  /** rows [start, end) as views, one per segment they fall in (no copy) */
  pieces(start: number, end: number): Vector[]
  /** rows [start, end) as one vector: a view when they fall in one segment, otherwise a copy of just those rows */
  view(start: number, end: number): Vector
}

/** Segments of in-memory rows, in order, read as one. */
export class HeldRows {
  readonly rowCount: number
  readonly columns: readonly HeldColumn[]
  /** the table row each segment starts at, and the total at the end */
  private readonly starts: number[]

  constructor(readonly segments: readonly TableData[]) {
    const starts = [0]
    for (const d of segments) starts.push(starts[starts.length - 1]! + d.rowCount)
    this.starts = starts
    this.rowCount = starts[starts.length - 1]!
    const hot = segments[segments.length - 1]!
    this.columns = hot.columns.map((b, c) => ({
      type: b.type,
      dict: b.dict,
      pieces: (start: number, end: number) => this.pieces(c, start, end),
      view: (start: number, end: number) => {
        const ps = this.pieces(c, start, end)
        if (ps.length === 1) return ps[0]!
        // a buffer of exactly these rows (column memory, right-sized: kept as it is by compactVector)
        const out = new ColumnBuffer(b.type, end - start, b.dict)
        for (const p of ps) out.append(p)
        return out.view(0, end - start)
      },
    }))
  }

  /** Rows [start, end) of column `c`, a view per segment they fall in. */
  pieces(c: number, start: number, end: number): Vector[] {
    const out: Vector[] = []
    for (let s = 0; s < this.segments.length && start < end; s++) {
      const lo = this.starts[s]!, hi = this.starts[s + 1]!
      if (hi <= start || hi === lo) continue
      const to = Math.min(end, hi)
      out.push(this.segments[s]!.columns[c]!.view(start - lo, to - lo))
      start = to
    }
    if (out.length === 0) out.push(this.segments[this.segments.length - 1]!.columns[c]!.view(0, 0))
    return out
  }
}
