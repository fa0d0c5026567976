/**
 * The INSERTs of an open transaction, buffered until COMMIT. Rows are copied into growable
 * column buffers, one run per stretch of consecutive INSERTs into the same table, so a
 * transaction of a million single-row INSERTs holds a few typed arrays rather than a million
 * small vectors, and COMMIT appends each run at once (one WAL record, one merge).
 */
import type { Vector } from '../types/vector.js'
import { ColumnBuffer } from './column-buffer.js'
import type { Table, TableAppend } from './table.js'

interface Run {
  readonly table: Table
  readonly columns: ColumnBuffer[]
  length: number
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
      run = { table, columns: vectors.map((v, i) => new ColumnBuffer(v.type, Math.max(16, length), table.dictOf(i))), length: 0 }
      this.runs.push(run)
    }
    for (let c = 0; c < vectors.length; c++) run.columns[c]!.append(vectors[c]!)
    run.length += length
  }

  /** Takes the buffered runs as appends, in order, and empties the buffer. */
  take(): TableAppend[] {
    const out = this.runs.map((r) => ({ table: r.table, vectors: r.columns.map((b) => b.view(0, r.length)), length: r.length }))
    this.runs = []
    return out
  }
}
