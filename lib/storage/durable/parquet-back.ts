/**
 * Writes one partition back to Parquet after a checkpoint made it column files (see
 * parquet-keep.ts), without holding up the table's appends: the new file is written (its unchanged
 * row groups copied, parquet-merge.ts) while appends, commits and checkpoints go on; then, under
 * the table's write lock and with no checkpoint step pending, `_meta` is replaced to name it —
 * only if the partition is still the one that was read. Otherwise (a later write reached it, a
 * checkpoint rewrote it) the file is dropped: that write's checkpoint records the partition
 * again and it is written back from there.
 */
import type { Table } from '../table.js'
import type { TableState } from './checkpoint.js'
import { FilePart, type PartSource } from './file-part.js'
import { PARQUET_PARTITION_FILE, type PartitionEntry, type TableFileMeta, removeUnreferenced, writeTableMeta } from './table-files.js'
import { type MergeResult, PARTIAL_FILE, writeMergedPartition } from './parquet-merge.js'
import { fsyncDir } from './durable-steps.js'
import { loadSyncColumnReader } from '../../parquet/sync-column.js'
import { io } from './io.js'

/** What writing a partition back needs of the store. */
export interface StoreAccess {
  /** the table's storage state (undefined: dropped) */
  state(t: Table): TableState | undefined
  /** finishes a running background checkpoint and commit (`DurableStore.quiesce`) */
  quiesce(): void
  /** how the partitions of `file` read their files */
  source(t: Table, s: TableState, file: TableFileMeta): PartSource
  /** throws when the data directory's lock is lost */
  check(): void
}

/** Counts the directories written here, so each has a name never used before in this process. */
let written = 0

/**
 * Writes partition `name` of `t` back to Parquet if `_meta` has it as column files. Resolves to
 * what was written, or undefined when nothing was (not needed, or no longer the same partition).
 */
export async function parquetBack(t: Table, name: string, store: StoreAccess): Promise<MergeResult | undefined> {
  const s = store.state(t)
  if (s === undefined || s.broken !== undefined) return undefined
  const e = s.file.partitions.find((x) => x.name === name)
  if (e === undefined || e.format === 'parquet' || !/^[^/\\]+$/.test(name)) return undefined
  const part = t.coldParts().find((p) => p instanceof FilePart && p.entry === e) as FilePart | undefined
  // its rows are in memory (a later write moved them there): that write's checkpoint records it again
  if (part === undefined) return undefined
  const meta = s.file.meta
  await loadSyncColumnReader()
  store.check()
  // written beside the old file (renamed over it at the swap: readers of the directory see the old file or the
  // new one, whole), or for a partition with no old file in a new directory `<name>.<txn>.pq<n>`, never used before
  // a directory of the table's own (a damaged `_meta` naming another place gets a new directory)
  const named = e.parquetFrom?.dir
  const base = typeof named === 'string' && /^[^/\\]+$/.test(named) && named !== '.' && named !== '..' ? named : undefined
  const dir = base ?? `${name}.${s.file.txn + 1}.pq${++written}`
  const from = base !== undefined && e.parquetFrom?.whole !== true ? `${s.dir}/${base}/${PARQUET_PARTITION_FILE}` : undefined
  const drop = (): void => { try { io.rmSync(base === undefined ? `${s.dir}/${dir}` : `${s.dir}/${dir}/${PARTIAL_FILE}`) } catch { /* removed when next written */ } }
  let result: MergeResult
  try {
    const columns = meta.columns.map((_, c) => part.column(c))
    result = await writeMergedPartition(s.dir, dir, meta, columns, part.rows, from, e.parquetFrom?.dirty)
  } catch (err) {
    drop()
    throw err
  }
  const release = await t.writers.exclusive()
  try {
    store.quiesce()
    if (store.state(t) !== s || s.broken !== undefined || !s.file.partitions.includes(e) || !t.coldParts().includes(part)) {
      drop()
      return undefined
    }
    store.check()
    // a crash between the rename and `_meta` leaves the new file as the old one: it holds the same rows as the
    // column files `_meta` still names, and writing it back again copies its row groups
    io.renameSync(`${s.dir}/${dir}/${PARTIAL_FILE}`, `${s.dir}/${dir}/${PARQUET_PARTITION_FILE}`)
    fsyncDir(`${s.dir}/${dir}`)
    // written anew for the columns as they are named now
    const { parquetFrom: _from, files: _files, dropped: _dropped, tops: _tops, ...rest } = e
    const entry: PartitionEntry = { ...rest, dir, bytes: result.bytes, format: 'parquet' }
    const file: TableFileMeta = { ...s.file, txn: s.file.txn + 1, partitions: s.file.partitions.map((x) => (x === e ? entry : x)) }
    // the commit point; a failure leaves the column files in force (the new directory goes on the next open)
    writeTableMeta(s.dir, file)
    s.file = file
    const src = store.source(t, s, file)
    part.retire()
    t.replaceCold(t.coldParts().map((p) => (p === part ? new FilePart(entry, src) : p)))
    try { removeUnreferenced(s.dir, file, true) } catch { /* leftovers are removed on the next open */ }
    return result
  } finally {
    release()
  }
}
