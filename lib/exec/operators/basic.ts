/**
 * The streaming operators: scan, table function, values, filter, project. Each is an async
 * generator of batches; none materializes its input.
 */
import { type Batch, type Vector, BATCH_SIZE, VectorWriter, gather, getScalar, materialize } from '../../types/vector.js'
import type { FilterNode, ProjectNode, ScanNode, TableFunctionNode, ValuesNode, BoundExpr } from '../../plan/plan-node.js'
import type { ExecContext } from '../context.js'
import { type Evaluator, compileExpr, evalRow, initRowStates, selection } from '../evaluate.js'
import type { Runner } from './runner.js'
import { type PartReader, type SnapshotPart, partMeets } from '../../storage/table-parts.js'
import type { TableSnapshot } from '../../storage/table.js'
import { indexedRows, keysOf } from '../../storage/symbol-index.js'
import { SqlError, SqlState } from '../../errors.js'
import { columnsOf, conjunctsOf } from '../../plan/optimize/walk.js'
import { nsScanBounds } from '../../types/timestamp-ns.js'

/**
 * The snapshot a scan reads: the table's rows now, under the metadata the scan was planned with.
 * A DDL statement between planning and the first read (a stream opened, then ALTER TABLE) makes
 * `columns` point at other columns: 40001, run the statement again.
 */
export function scanSnapshot(node: ScanNode): TableSnapshot {
  const snap = node.table.snapshot()
  if (node.meta !== undefined && snap.meta !== node.meta) {
    throw new SqlError(SqlState.SERIALIZATION_FAILURE, `table schema changed since the statement was planned [table=${snap.meta.name}]; run it again`)
  }
  return snap
}

/**
 * Reads a table snapshot in batches of at most {@link BATCH_SIZE} rows, part by part (a durable
 * table's partitions load their columns on first read, only the columns the scan reads); fixed-
 * width columns are views. With `intervals`, only the parts whose timestamp range meets them are
 * opened, and inside a part only the row ranges in them, found by binary search (rows are in
 * timestamp order). A part's columns stay held until the scan moves past it.
 */
export async function* runScan(node: ScanNode, ctx: ExecContext): AsyncGenerator<Batch> {
  const snap = scanSnapshot(node)
  const ti = node.intervals === undefined ? -1 : snap.meta.timestampIndex
  const keys = indexKeys(node)
  const rowIntervals = scanRowIntervals(node, snap)
  for (const part of snap.parts) {
    if (part.rows === 0 || (node.intervals !== undefined && !partMeets(part, node.intervals))) continue
    const rows = keys === undefined ? undefined : indexedPartRows(node, part, keys, ti, rowIntervals)
    if (rows !== undefined) {
      yield* indexedBatches(part, part.open(node.columns), node.columns.length, rows, ctx)
      continue
    }
    // a cold partition on disk: read just the rows in range when they are a small share of it
    const direct = node.intervals === undefined ? undefined : part.openRanges?.(node.columns, rowIntervals!)
    const ranges = direct?.ranges ?? (node.intervals === undefined ? [0, part.rows] : rowRanges(part.open([ti]).view(0, 0, part.rows), rowIntervals!))
    if (ranges.length === 0) continue
    const reader = direct?.reader ?? part.open(node.columns)
    const k = node.columns.length
    for (let r = 0; r < ranges.length; r += 2) {
      const to = ranges[r + 1]!
      for (let start = ranges[r]!; start < to; start += BATCH_SIZE) {
        const end = Math.min(start + BATCH_SIZE, to)
        const vectors: Vector[] = new Array(k)
        for (let c = 0; c < k; c++) vectors[c] = reader.view(c, start, end)
        yield { length: end - start, vectors }
        await ctx.maybeYield()
      }
    }
  }
}

/** The symbol keys an indexed scan reads (`node.symbolIndex`'s values in the column's dictionary), or undefined for a plain scan. */
export function indexKeys(node: ScanNode): number[] | undefined {
  if (node.symbolIndex === undefined) return undefined
  const dict = node.table.dictOf(node.symbolIndex.column)
  return dict === undefined ? undefined : keysOf((s) => dict.lookup(s), node.symbolIndex.values)
}

/** The scan's intervals as the timestamp column's units: a TIMESTAMP_NS column's rows are searched with covering nanosecond bounds. */
export function scanRowIntervals(node: ScanNode, snap: TableSnapshot): Float64Array | undefined {
  if (node.intervals === undefined) return undefined
  const ti = snap.meta.timestampIndex
  return ti >= 0 && snap.meta.columns[ti]?.type === 'TIMESTAMP_NS' ? nsScanBounds(node.intervals) : node.intervals
}

/**
 * The part-local rows (ascending) of an indexed scan in `part`: the index's rows of `keys`
 * inside the row ranges of the scan's intervals (found by binary search on the timestamp
 * column); undefined when the part has no index for the column (then it is scanned).
 */
export function indexedPartRows(node: ScanNode, part: SnapshotPart, keys: readonly number[], ti: number, rowIntervals: Float64Array | undefined): Int32Array | undefined {
  const postings = part.postings?.(node.symbolIndex!.column)
  if (postings === undefined) return undefined
  const ranges = rowIntervals === undefined ? [0, part.rows] : rowRanges(part.open([ti]).view(0, 0, part.rows), rowIntervals)
  return indexedRows(postings, keys, ranges)
}

/**
 * Whole-part sources of a reader's `k` columns for gathering by row number: fixed-width columns
 * as one view of the whole part (no copy); text and binary columns (whose views copy) undefined,
 * read row by row by {@link gatherPartRows}.
 */
export function wholeColumns(part: SnapshotPart, reader: PartReader, k: number): (Vector | undefined)[] {
  const whole: (Vector | undefined)[] = new Array(k)
  for (let c = 0; c < k; c++) {
    const probe = reader.view(c, 0, 0)
    whole[c] = probe.kind === 'str' || probe.kind === 'bin' ? undefined : reader.view(c, 0, part.rows)
  }
  return whole
}

/** Column `c` of a part at rows `rows` (part-local row numbers), `n` of them. */
export function gatherPartRows(whole: readonly (Vector | undefined)[], reader: PartReader, c: number, rows: Int32Array, n: number): Vector {
  const w = whole[c]
  if (w !== undefined) return gather(w, rows, n)
  const out = new VectorWriter(reader.view(c, 0, 0).type, n)
  for (let i = 0; i < n; i++) out.set(i, getScalar(reader.view(c, rows[i]!, rows[i]! + 1), 0))
  return out.finish()
}

/** The rows `rows` (ascending part-local row numbers) of a part, in batches. */
async function* indexedBatches(part: SnapshotPart, reader: PartReader, k: number, rows: Int32Array, ctx: ExecContext): AsyncGenerator<Batch> {
  if (rows.length === 0) return
  const whole = wholeColumns(part, reader, k)
  for (let from = 0; from < rows.length; from += BATCH_SIZE) {
    const sel = rows.subarray(from, Math.min(rows.length, from + BATCH_SIZE))
    const n = sel.length
    const vectors: Vector[] = new Array(k)
    for (let c = 0; c < k; c++) vectors[c] = gatherPartRows(whole, reader, c, sel, n)
    yield { length: n, vectors }
    await ctx.maybeYield()
  }
}

/** Row ranges [from, to) of a sorted timestamp vector that fall inside inclusive [lo, hi] pairs. */
export function rowRanges(ts: Vector, intervals: Float64Array): number[] {
  const d = ts.data as Float64Array | BigInt64Array
  const n = ts.length
  const at = (i: number) => Number(d[i]!)
  const lowerBound = (x: number) => {
    let lo = 0
    let hi = n
    while (lo < hi) { const mid = (lo + hi) >>> 1; if (at(mid) < x) lo = mid + 1; else hi = mid }
    return lo
  }
  const out: number[] = []
  for (let k = 0; k < intervals.length; k += 2) {
    const from = lowerBound(intervals[k]!)
    const hi = intervals[k + 1]!
    const to = hi === Infinity ? n : lowerBound(hi + 1)
    if (to > from) out.push(from, to)
  }
  return out
}

/** Runs a table function such as `long_sequence(n)`. */
export async function* runTableFunction(node: TableFunctionNode, ctx: ExecContext): AsyncGenerator<Batch> {
  // arguments not known when bound (a LATERAL row's slots): their values now
  const one: Batch = { length: 1, vectors: [] }
  const site = node.args === undefined ? node.site
    : { ...node.site, constants: node.site.constants.map((c, i) => (c !== undefined ? c : getScalar(compileExpr(node.args![i]!, ctx)(one), 0))) }
  for await (const b of node.def.open(site, ctx, { columns: node.columns, intervals: node.intervals })) {
    yield b
    await ctx.maybeYield()
  }
}

/** Constant rows. */
export async function* runValues(node: ValuesNode, ctx: ExecContext): AsyncGenerator<Batch> {
  const n = node.rows.length
  const one: Batch = { length: 1, vectors: [] }
  const writers = node.output.map((c) => new VectorWriter(c.type, n))
  for (let r = 0; r < n; r++) {
    const row = node.rows[r]!
    for (let c = 0; c < row.length; c++) {
      writers[c]!.set(r, getScalar(compileExpr(row[c]!, ctx)(one), 0))
    }
  }
  yield { length: n, vectors: writers.map((w) => w.finish()) }
}

/**
 * Keeps the rows for which the predicate is true; a batch that passes whole is forwarded as is.
 * A conjunction `a AND b AND ...` is evaluated left to right, each conjunct only on the rows the
 * ones before it kept (a row is kept when every conjunct is true, so NULL and false alike end it).
 */
export async function* runFilter(node: FilterNode, ctx: ExecContext, run: Runner): AsyncGenerator<Batch> {
  const pred = filterSelector(node.predicate, ctx)
  const keep = node.projection
  for await (const b of run(node.input, ctx)) {
    const { sel, count } = pred(b)
    if (count === 0) continue
    const vectors = keep === undefined ? b.vectors : keep.map((i) => b.vectors[i]!)
    if (count === b.length) { yield { length: count, vectors }; continue }
    yield { length: count, vectors: vectors.map((v) => gather(v, sel, count)) }
  }
}

/** The rows of a batch a predicate keeps. */
export type Selector = (b: Batch) => { sel: Int32Array; count: number }

/** The rows of each batch `predicate` keeps (a conjunction evaluates each conjunct on the rows the earlier ones kept). */
export function filterSelector(predicate: BoundExpr, ctx: ExecContext): Selector {
  const conjuncts = conjunctsOf(predicate)
  return conjuncts.length > 1 ? shortCircuitAnd(conjuncts, ctx) : selectionOf(compileExpr(predicate, ctx))
}

function selectionOf(pred: Evaluator): Selector {
  return (b) => selection(pred(b), b.length)
}

/**
 * The rows every conjunct keeps, each conjunct evaluated on the rows kept so far: the columns
 * the later conjuncts read are gathered down to those rows (the others are left out).
 */
function shortCircuitAnd(conjuncts: readonly BoundExpr[], ctx: ExecContext): Selector {
  const preds = conjuncts.map((c) => compileExpr(c, ctx))
  // columns read by conjuncts k.. (for the gather before conjunct k)
  const later: number[][] = conjuncts.map((_, k) => {
    const cols = new Set<number>()
    for (let j = k; j < conjuncts.length; j++) columnsOf(conjuncts[j]!, cols)
    return [...cols]
  })
  return (b) => {
    let cur = b
    let sel: Int32Array | undefined
    let count = b.length
    for (let k = 0; k < preds.length; k++) {
      if (k > 0 && sel !== undefined && cur.length !== count) {
        const vectors: Vector[] = new Array(b.vectors.length)
        for (const c of later[k]!) vectors[c] = gather(b.vectors[c]!, sel, count)
        cur = { length: count, vectors }
      }
      const r = selection(preds[k]!(cur), cur.length)
      if (r.count === 0) return r
      if (r.count === cur.length) continue
      if (sel === undefined) sel = r.sel
      else for (let i = 0; i < r.count; i++) sel[i] = sel[r.sel[i]!]!
      count = r.count
    }
    if (sel === undefined) return selection(TRUE_MASK, b.length)
    return { sel, count }
  }
}

const TRUE_MASK: Vector = { kind: 'bool', type: 'BOOLEAN', length: 1, data: Uint8Array.of(1), isConst: true } as Vector

/** Computes the select list. Several non-deterministic row functions (rnd_*) are evaluated row by row, left to right, as QuestDB does. */
export async function* runProject(node: ProjectNode, ctx: ExecContext, run: Runner): AsyncGenerator<Batch> {
  const interleaved = countRowRandom(node.exprs) > 1
  const states = interleaved ? new Map<BoundExpr, unknown>() : undefined
  // compiled on the first batch: a seeded long_sequence(n, s0, s1) resets the generator when it
  // opens, and rnd_* functions that draw in `init` (rnd_symbol's dictionary) must draw after that
  let evals: (Evaluator | undefined)[] | undefined
  for await (const b of run(node.input, ctx)) {
    if (evals === undefined) {
      evals = node.exprs.map((e) => {
        if (states !== undefined && hasRowRandom(e)) { initRowStates(e, ctx, states); return undefined }
        return compileExpr(e, ctx)
      })
    }
    const out: Vector[] = new Array(node.exprs.length)
    let writers: Map<number, VectorWriter> | undefined
    for (let k = 0; k < evals.length; k++) {
      const ev = evals[k]
      if (ev !== undefined) out[k] = materializeIfConst(ev(b))
      else (writers ??= new Map()).set(k, new VectorWriter(node.exprs[k]!.type, b.length))
    }
    if (writers !== undefined) {
      for (let i = 0; i < b.length; i++) {
        for (const [k, w] of writers) w.set(i, evalRow(node.exprs[k]!, b, i, ctx, states!))
      }
      for (const [k, w] of writers) out[k] = w.finish()
    }
    yield { length: b.length, vectors: out }
  }
}

function materializeIfConst(v: Vector): Vector {
  return v.isConst ? materialize(v) : v
}

function hasRowRandom(e: BoundExpr): boolean {
  if (e.kind === 'call') return (e.def.deterministic === false && e.def.family === 'rnd') || e.args.some(hasRowRandom)
  if (e.kind === 'cast') return hasRowRandom(e.expr)
  if (e.kind === 'case') return e.whens.some((w) => hasRowRandom(w.when) || hasRowRandom(w.then)) || hasRowRandom(e.else)
  return false
}

function countRowRandom(exprs: readonly BoundExpr[]): number {
  let n = 0
  for (const e of exprs) if (hasRowRandom(e)) n++
  return n
}
