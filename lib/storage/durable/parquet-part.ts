/**
 * Partitions stored as Parquet (`ALTER TABLE t CONVERT PARTITION TO PARQUET`): the partition
 * directory `<name>.<txn>/` holds one file, `data.parquet`, that the engine reads column by column
 * and that DuckDB, Spark or Trino read directly. Writing one, and converting back to column files.
 */
import { corrupted, PARQUET_PARTITION_FILE, type PartitionEntry } from './table-files.js'
import { readParquetColumn } from '../../parquet/sync-column.js'
import { ParquetBatchWriter } from '../../parquet/writer.js'
import type { ColumnType } from '../../types/column-type.js'
import { BATCH_SIZE, type SymbolTable, type Vector, sliceVector } from '../../types/vector.js'
import { io } from './io.js'
import { fsyncDir } from './durable-steps.js'
import { SqlError } from '../../errors.js'

/** Column `c` of a Parquet partition, whole (checked like column files: the timestamps by the caller's reader). */
export function readParquetPartColumn(tableDir: string, table: string, c: { readonly name: string; readonly type: ColumnType }, p: PartitionEntry, dict: SymbolTable | undefined): Vector {
  const path = `${tableDir}/${p.dir}/${PARQUET_PARTITION_FILE}`
  let v: Vector
  try {
    v = readParquetColumn(path, c.name, c.type, dict)
  } catch (e) {
    throw corrupted(table, p.name, `column ${c.name}: ${e instanceof SqlError ? e.message : String(e)}`, e)
  }
  if (v.length !== p.rows) throw corrupted(table, p.name, `column ${c.name}: parquet file has ${v.length} rows, expected ${p.rows}`)
  return v
}

/**
 * Writes the partition whose columns are `columns` (each `rows` long) as `<tableDir>/<dir>/data.parquet`,
 * durably (file and directory fsynced); returns the file's size.
 */
export async function writeParquetPartition(tableDir: string, dir: string, meta: { readonly columns: readonly { readonly name: string; readonly type: ColumnType }[]; readonly timestampIndex: number }, columns: readonly Vector[], rows: number): Promise<number> {
  const path = `${tableDir}/${dir}`
  io.rmSync(path)
  io.mkdirSync(path)
  // under another name until whole: a reader globbing the data directory for data.parquet never sees it half written
  const partial = `${path}/${PARQUET_PARTITION_FILE}.partial`
  const fd = io.openSync(partial, 'w')
  let bytes = 0
  try {
    const w = await ParquetBatchWriter.open(meta.columns, meta.timestampIndex, {
      write: (b) => { for (let at = 0; at < b.length;) at += io.writeSync(fd, b.subarray(at), bytes + at); bytes += b.length },
    }, { compressionCodec: 'snappy', rowGroupSize: 100_000 })
    for (let at = 0; at < rows; at += BATCH_SIZE) {
      const end = Math.min(rows, at + BATCH_SIZE)
      await w.push({ length: end - at, vectors: columns.map((v) => sliceVector(v, at, end)) })
    }
    await w.finish()
    io.fsyncSync(fd)
  } finally {
    io.closeSync(fd)
  }
  io.renameSync(partial, `${path}/${PARQUET_PARTITION_FILE}`)
  fsyncDir(path)
  return bytes
}
