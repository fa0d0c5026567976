/**
 * LATEST ON ts PARTITION BY keys: the newest row per key, emitted in timestamp order.
 *
 * Over a table scan (optionally filtered) in designated-timestamp order it is a **backward scan**
 * of the statement's table snapshot: batches are read from the end, the first row met for each
 * key is its latest, and the scan stops once every key is found. A single SYMBOL key is tracked
 * by its symbol int id, and "every key" is every symbol of the column's dictionary; the null key
 * is then looked up with one native `lastIndexOf` over the rest of the column (when there is no
 * filter). Other keys cannot know their key count, so they read the whole snapshot (backwards).
 *
 * A scan narrowed to timestamp intervals (`WHERE ts IN '2024-01-02'`, `ts > dateadd('d', -1,
 * now())`) is read backward the same way, as QuestDB does: from the end of the newest interval,
 * part by part (the parts outside the intervals are never opened), only the row ranges inside the
 * intervals, stopping once every key is found.
 *
 * Any other input takes a **forward pass** that keeps, per key, the row with the greatest
 * timestamp (ties: the later row) and finally sorts the winners by (timestamp, arrival).
 */
import { BATCH_SIZE, type Batch, type Vector, gather } from '../../types/vector.js'
import type { BoundExpr, LatestOnNode, PlanNode, ScanNode } from '../../plan/plan-node.js'
import type { ExecContext } from '../context.js'
import { type Evaluator, compileExpr, selection } from '../evaluate.js'
import { type PartReader, type SnapshotPart, partMeets } from '../../storage/table-parts.js'
import { concatBatches, emit } from './sort.js'
import { KeyIndex } from '../keys/key-index.js'
import { gatherParts, nsRemaindersOf, timestampsOf } from './time-join-rows.js'
import type { Runner } from './runner.js'
import { rowRanges, scanRowIntervals, scanSnapshot } from './basic.js'
import { latestFromIndex } from './latest-on-index.js'
import { MAP_ENTRY_BYTES, type Reservation, batchBytes } from '../memory.js'

/** Estimated bytes per key of a key index (map entry, key text or number) and of the per-key arrays. */
const KEY_BYTES = MAP_ENTRY_BYTES + 48 + 40

/** Counters for tests (process-wide): what backward LATEST ON scans read. */
export const LATEST_ON_STATS = {
  /** parts (partitions) a backward scan opened */
  parts: 0,
  /** rows a backward scan read */
  rows: 0,
}

/** Runs a LATEST ON node. */
export async function* runLatestOn(node: LatestOnNode, ctx: ExecContext, run: Runner): AsyncGenerator<Batch> {
  const scan = node.ordered ? scanUnderFilters(node.input) : undefined
  const mem = ctx.memory.reservation('LATEST ON')
  const ranges = scan === undefined ? undefined : new BackwardRanges(scan.scan, node.symbolIndex === undefined)
  const indexed = node.symbolIndex !== undefined && scan !== undefined ? latestFromIndex(node, scan.scan, node.symbolIndex, ranges!) : undefined
  if (indexed !== undefined) mem.grow(batchBytes(indexed))
  const rows = indexed ?? (scan === undefined ? await forward(node, ctx, run, mem) : await backward(node, scan.scan, ranges!, scan.predicates, ctx, mem))
  yield* emit(rows, ctx)
  mem.close()
}

/** Part-local rows [from, to) of part `pi`, read with `reader` (which loads columns on its first read). */
export interface BackwardRange {
  readonly pi: number
  readonly part: SnapshotPart
  readonly reader: PartReader
  readonly from: number
  readonly to: number
}

/**
 * The row ranges a backward LATEST ON reads, newest first: each part whole, or with the scan's
 * intervals only the parts that meet them and in those the ranges inside them (binary search on
 * the timestamp column, or a cold partition's range read). Parts are opened on demand, so a scan
 * that stops early never opens the older ones. `rangeReads`: a cold partition may read just the
 * rows of its ranges (false when only the symbol index is looked up, which reads no rows).
 */
export class BackwardRanges {
  private readonly done: BackwardRange[] = []
  private readonly parts: readonly SnapshotPart[]
  private readonly rowIntervals: Float64Array | undefined
  private readonly ti: number
  private next: number

  constructor(private readonly scan: ScanNode, private readonly rangeReads: boolean) {
    const snap = scanSnapshot(scan)
    this.parts = snap.parts
    this.rowIntervals = scanRowIntervals(scan, snap)
    this.ti = snap.meta.timestampIndex
    this.next = this.parts.length - 1
  }

  /** The `i`-th range from the end, or undefined past the first. */
  at(i: number): BackwardRange | undefined {
    while (this.done.length <= i && this.next >= 0) this.load(this.next--)
    return this.done[i]
  }

  private load(pi: number): void {
    const part = this.parts[pi]!
    const { columns, intervals } = this.scan
    if (part.rows === 0 || (intervals !== undefined && !partMeets(part, intervals))) return
    if (this.rowIntervals === undefined) {
      LATEST_ON_STATS.parts++
      this.done.push({ pi, part, reader: lazyReader(part, columns), from: 0, to: part.rows })
      return
    }
    const direct = this.rangeReads ? part.openRanges?.(columns, this.rowIntervals) : undefined
    const ranges = direct?.ranges ?? rowRanges(part.open([this.ti]).view(0, 0, part.rows), this.rowIntervals)
    if (ranges.length === 0) return
    LATEST_ON_STATS.parts++
    const reader = direct?.reader ?? lazyReader(part, columns)
    for (let r = ranges.length - 2; r >= 0; r -= 2) this.done.push({ pi, part, reader, from: ranges[r]!, to: ranges[r + 1]! })
  }
}

/** The scan below a chain of filters, with the filters' predicates (innermost first). */
function scanUnderFilters(n: PlanNode): { scan: ScanNode; predicates: BoundExpr[] } | undefined {
  const predicates: BoundExpr[] = []
  let cur = n
  while (cur.kind === 'filter') { predicates.unshift(cur.predicate); cur = cur.input }
  return cur.kind === 'scan' ? { scan: cur, predicates } : undefined
}

/** A reader of `columns` of `part` that opens the part on its first read. */
function lazyReader(part: SnapshotPart, columns: readonly number[]): PartReader {
  let reader: PartReader | undefined
  return { view: (k, start, end) => (reader ??= part.open(columns)).view(k, start, end) }
}

/** Backward scan of the snapshot; returns the latest row per key in table order. */
async function backward(node: LatestOnNode, scan: ScanNode, ranges: BackwardRanges, predicates: readonly BoundExpr[], ctx: ExecContext, mem: Reservation): Promise<Batch> {
  const dicts = scan.output.map((o) => o.dict)
  const preds = predicates.map((p) => compileExpr(p, ctx))
  const keyEvals = node.partitionBy.map((k) => compileExpr(k, ctx))
  const k0 = node.partitionBy[0]
  const symCol = node.partitionBy.length === 1 && k0!.kind === 'column' && dicts[k0.index] !== undefined ? k0.index : -1
  const dictSize = symCol >= 0 ? dicts[symCol]!.size : 0
  const index = new KeyIndex(node.partitionBy.length, false)
  let seen = new Uint8Array(symCol >= 0 ? dictSize + 1 : 64)
  let ids = new Int32Array(0)
  let found = 0
  let nullFound = false
  let gaveUp = false
  const out: Batch[] = []
  let si = 0
  let seg = ranges.at(0)
  let end = seg?.to ?? 0
  while (seg !== undefined) {
    if (end <= seg.from) {
      seg = ranges.at(++si)
      end = seg?.to ?? 0
      continue
    }
    const start = Math.max(seg.from, end - BATCH_SIZE)
    const rd = seg.reader
    let b: Batch = { length: end - start, vectors: scan.columns.map((_, k) => rd.view(k, start, end)) }
    LATEST_ON_STATS.rows += end - start
    end = start
    for (const p of preds) {
      const { sel, count } = selection(p(b), b.length)
      if (count < b.length) b = { length: count, vectors: b.vectors.map((v) => gather(v, sel, count)) }
      if (count === 0) break
    }
    if (b.length === 0) continue
    const sel = new Int32Array(b.length)
    let n = 0
    if (symCol >= 0) {
      const d = b.vectors[symCol]!.data as Int32Array
      for (let i = b.length - 1; i >= 0; i--) {
        const k = d[i]! + 1
        if (seen[k] === 1) continue
        seen[k] = 1
        sel[n++] = i
        if (k === 0) nullFound = true
        else found++
      }
    } else {
      if (ids.length < b.length) ids = new Int32Array(b.length)
      index.assign(keyEvals.map((e) => e(b)), b.length, ids)
      if (seen.length < index.count) { const s = new Uint8Array(index.count * 2); s.set(seen); seen = s }
      for (let i = b.length - 1; i >= 0; i--) {
        const g = ids[i]!
        if (seen[g] === 1) continue
        seen[g] = 1
        sel[n++] = i
      }
    }
    if (n > 0) {
      const kept = pick(b, sel.subarray(0, n).reverse(), n)
      mem.grow(batchBytes(kept) + (symCol >= 0 ? 0 : n * KEY_BYTES))
      out.push(kept)
    }
    if (symCol >= 0 && found === dictSize) {
      if (nullFound) break
      if (!gaveUp) {
        const r = latestNullRow(ranges, si, end, scan.columns, symCol, preds)
        if (r !== undefined) {
          if (r !== null) out.push(r)
          break
        }
        gaveUp = true // many null rows fail the filter: keep scanning batches
      }
    }
    await ctx.maybeYield()
  }
  mem.grow(mem.bytes)
  return concatBatches(out.reverse(), node.output)
}

/** Null probes tried before falling back to scanning batches. */
const MAX_NULL_PROBES = 64

/**
 * The last row before row `end` of range `si` (older ranges included) whose symbol is null and
 * that passes the filters, found with native `lastIndexOf` probes over the symbol column only;
 * null when there is none, undefined when probing gave up.
 */
function latestNullRow(ranges: BackwardRanges, si: number, end: number, columns: readonly number[], symCol: number, preds: readonly Evaluator[]): Batch | null | undefined {
  let probes = 0
  for (let s = si, seg = ranges.at(s); seg !== undefined; seg = ranges.at(++s)) {
    const rd = seg.reader
    const lo = seg.from
    let hi = s === si ? end : seg.to
    if (hi <= lo) continue
    const syms = rd.view(symCol, lo, hi).data as Int32Array
    while (probes++ < MAX_NULL_PROBES) {
      const r = hi === lo ? -1 : syms.lastIndexOf(-1, hi - lo - 1)
      if (r < 0) break
      const row = lo + r
      const one: Batch = { length: 1, vectors: columns.map((_, k) => rd.view(k, row, row + 1)) }
      if (preds.every((f) => selection(f(one), 1).count === 1)) return one
      hi = row
    }
    if (probes > MAX_NULL_PROBES) return undefined
  }
  return null
}

function pick(b: Batch, sel: Int32Array, n: number): Batch {
  return { length: n, vectors: b.vectors.map((v) => gather(v, sel, n)) }
}

/** Forward pass for any input: per key the row with the greatest timestamp (ties: the later). */
async function forward(node: LatestOnNode, ctx: ExecContext, run: Runner, mem: Reservation): Promise<Batch> {
  const keyEvals = node.partitionBy.map((k) => compileExpr(k, ctx))
  const index = new KeyIndex(node.partitionBy.length, false)
  let bestTs = new Float64Array(64)
  // the nanoseconds past bestTs of a TIMESTAMP_NS column (ties within a microsecond)
  let bestSub = new Uint16Array(64)
  let bestSeq = new Float64Array(64)
  let partOf = new Int32Array(64)
  let rowOf = new Int32Array(64)
  let stamp = new Int32Array(64).fill(-1)
  let lastRow = new Int32Array(64)
  let parts: Batch[] = []
  let retained = 0
  let seq = 0
  let batchNo = 0
  let ids = new Int32Array(0)
  const grow = (n: number) => {
    if (bestTs.length >= n) return
    const cap = Math.max(n, bestTs.length * 2)
    const f = (a: Float64Array) => { const x = new Float64Array(cap); x.set(a); return x }
    const i32 = (a: Int32Array, fill = 0) => { const x = new Int32Array(cap).fill(fill); x.set(a); return x }
    bestTs = f(bestTs); bestSeq = f(bestSeq); { const x = new Uint16Array(cap); x.set(bestSub); bestSub = x } partOf = i32(partOf); rowOf = i32(rowOf); stamp = i32(stamp, -1); lastRow = i32(lastRow)
  }
  for await (const b of run(node.input, ctx)) {
    if (b.length === 0) continue
    if (ids.length < b.length) ids = new Int32Array(b.length)
    const before = index.count
    index.assign(keyEvals.map((e) => e(b)), b.length, ids)
    grow(index.count)
    bestTs.fill(-Infinity, before, index.count)
    const ts = timestampsOf(b.vectors[node.timestampColumn]!)
    const sub = nsRemaindersOf(b.vectors[node.timestampColumn]!)
    const touched: number[] = []
    for (let i = 0; i < b.length; i++) {
      const g = ids[i]!
      const t = ts[i]!
      const u = sub === undefined ? 0 : sub[i]!
      if (t < bestTs[g]! || (t === bestTs[g]! && u < bestSub[g]!)) continue
      bestTs[g] = t
      bestSub[g] = u
      bestSeq[g] = seq + i
      lastRow[g] = i
      if (stamp[g] !== batchNo) { stamp[g] = batchNo; touched.push(g) }
    }
    if (touched.length > 0) {
      const sel = Int32Array.from(touched, (g) => lastRow[g]!)
      const kept = pick(b, sel, sel.length)
      mem.grow(batchBytes(kept) + (index.count - before) * KEY_BYTES)
      parts.push(kept)
      touched.forEach((g, j) => { partOf[g] = parts.length - 1; rowOf[g] = j })
      retained += sel.length
    }
    seq += b.length
    batchNo++
    if (retained > 4 * index.count + 4096) {
      const all = Int32Array.from({ length: index.count }, (_, g) => g)
      const compacted = gatherRows(node, parts, partOf, rowOf, all)
      const keys = index.count * KEY_BYTES
      mem.resize(mem.bytes + batchBytes(compacted))
      parts = [compacted]
      mem.resize(batchBytes(compacted) + keys)
      all.forEach((g, j) => { partOf[g] = 0; rowOf[g] = j })
      retained = index.count
    }
    await ctx.maybeYield()
  }
  mem.grow(16 * index.count + mem.bytes)
  const order = Array.from({ length: index.count }, (_, g) => g)
  order.sort((a, b) => (bestTs[a]! - bestTs[b]!) || (bestSeq[a]! - bestSeq[b]!))
  return gatherRows(node, parts, partOf, rowOf, Int32Array.from(order))
}

/** The rows of groups `groups` (in that order) from the retained parts. */
function gatherRows(node: LatestOnNode, parts: readonly Batch[], partOf: Int32Array, rowOf: Int32Array, groups: Int32Array): Batch {
  const n = groups.length
  const part = new Int32Array(n)
  const row = new Int32Array(n)
  for (let j = 0; j < n; j++) { part[j] = partOf[groups[j]!]!; row[j] = rowOf[groups[j]!]! }
  const vectors: Vector[] = node.output.map((c, i) => gatherParts(c.type, parts.map((p) => p.vectors[i]!), part, row, n))
  return { length: n, vectors }
}
