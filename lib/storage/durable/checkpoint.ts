/**
 * Checkpoint of one table: writes its rows in memory (appends since the last checkpoint, and any
 * partition a merge or rewrite moved to memory) to new directories `<name>.<txn>`, except rows
 * that continue the last checkpointed partition in order, which are appended to its files in
 * place (so a table growing within one partition costs the new rows per checkpoint, not the
 * partition); checkpointed partitions still cold keep their directory. Then `_meta` is replaced
 * atomically — the commit point — and files it no longer names are removed.
 */
import type { Table, TableMeta } from '../table.js'
import { io } from './io.js'
import { indexFileOf } from './index-file.js'
import { splitPartitions } from '../partition-split.js'
import { partitionOf } from '../partition-key.js'
import { FilePart, type PartSource } from './file-part.js'
import type { ColdPart } from '../table-parts.js'
import {
  FORMAT_VERSION, type PartitionEntry, type TableFileMeta, appendPartitionSteps, arrayFilesAppendable, removeDroppedSteps, removeUnreferenced, writeDictionarySteps, writePartitionSteps, writeTableMetaSteps, type NonNullCounts, nonNullCountsSteps, nonNullOf, nonNullRows, topNonNull,
} from './table-files.js'
import { type Steps, runSteps } from './steps.js'
import { compactVector, retainedBytes } from './compact-vector.js'
import { vectorBytes } from './part-cache.js'
import type { Vector } from '../../types/vector.js'
import type { HeldRows } from '../held-rows.js'
import { parquetOrigin, unchangedEntry } from './parquet-keep.js'
import { trimSettledCuts } from './cut-trim.js'

/** What storage remembers about one table between checkpoints. */
export interface TableState {
  /** the table directory (absolute) */
  readonly dir: string
  /** `_meta` as last written */
  file: TableFileMeta
  /** oldest designated timestamp appended since the last checkpoint (Infinity: clean, -Infinity: all) */
  dirtyFrom: number
  /** WAL sequence of the last append applied in memory */
  appliedSeq: number
  /** the error that makes this table unreadable, if any */
  broken: Error | undefined
  /** a DEDUP table: where rows appended since the last checkpoint fall (parquet-keep.ts `addDirty`) */
  dedupDirty?: number[] | undefined
}

/** The metadata fields as JSON, to notice DDL changes. */
export function metaKey(t: Table): string {
  return JSON.stringify(t.meta)
}

/**
 * Writes table `t`'s in-memory rows as partitions and its metadata; checkpointed partitions the
 * rows do not touch keep their directory. `full` first moves every row to memory and rewrites
 * every partition (schema changes, UPDATE). Afterwards the written partitions become the table's
 * cold partitions; the newest of them, as many as the memory budget holds, keep their columns
 * loaded from the rows just written (copied to their own size), the others read their files.
 * Throws on a write failure; the previous `_meta` and its files are then still intact.
 * `removeLater`: see {@link checkpointSteps}.
 */
export function checkpointTable(state: TableState, t: Table, full: boolean, source: (file: TableFileMeta) => PartSource, removeLater = false): void {
  runSteps(checkpointSteps(state, t, full, source, removeLater))
}

/**
 * {@link checkpointTable} in steps (a column file each): between steps the table's rows and
 * metadata must not change — the store finishes the remaining steps at once before anything
 * changes them (`DurableStore.quiesce`). `_meta` is replaced in the last step, so a crash between
 * steps leaves the previous checkpoint in force, as a crash inside one does. `removeLater`: the
 * files `_meta` no longer names are removed on the thread pool (a background checkpoint).
 * `keepOld`: they are not removed at all (a statement rewriting several tables, ddl-undo.ts, may
 * still put the old `_meta` back; the caller removes them once it has committed).
 */
export function* checkpointSteps(state: TableState, t: Table, full: boolean, source: (file: TableFileMeta) => PartSource, removeLater = false, keepOld = false): Steps<void> {
  const txn = state.file.txn + 1
  const beforeFile = state.file
  const before = state.file.meta
  const ti = t.meta.timestampIndex
  yield* t.prepareCheckpointSteps(full, (ts) => partitionOf(ts, ti < 0 ? 'NONE' : t.meta.partitionBy), (p) => appendable(p, t))
  // the in-memory segments an out-of-order merge left (table.ts) are written as they are held, not joined first (held-rows.ts)
  const { cold, held: data } = t.pendingHeld()
  // entries naming their files where a RENAME or ADD COLUMN left them named otherwise than the columns
  const kept = cold.map((p) => (p as FilePart).entryFor(t.meta.columns))
  let symbols = renamedSymbols(state.file.symbols, before.columns, t.meta.columns)
  const written: { entry: PartitionEntry; views: readonly Vector[] | undefined }[] = []
  let extended: { from: FilePart; entry: PartitionEntry } | undefined
  if (data.rowCount > 0 || full) {
    const ranges = splitPartitions(t.meta, data)
    const last = cold[cold.length - 1] as FilePart | undefined
    const first = ranges[0]
    // rows continuing the last checkpointed partition (prepareCheckpoint left it cold: appendable)
    // (not the first rows of a partition an out-of-order merge cut: the rows after them become a part of their own)
    if (!full && last !== undefined && first !== undefined && first.lo === last.lo && first.hi === last.hi && appendable(last, t)) {
      // its files under the names its entry gives them; a column added later gets a file of its own now
      const have = last.appendFiles(t.meta.columns)!
      const taken = new Set([...have.filter((f) => f !== undefined), ...(last.entry.dropped ?? [])])
      const tops = new Set(have.flatMap((f, i) => (f === undefined ? [i] : [])))
      const names = t.meta.columns.map((c, i) => have[i] ?? (taken.has(c.name) ? `${c.name}.t${txn}` : c.name))
      const bytes = yield* appendPartitionSteps(state.dir, last.entry, t.meta, data, first.start, first.end, names, tops)
      yield
      const nonNull = yield* appendedNonNull(last, t.meta, names, tops, data, first.start, first.end)
      const { files: _files, tops: had, nonNull: _counted, ...e } = last.entry
      const plain = names.every((n, i) => n === t.meta.columns[i]!.name)
      // a column added after the partition's rows gets a file of the new rows only: its column top is those rows
      const topsNow = { ...had }
      for (const i of tops) topsNow[names[i]!] = e.rows
      const entry: PartitionEntry = {
        ...e, ...(plain ? {} : { files: names }), ...(Object.keys(topsNow).length > 0 ? { tops: topsNow } : {}),
        rows: e.rows + first.end - first.start, minTs: Math.min(e.minTs, first.minTs), maxTs: Math.max(e.maxTs, first.maxTs), bytes: e.bytes + bytes,
        ...(nonNull === undefined ? {} : { nonNull }),
      }
      kept[kept.length - 1] = entry
      extended = { from: last, entry }
      ranges.shift()
    }
    const cache = source(state.file).cache
    // the rows in memory reached this size (their buffers, whole) since the last checkpoint and will again by the next:
    // they take their share of the budget (a full rewrite's are the whole table: it keeps the last share)
    if (!full) cache.reserve(t, retainedBytes(data.segments.flatMap((d) => d.columns.map((b) => b.view(0, 0)))))
    const keep = keptViews(ranges, data, cache.room)
    const unchanged = unchangedEntry(state.file, t.meta, full, kept, state.dedupDirty)
    for (let i = 0; i < ranges.length; i++) {
      const r = ranges[i]!
      // moved to memory by an out-of-order merge that added no row to it: its files stay as they are
      // a partition whose first rows stay in a part of their own (cut by a merge) is written as its next part
      const split = kept.some((e) => e.lo === r.lo && e.hi === r.hi)
      const same = split ? undefined : unchanged(r)
      if (same !== undefined) {
        let views: Vector[] | undefined
        if (keep[i] === true) for (const b of data.columns) { (views ??= []).push(compactVector(b.view(r.start, r.end))); yield }
        written.push({ entry: same, views })
        continue
      }
      const dir = `${r.name}.${txn}`
      const bytes = yield* writePartitionSteps(state.dir, dir, t.meta, data, r.start, r.end)
      yield
      const nonNull = yield* nonNullCountsSteps(dir, t.meta, data, r.start, r.end)
      yield
      // kept columns copied out of the table's buffers (a view would keep them whole: compact-vector.ts), a column a step
      let views: Vector[] | undefined
      if (keep[i] === true) for (const b of data.columns) { (views ??= []).push(compactVector(b.view(r.start, r.end))); yield }
      written.push({ entry: { name: r.name, dir, lo: r.lo, hi: r.hi, rows: r.end - r.start, minTs: r.minTs, maxTs: r.maxTs, bytes, nonNull, ...(split ? {} : parquetOrigin(state.file, r.name, r.lo, r.hi, t.meta, full, state.dedupDirty)) }, views })
    }
    // every column file written above is durable before the dictionaries and `_meta` (their syncs overlapped)
    yield { drain: true }
    symbols = {}
    for (let i = 0; i < t.meta.columns.length; i++) {
      const c = t.meta.columns[i]!
      const dict = data.columns[i]!.dict
      if (c.type !== 'SYMBOL' || dict === undefined) continue
      const file = `${c.name}.${txn}.sym`
      yield* writeDictionarySteps(state.dir, file, dict)
      symbols[c.name] = file
    }
  }
  // parts an earlier checkpoint's `_meta` cut, which nothing reads past their rows any more: their files lose the rest
  if (!keepOld) {
    const trimmed = trimSettledCuts(state.dir, t.meta.columns, state.file, [...kept, ...written.map((w) => w.entry)])
    for (let i = 0; i < kept.length; i++) kept[i] = trimmed[i]!
    yield
  }
  const file: TableFileMeta = {
    version: FORMAT_VERSION, meta: structuredClone(t.meta), walSeq: Math.max(state.file.walSeq, state.appliedSeq), txn,
    partitions: [...kept, ...written.map((w) => w.entry)], symbols,
  }
  yield* writeTableMetaSteps(state.dir, file)
  state.file = file
  state.dirtyFrom = Infinity
  state.dedupDirty = undefined
  const src = source(file)
  const parts = written.map((w) => {
    const fp = new FilePart(w.entry, src)
    w.views?.forEach((v, c) => fp.keep(c, v))
    return fp
  })
  // partitions whose entry now names their files (RENAME / ADD COLUMN): the same files under the new entry
  const coldNow = cold.map((p, i) => (p === extended?.from || kept[i] === (p as FilePart).entry ? p : (p as FilePart).movedTo(kept[i]!, src)))
  if (extended !== undefined) {
    // the appended partition's columns load from its files when next read (keeping them would copy the partition)
    const next = new FilePart(extended.entry, src)
    extended.from.supersede(next)
    coldNow[coldNow.length - 1] = next
  }
  t.settle([...coldNow, ...parts])
  // the new `_meta` is in force: what it no longer names leaves in steps of its own (a directory
  // listing, then a few partitions' dropped files per step), not in the step that replaced it
  if (!keepOld) {
    yield
    try { removeUnreferenced(state.dir, file, removeLater) } catch { /* leftovers are removed on the next open */ }
    yield
    try { yield* removeDroppedSteps(state.dir, beforeFile, file, removeLater) } catch { /* leftovers are removed on the next open */ }
  }
  indexChanges(state, t, before, coldNow)
}

/**
 * Which partitions (by index into `ranges`) a checkpoint keeps loaded: the newest ones whose rows
 * fit in `budget` together (their columns are then copied out of the table's buffers, a column
 * per step). Older ones are not kept: the cache would evict them at once, and while kept as views
 * they would hold the buffers their newer neighbours were cut from. Nor is one whose rows span
 * several in-memory segments (ILP batches adopted as they came, table.ts): keeping it would join
 * the segments, one more copy of every row of a partition's first checkpoint (0.2 µs/row of a
 * 2M-row ILP stream's server CPU); it loads from its files when next read, as a partition the
 * checkpoint appended to does.
 */
function keptViews(ranges: readonly { start: number; end: number }[], data: HeldRows, budget: number): boolean[] {
  const out = new Array<boolean>(ranges.length).fill(false)
  let total = 0
  for (let i = ranges.length - 1; i >= 0; i--) {
    const r = ranges[i]!
    const first = data.columns[0]
    if (first !== undefined && first.pieces(r.start, r.end).length > 1) continue
    for (const b of data.columns) for (const v of b.pieces(r.start, r.end)) total += vectorBytes(v)
    if (total > budget) break
    out[i] = true
  }
  return out
}

/**
 * After ADD INDEX, the checkpointed partitions get their index files (built from their key
 * columns); after DROP INDEX, theirs are removed. Both best effort: a missing file is rebuilt when
 * the index is next used, and an unindexed column's files are never read.
 */
function indexChanges(state: TableState, t: Table, before: TableMeta, cold: readonly ColdPart[]): void {
  t.meta.columns.forEach((c, i) => {
    if (c.type !== 'SYMBOL') return
    const was = before.columns.find((x) => x.name === c.name)?.indexed === true
    if (c.indexed && !was) for (const p of cold) if (p instanceof FilePart) try { p.postings(i) } catch { /* see above */ }
    if (!c.indexed && was) for (const e of state.file.partitions) try { io.rmSync(indexFileOf(`${state.dir}/${e.dir}`, c.name)) } catch { /* see above */ }
  })
}

/**
 * The dictionary files of `symbols` (by column name, as columns `before` named them) by the names
 * columns `now` have: the same columns at the same places (a RENAME COLUMN of a SYMBOL column
 * keeps its dictionary file, ADD COLUMN adds some after them), fewer (DROP COLUMN: the others keep
 * their names; a dropped column's dictionary is no longer named, and leaves), or a full rewrite
 * that writes them anew.
 */
function renamedSymbols(symbols: Record<string, string>, before: TableMeta['columns'], now: TableMeta['columns']): Record<string, string> {
  if (now.length >= before.length && before.every((c, i) => now[i]?.name === c.name)) return symbols
  const out: Record<string, string> = {}
  if (now.length < before.length) {
    for (const c of now) if (c.type === 'SYMBOL' && symbols[c.name] !== undefined) out[c.name] = symbols[c.name]!
    return out
  }
  now.forEach((c, i) => {
    const was = before[i]
    if (c.type === 'SYMBOL' && was?.type === 'SYMBOL' && symbols[was.name] !== undefined) out[c.name] = symbols[was.name]!
  })
  return out
}

/**
 * True when in-order rows can be appended to cold partition `p`'s files in place: column files
 * (not Parquet) that serve the table's current columns (under the names its entry gives them; a
 * column added later gets a file then), array columns' in layout 2 (array-codec.ts), and not the first rows of a
 * partition an out-of-order merge cut (its files hold rows the `_meta` in force may still name:
 * they are never written).
 */
function appendable(p: ColdPart, t: Table): boolean {
  if (!(p instanceof FilePart) || p.entry.format === 'parquet') return false
  const now = t.meta.columns
  const files = p.appendFiles(now)
  return files !== undefined && !p.cutShort && arrayFilesAppendable(p.dirPath, now, files)
}

/**
 * The non-null counts of partition `last` after rows [start, end) of `data` are appended to its
 * files `names` (`tops`: columns added after it was written, null in its rows so far): its
 * recorded counts plus the appended rows'; undefined when it has none that hold (a column it has
 * no count of is left out).
 */
function* appendedNonNull(last: FilePart, meta: TableMeta, names: readonly string[], tops: ReadonlySet<number>, data: HeldRows, start: number, end: number): Steps<NonNullCounts | undefined> {
  const e = last.entry
  const counts: Record<string, number> = {}
  let any = false
  for (let i = 0; i < meta.columns.length; i++) {
    const before = tops.has(i) ? topNonNull(meta.columns[i]!.type, e.rows) : nonNullOf(e, names[i]!)
    if (before === undefined) continue
    counts[names[i]!] = before + nonNullRows(data, i, start, end)
    any = true
    yield
  }
  return any ? { dir: e.dir, rows: e.rows + end - start, counts } : undefined
}
