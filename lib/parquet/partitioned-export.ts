/**
 * A result split into one Parquet file per time partition, as QuestDB's COPY TO writes a
 * partitioned export: `<partition name>.parquet` (the partition directories' names: `2024-01-15`,
 * `2024-01`, `2024-W03`, ...) inside a directory. The rows come in designated-timestamp order (the
 * engine's guarantee for a designated timestamp), so each partition's rows are contiguous: one
 * file is open at a time, finished (synced) when the next partition's first row arrives. A
 * partition that is already one Parquet file can come instead of its rows ({@link CopiedPartition}):
 * its bytes are copied as they are, as QuestDB's COPY does.
 */
import { read } from 'node:fs'
import { mkdir, open } from 'node:fs/promises'
import { promisify } from 'node:util'
import { join } from 'node:path'
import { SqlError, SqlState } from '../errors.js'
import type { Execution } from '../result.js'
import type { PartitionUnit } from '../sql/ast.js'
import { partitionName, partitionOf } from '../storage/partition-key.js'
import { type Batch, sliceVector } from '../types/vector.js'
import { ParquetBatchWriter, type ParquetWriteOptions } from './writer.js'

/** One file a partitioned export wrote. */
export interface PartitionFile {
  /** the partition's name, the file's name without `.parquet` */
  readonly name: string
  readonly rows: number
}

/**
 * A partition stored as one Parquet file (written by this engine for the export's columns),
 * copied into the export byte for byte instead of its rows being encoded again.
 */
export interface CopiedPartition {
  /** an open descriptor of the file (its opener closes it) */
  readonly fd: number
  /** a timestamp (µs) of the partition: its partition names the file */
  readonly ts: number
  /** its rows */
  readonly rows: number
}

/** What a partitioned export writes: the result's columns and its rows, in timestamp order, as batches and whole partitions. */
export interface PartitionedRows extends Pick<Execution, 'columns' | 'types' | 'timestampIndex'> {
  readonly batches: AsyncIterable<Batch | CopiedPartition>
}

const readAt = promisify(read)

/** Bytes copied per read. */
const COPY_CHUNK = 1 << 20

/** Microseconds of row `i` of a designated timestamp column (TIMESTAMP or TIMESTAMP_NS). */
function micros(data: Float64Array | BigInt64Array, i: number, nanos: boolean): number {
  const x = data[i]!
  if (typeof x === 'bigint') return Number(nanos ? (x < 0n ? (x - 999n) / 1000n : x / 1000n) : x)
  return nanos ? Math.floor(x / 1000) : x
}

/** An open partition file. */
interface Open {
  readonly name: string
  readonly lo: number
  readonly hi: number
  readonly writer: ParquetBatchWriter
  readonly fh: import('node:fs/promises').FileHandle
}

/**
 * Writes `ex`'s rows into `dir` (created), one `<partition>.parquet` per `unit` partition of its
 * designated timestamp (`ex.timestampIndex`, which must be set); resolves to the files written,
 * in order. A partition without rows has no file.
 */
export async function writePartitionedParquet(ex: PartitionedRows, dir: string, unit: Exclude<PartitionUnit, 'NONE'>, options: ParquetWriteOptions = {}): Promise<PartitionFile[]> {
  const ti = ex.timestampIndex
  if (ti < 0) throw new SqlError(SqlState.INTERNAL_ERROR, 'a partitioned export needs a designated timestamp', -1)
  await mkdir(dir, { recursive: true })
  const columns = ex.columns.map((c, i) => ({ name: c.name, type: ex.types[i]! }))
  const nanos = ex.types[ti] === 'TIMESTAMP_NS'
  const files: PartitionFile[] = []
  let cur: Open | undefined
  const finish = async (): Promise<void> => {
    if (cur === undefined) return
    const c = cur
    cur = undefined
    await c.writer.finish()
    await c.fh.sync()
    await c.fh.close()
    files.push({ name: c.name, rows: c.writer.rows })
  }
  /** The partition of `ts`, and its name, after checking no file of it was written before. */
  const partition = (ts: number): { lo: number; hi: number; name: string } => {
    const b = partitionOf(ts, unit)
    const name = partitionName(b.lo, unit)
    // a partition seen before would be overwritten: the rows were not in timestamp order
    if (files.some((f) => f.name === name)) throw new SqlError(SqlState.INTERNAL_ERROR, `rows out of designated timestamp order [partition=${name}]`, -1)
    return { ...b, name }
  }
  const copy = async (p: CopiedPartition): Promise<void> => {
    await finish()
    const { name } = partition(p.ts)
    const fh = await open(join(dir, `${name}.parquet`), 'w')
    try {
      const buf = Buffer.allocUnsafe(COPY_CHUNK)
      for (let at = 0; ;) {
        const n = (await readAt(p.fd, buf, 0, COPY_CHUNK, at)).bytesRead
        if (n === 0) break
        for (let w = 0; w < n;) w += (await fh.write(buf, w, n - w)).bytesWritten
        at += n
      }
      await fh.sync()
    } finally {
      await fh.close()
    }
    files.push({ name, rows: p.rows })
  }
  const start = async (ts: number): Promise<Open> => {
    await finish()
    const { lo, hi, name } = partition(ts)
    const fh = await open(join(dir, `${name}.parquet`), 'w')
    const sink = { write: async (buf: Uint8Array) => { for (let at = 0; at < buf.length;) at += (await fh.write(buf, at, buf.length - at)).bytesWritten } }
    try {
      return cur = { name, lo, hi, fh, writer: await ParquetBatchWriter.open(columns, ti, sink, options) }
    } catch (err) {
      await fh.close()
      throw err
    }
  }
  try {
    for await (const batch of ex.batches) {
      if ('fd' in batch) { await copy(batch); continue }
      const ts = (batch.vectors[ti]! as { data: Float64Array | BigInt64Array }).data
      let from = 0
      while (from < batch.length) {
        const first = micros(ts, from, nanos)
        const open = cur !== undefined && first >= cur.lo && first < cur.hi ? cur : await start(first)
        let to = from + 1
        while (to < batch.length && micros(ts, to, nanos) < open.hi) to++
        const part: Batch = from === 0 && to === batch.length ? batch : { length: to - from, vectors: batch.vectors.map((v) => sliceVector(v, from, to)) }
        await open.writer.push(part)
        from = to
      }
    }
    await finish()
  } catch (err) {
    if (cur !== undefined) await cur.fh.close().catch(() => undefined)
    throw err
  }
  return files
}
