/**
 * The file work of CONVERT PARTITION: each chosen partition is written anew in the target format
 * (one Parquet file, or column files) in a directory of the next txn, then `_meta` is replaced —
 * the commit point. A failure before that leaves the old `_meta` and its files as they were (the
 * new directories are removed, or on the next open).
 */
import type { Table, TableData } from '../table.js'
import type { TableState } from './checkpoint.js'
import type { FilePart } from './file-part.js'
import { writeParquetPartition } from './parquet-part.js'
import { type PartitionEntry, type TableFileMeta, writePartition, writeTableMeta } from './table-files.js'
import { io } from './io.js'
import { sliceVector, type Vector } from '../../types/vector.js'

/** What a conversion changed: the new `_meta` and each converted part's new entry. */
export interface Converted {
  readonly file: TableFileMeta
  readonly replaced: ReadonlyMap<FilePart, PartitionEntry>
}

function asTableData(columns: readonly Vector[], rows: number): TableData {
  return { columns: columns.map((v) => ({ view: (a: number, b: number) => sliceVector(v, a, b) })), rowCount: rows } as unknown as TableData
}

/** Converts the parts of `t` whose entries `choose` returns; undefined when none needed it. */
export async function convertParts(s: TableState, t: Table, choose: (entries: readonly PartitionEntry[]) => ReadonlySet<PartitionEntry>, to: 'parquet' | 'native'): Promise<Converted | undefined> {
  const cold = t.coldParts() as readonly FilePart[]
  const chosen = choose(cold.map((p) => p.entry))
  const txn = s.file.txn + 1
  const replaced = new Map<FilePart, PartitionEntry>()
  const meta = t.meta
  try {
    // TO NATIVE of a partition on its way back to Parquet (parquet-keep.ts): it stays as it is, and native
    for (const p of cold) {
      if (chosen.has(p.entry) && to === 'native' && p.entry.parquetFrom !== undefined) {
        const { parquetFrom: _from, ...native } = p.entry
        replaced.set(p, native)
      }
      if (!chosen.has(p.entry) || (p.entry.format === 'parquet') === (to === 'parquet')) continue
      const columns = meta.columns.map((_, c) => p.column(c))
      const dir = `${p.entry.name}.${txn}`
      // written anew for the columns as they are named now
      const { format: _old, parquetFrom: _from, files: _files, dropped: _dropped, ...rest } = p.entry
      if (to === 'parquet') {
        const bytes = await writeParquetPartition(s.dir, dir, meta, columns, p.rows)
        replaced.set(p, { ...rest, dir, bytes, format: 'parquet' })
      } else {
        const bytes = writePartition(s.dir, dir, meta, asTableData(columns, p.rows), 0, p.rows)
        replaced.set(p, { ...rest, dir, bytes })
      }
    }
    if (replaced.size === 0) return undefined
    const byEntry = new Map([...replaced].map(([p, e]) => [p.entry, e]))
    const file: TableFileMeta = { ...s.file, txn, partitions: s.file.partitions.map((e) => byEntry.get(e) ?? e) }
    writeTableMeta(s.dir, file)
    return { file, replaced }
  } catch (e) {
    for (const [p, e2] of replaced) if (e2.dir !== p.entry.dir) try { io.rmSync(`${s.dir}/${e2.dir}`) } catch { /* removed on the next open */ }
    throw e
  }
}
