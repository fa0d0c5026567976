/**
 * Checkpoint of one table: writes its rows in memory (appends since the last checkpoint, and any
 * partition a merge or rewrite moved to memory) to new directories `<name>.<txn>`; checkpointed
 * partitions still cold keep their directory. Then `_meta` is replaced atomically — the commit point — and
 * files it no longer names are removed.
 */
import type { Table } from '../table.js'
import { splitPartitions } from '../partition-split.js'
import { partitionOf } from '../partition-key.js'
import { FilePart, type PartSource } from './file-part.js'
import {
  FORMAT_VERSION, type PartitionEntry, type TableFileMeta, removeUnreferenced, writeDictionary, writePartition, writeTableMeta,
} from './table-files.js'

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
}

/** The metadata fields as JSON, to notice DDL changes. */
export function metaKey(t: Table): string {
  return JSON.stringify(t.meta)
}

/**
 * Writes table `t`'s in-memory rows as partitions and its metadata; checkpointed partitions the
 * rows do not touch keep their directory. `full` first moves every row to memory and rewrites
 * every partition (schema changes, UPDATE). Afterwards the written partitions become the table's
 * cold partitions, their columns kept loaded (under the budget) from the rows just written.
 * Throws on a write failure; the previous `_meta` and its files are then still intact.
 */
export function checkpointTable(state: TableState, t: Table, full: boolean, source: (file: TableFileMeta) => PartSource): void {
  const txn = state.file.txn + 1
  const ti = t.meta.timestampIndex
  t.prepareCheckpoint(full, (ts) => partitionOf(ts, ti < 0 ? 'NONE' : t.meta.partitionBy))
  const { cold, data } = t.pending()
  const kept = cold.map((p) => (p as FilePart).entry)
  let symbols = state.file.symbols
  const written: { entry: PartitionEntry; start: number; end: number }[] = []
  if (data.rowCount > 0 || full) {
    for (const r of splitPartitions(t.meta, data)) {
      const dir = `${r.name}.${txn}`
      const bytes = writePartition(state.dir, dir, t.meta, data, r.start, r.end)
      written.push({ entry: { name: r.name, dir, lo: r.lo, hi: r.hi, rows: r.end - r.start, minTs: r.minTs, maxTs: r.maxTs, bytes }, start: r.start, end: r.end })
    }
    symbols = {}
    t.meta.columns.forEach((c, i) => {
      const dict = data.columns[i]!.dict
      if (c.type !== 'SYMBOL' || dict === undefined) return
      const file = `${c.name}.${txn}.sym`
      writeDictionary(state.dir, file, dict)
      symbols[c.name] = file
    })
  }
  const file: TableFileMeta = {
    version: FORMAT_VERSION, meta: structuredClone(t.meta), walSeq: Math.max(state.file.walSeq, state.appliedSeq), txn,
    partitions: [...kept, ...written.map((w) => w.entry)], symbols,
  }
  writeTableMeta(state.dir, file)
  state.file = file
  state.dirtyFrom = Infinity
  const src = source(file)
  const parts = written.map((w) => {
    const fp = new FilePart(w.entry, src)
    data.columns.forEach((b, c) => fp.keep(c, b.view(w.start, w.end)))
    return fp
  })
  t.settle([...cold, ...parts])
  try { removeUnreferenced(state.dir, file) } catch { /* leftovers are removed on the next open */ }
}
