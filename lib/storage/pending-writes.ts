/**
 * The INSERTs of an open transaction, buffered until COMMIT. Rows are copied into growable
 * column buffers, one run per stretch of consecutive INSERTs into the same table, so a
 * transaction of a million single-row INSERTs holds a few typed arrays rather than a million
 * small vectors, and COMMIT appends each run at once (one WAL record, one merge).
 */
import type { Vector } from '../types/vector.js'
import { RowBuffer } from './column-buffer.js'
import type { Table, TableAppend } from './table.js'

interface Run {
  readonly table: Table
  readonly rows: RowBuffer
}

/** Buffered INSERTs, in order. */
export class PendingWrites {
  private runs: Run[] = []

  /** The tables rows are buffered for. */
  tables(): Set<Table> {
    return new Set(this.runs.map((r) => r.table))
  }

  /** Buffers rows for `table` (one vector per table column, as an append takes them). */
  add(table: Table, vectors: readonly Vector[], length: number): void {
    let run = this.runs[this.runs.length - 1]
    // a new run when the table changes (its columns cannot: DDL on it is refused until COMMIT)
    if (run === undefined || run.table !== table) {
      run = { table, rows: new RowBuffer(vectors.map((v, i) => ({ type: v.type, dict: table.dictOf(i) })), Math.max(16, length)) }
      this.runs.push(run)
    }
    run.rows.append(vectors, length)
  }

  /** Takes the buffered runs as appends, in order, and empties the buffer. */
  take(): TableAppend[] {
    const out = this.runs.map((r) => ({ table: r.table, vectors: r.rows.vectors(), length: r.rows.length }))
    this.runs = []
    return out
  }
}
