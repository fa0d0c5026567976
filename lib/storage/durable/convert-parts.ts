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
import { concatVectors, sliceVector, type Vector } from '../../types/vector.js'

/**
 * What a conversion changed: the new `_meta` and each converted part's new entry; null for a part
 * that left (the later parts of a partition an out-of-order merge cut, converted as one with its first).
 */
export interface Converted {
  readonly file: TableFileMeta
  readonly replaced: ReadonlyMap<FilePart, PartitionEntry | null>
}

function asTableData(columns: readonly Vector[], rows: number): TableData {
  return { columns: columns.map((v) => ({ view: (a: number, b: number) => sliceVector(v, a, b) })), rowCount: rows } as unknown as TableData
}

/** Converts the parts of `t` whose entries `choose` returns; undefined when none needed it. */
export async function convertParts(s: TableState, t: Table, choose: (entries: readonly PartitionEntry[]) => ReadonlySet<PartitionEntry>, to: 'parquet' | 'native'): Promise<Converted | undefined> {
  const cold = t.coldParts() as readonly FilePart[]
  const chosen = choose(cold.map((p) => p.entry))
  const txn = s.file.txn + 1
  const replaced = new Map<FilePart, PartitionEntry | null>()
  const meta = t.meta
  try {
    // a chosen partition in several parts (cut by out-of-order merges, file-part.ts `cut`) becomes one, in the target format
    for (let i = 0; i < cold.length;) {
      let j = i + 1
      while (j < cold.length && cold[j]!.lo === cold[i]!.lo && cold[j]!.hi === cold[i]!.hi) j++
      const group = cold.slice(i, j)
      i = j
      if (group.length === 1 || !group.some((p) => chosen.has(p.entry))) continue
      let rows = 0
      for (const p of group) rows += p.rows
      const columns = meta.columns.map((c, k) => concatVectors(c.type, group.map((p) => p.column(k))))
      const head = group[0]!
      const dir = `${head.entry.name}.${txn}`
      const { format: _old, parquetFrom: _from, files: _files, tops: _tops, ...rest } = head.entry
      const entry = { ...rest, dir, rows, maxTs: group[group.length - 1]!.entry.maxTs }
      if (to === 'parquet') replaced.set(head, { ...entry, bytes: await writeParquetPartition(s.dir, dir, meta, columns, rows), format: 'parquet' })
      else replaced.set(head, { ...entry, bytes: writePartition(s.dir, dir, meta, asTableData(columns, rows), 0, rows) })
      for (const p of group.slice(1)) replaced.set(p, null)
    }
    // TO NATIVE of a partition on its way back to Parquet (parquet-keep.ts): it stays as it is, and native
    for (const p of cold) {
      if (replaced.has(p)) continue
      if (chosen.has(p.entry) && to === 'native' && p.entry.parquetFrom !== undefined) {
        const { parquetFrom: _from, ...native } = p.entry
        replaced.set(p, native)
      }
      if (!chosen.has(p.entry) || (p.entry.format === 'parquet') === (to === 'parquet')) continue
      const columns = meta.columns.map((_, c) => p.column(c))
      const dir = `${p.entry.name}.${txn}`
      // written anew for the columns as they are named now
      const { format: _old, parquetFrom: _from, files: _files, dropped: _dropped, tops: _tops, ...rest } = p.entry
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
    const partitions: PartitionEntry[] = []
    for (const e of s.file.partitions) {
      const now = byEntry.get(e)
      if (now !== null) partitions.push(now ?? e)
    }
    const file: TableFileMeta = { ...s.file, txn, partitions }
    writeTableMeta(s.dir, file)
    return { file, replaced }
  } catch (e) {
    for (const [p, e2] of replaced) if (e2 !== null && e2.dir !== p.entry.dir) try { io.rmSync(`${s.dir}/${e2.dir}`) } catch { /* removed on the next open */ }
    throw e
  }
}
