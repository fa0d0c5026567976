/**
 * Unkeyed `count()` / `count(x)` over a whole table answered from what its parts know (as DuckDB
 * answers from its null statistics): a checkpointed partition records the non-null values of each
 * column file it was written with (`PartitionEntry.nonNull`, storage/durable/table-files.ts), and a
 * column added after a partition was written has none in it. A Parquet partition answers from its
 * file's row-group statistics (`num_values`, `null_count`: parquet/null-stats.ts). In-memory rows
 * (not checkpointed yet, or moved back to memory by an out-of-order commit) keep the count a
 * statement took of them in their column buffers ({@link ColumnBuffer.countNonNull}: rows are only
 * appended), so a part counts only the rows appended since, once: the first statement after a
 * large append (or after an out-of-order merge or UPDATE gave the part new buffers) reads the new
 * rows on this thread, every later one answers at once.
 * Checkpointed parts that know nothing (a column UPDATE rewrote, the first rows of a partition an
 * out-of-order merge cut) have the column read and its nulls counted, as the ordinary aggregation
 * would.
 *
 * Taken only for an aggregation whose every aggregate is `count()` or `count(column)` straight
 * over a table scan without a filter, interval or index; and only when the in-memory parts and
 * the parts that know their counts hold at least as many rows as the checkpointed parts to read
 * (whose reading is not kept), so a table mostly of such parts keeps the ordinary (parallel) path.
 */
import { BATCH_SIZE, type Batch } from '../../types/vector.js'
import type { AggregateNode, ScanNode } from '../../plan/plan-node.js'
import type { ExecContext } from '../context.js'
import { nullsOf } from '../../types/null-count.js'
import { scanSnapshot } from './basic.js'
import type { ColumnBuffer } from '../../storage/column-buffer.js'

/** How many parts answered from their recorded counts and how many were read (tests look; never reset by the engine). */
export const COUNT_STATS = { partsKnown: 0, partsRead: 0 }

/** The table columns counted by each aggregate of `node` over `scan` (-1: `count()`), or undefined when not all are counts of plain columns. */
function countedColumns(node: AggregateNode, scan: ScanNode): number[] | undefined {
  if (node.keys.length > 0 || scan.intervals !== undefined || scan.symbolIndex !== undefined) return undefined
  const cols: number[] = []
  for (const a of node.aggregates) {
    if (a.def.name !== 'count') return undefined
    if (a.args.length === 0) { cols.push(-1); continue }
    const e = a.args[0]!
    if (a.args.length !== 1 || e.kind !== 'column') return undefined
    const c = scan.columns[e.index]
    if (c === undefined) return undefined
    cols.push(c)
  }
  // count() alone reads no column anyway
  return cols.some((c) => c >= 0) ? cols : undefined
}

/**
 * The one row of `node` (an unkeyed aggregation over `scan`) from the parts' recorded non-null
 * counts, reading only the columns of parts that have none; undefined when the aggregation is not
 * of that shape or too few rows are known (then it runs as usual).
 */
export async function countsFromStats(node: AggregateNode, scan: ScanNode, ctx: ExecContext): Promise<Batch | undefined> {
  const cols = countedColumns(node, scan)
  if (cols === undefined) return undefined
  const snap = scanSnapshot(scan)
  const known = snap.parts.map((p) => cols.map((c) => (c < 0 ? p.rows : p.nonNull?.(c))))
  // in-memory rows weigh as known: the count taken of them now is kept, so they are read once, not per statement
  let knownRows = 0, readRows = 0
  snap.parts.forEach((p, i) => { if (p.countNonNull !== undefined || known[i]!.every((n) => n !== undefined)) knownRows += p.rows; else readRows += p.rows })
  if (knownRows === 0 || readRows > knownRows) return undefined
  const totals = new Float64Array(cols.length)
  for (let i = 0; i < snap.parts.length; i++) {
    const part = snap.parts[i]!
    const k = known[i]!
    if (part.rows === 0) continue
    const missing = [...new Set(cols.filter((_, a) => k[a] === undefined))]
    if (missing.length === 0) COUNT_STATS.partsKnown++
    else {
      COUNT_STATS.partsRead++
      const reader = part.open(missing)
      const nonNull = new Map<number, number>()
      for (let j = 0; j < missing.length; j++) {
        if (part.countNonNull !== undefined) {
          // in-memory rows: counted a batch per turn, and the count kept, so the next statement counts only rows appended since
          let n: number | undefined
          while ((n = part.countNonNull(missing[j]!, BATCH_SIZE)) === undefined) await ctx.maybeYield()
          nonNull.set(missing[j]!, n)
          continue
        }
        let nulls = 0
        for (let start = 0; start < part.rows; start += BATCH_SIZE) {
          const end = Math.min(start + BATCH_SIZE, part.rows)
          nulls += nullsOf(reader.view(j, start, end), end - start)
          await ctx.maybeYield()
        }
        nonNull.set(missing[j]!, part.rows - nulls)
      }
      cols.forEach((c, a) => { if (k[a] === undefined) k[a] = nonNull.get(c)! })
    }
    k.forEach((n, a) => { totals[a] = totals[a]! + n! })
  }
  return { length: 1, vectors: cols.map((_, a) => ({ kind: 'i64', type: 'LONG', length: 1, data: totals.subarray(a, a + 1) })) }
}
