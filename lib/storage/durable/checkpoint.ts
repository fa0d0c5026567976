/**
 * Checkpoint of one table: brings its partition files up to date with its rows in memory.
 *
 * Partitions whose rows cannot have changed since the last checkpoint (their upper bound is at
 * or below the oldest timestamp written since) keep their directory; the others are written to
 * new directories `<name>.<txn>`. Then `_meta` is replaced atomically — the commit point — and
 * files it no longer names are removed.
 */
import type { Table } from '../table.js'
import { splitPartitions } from './partition-split.js'
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
 * Writes table `t` (rows and metadata). `full` rewrites every partition (schema changes).
 * Throws on a write failure; the previous `_meta` and its files are then still intact.
 */
export function checkpointTable(state: TableState, t: Table, full: boolean): void {
  const txn = state.file.txn + 1
  let partitions = state.file.partitions
  let symbols = state.file.symbols
  if (full || (t.loaded && state.dirtyFrom !== Infinity)) ({ partitions, symbols } = writeRows(state, t, txn, full))
  const file: TableFileMeta = { version: FORMAT_VERSION, meta: structuredClone(t.meta), walSeq: Math.max(state.file.walSeq, state.appliedSeq), txn, partitions, symbols }
  writeTableMeta(state.dir, file)
  state.file = file
  state.dirtyFrom = Infinity
  try { removeUnreferenced(state.dir, file) } catch { /* leftovers are removed on the next open */ }
}

function writeRows(state: TableState, t: Table, txn: number, full: boolean): Pick<TableFileMeta, 'partitions' | 'symbols'> {
  const snap = t.snapshot()
  const parts = splitPartitions(snap)
  const partitions: PartitionEntry[] = parts.map((p) => {
    const rows = p.end - p.start
    const old = state.file.partitions.find((e) => e.name === p.name)
    if (!full && old !== undefined && old.rows === rows && p.hi <= state.dirtyFrom) return old
    const dir = `${p.name}.${txn}`
    const bytes = writePartition(state.dir, dir, snap.meta, snap.data, p.start, p.end)
    return { name: p.name, dir, lo: p.lo, hi: p.hi, rows, minTs: p.minTs, maxTs: p.maxTs, bytes }
  })
  const symbols: Record<string, string> = {}
  snap.meta.columns.forEach((c, i) => {
    const dict = snap.data.columns[i]!.dict
    if (c.type !== 'SYMBOL' || dict === undefined) return
    const file = `${c.name}.${txn}.sym`
    writeDictionary(state.dir, file, dict)
    symbols[c.name] = file
  })
  return { partitions, symbols }
}
