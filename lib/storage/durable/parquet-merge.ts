/**
 * Writes a partition back to Parquet after writes made it column files, reusing the row groups
 * of its previous Parquet file that the writes did not reach (as QuestDB rewrites only the row
 * groups out-of-order rows land in, and appends new ones).
 *
 * The partition's rows now are its old file's rows plus rows added since (out-of-order appends
 * to a table without DEDUP: rows are only ever added, see `PartitionEntry.parquetFrom`). An old
 * row group whose designated-timestamp range `[min, max]` holds exactly as many rows now as it
 * had is therefore unchanged, row for row: its bytes are copied as they are. The rows between
 * such groups (the groups new rows landed in, with those rows, and rows in the gaps) are encoded
 * as new row groups. The result is a new file in a new directory; nothing the old file's
 * directory holds is changed.
 */
import { closeSync, fstatSync, openSync } from 'node:fs'
import { type FileMetaData, type ParquetParsers, type RowGroup, parquetMetadata } from 'hyparquet'
import { io } from './io.js'
import { PARQUET_PARTITION_FILE } from './table-files.js'
import { ParquetBatchWriter } from '../../parquet/writer.js'
import { readChunkBytes } from '../../parquet/chunk-bytes.js'
import { exactDecimalStats } from '../../parquet/decimal-stats.js'
import { type EpochFooter, FOOTER_KEY } from '../../parquet/schema.js'
import type { ColumnType } from '../../types/column-type.js'
import { touches } from './parquet-keep.js'
import { BATCH_SIZE, type Vector, materialize, sliceVector } from '../../types/vector.js'

/** Rows per newly encoded row group (as CONVERT PARTITION writes them). */
export const PARTITION_ROW_GROUP = 100_000

/** A row group smaller than this is re-encoded with late rows next to it rather than kept beside a new group (QuestDB's threshold). */
export const SMALL_ROW_GROUP = 4096

/** Statistics kept as the file stores them (bytes, integers), so a copied group's footer entry is written back exactly (DECIMAL ones: {@link exactDecimalStats}). */
const KEEP_PARSERS: Partial<ParquetParsers> = {
  timestampFromMilliseconds: (v: bigint) => v,
  timestampFromMicroseconds: (v: bigint) => v,
  timestampFromNanoseconds: (v: bigint) => v,
  dateFromDays: (d: number) => d,
  stringFromBytes: (b: Uint8Array) => b as unknown as string,
}

/** A run of the new rows: encoded anew, or one old row group copied. */
export type MergeSegment =
  | { readonly kind: 'encode'; readonly start: number; readonly end: number }
  | { readonly kind: 'copy'; readonly start: number; readonly end: number; readonly group: number }

/** What {@link writeMergedPartition} did. */
export interface MergeResult {
  /** the file's size */
  readonly bytes: number
  /** old row groups copied as they were */
  readonly copied: number
  /** rows encoded anew */
  readonly encodedRows: number
}

interface Columns {
  readonly columns: readonly { readonly name: string; readonly type: ColumnType }[]
  readonly timestampIndex: number
}

/** The footer of the Parquet file at `path`, or undefined when it cannot be read (the partition is then encoded whole). */
export function readOldFooter(path: string): FileMetaData | undefined {
  let fd: number
  try { fd = openSync(path, 'r') } catch { return undefined }
  try {
    const size = fstatSync(fd).size
    if (size < 12) return undefined
    const tail = readChunkBytes(fd, size - 8, 8, path)
    const view = new DataView(tail.buffer, tail.byteOffset, 8)
    if (view.getUint32(4, true) !== 0x31524150) return undefined
    const len = view.getUint32(0, true)
    if (len + 12 > size) return undefined
    const footer = readChunkBytes(fd, size - 8 - len, len + 8, path)
    const md = parquetMetadata(footer.buffer.slice(footer.byteOffset, footer.byteOffset + footer.length) as ArrayBuffer, { parsers: KEEP_PARSERS })
    exactDecimalStats(md, footer.subarray(0, len))
    return md
  } catch {
    return undefined
  } finally {
    closeSync(fd)
  }
}

/** True when the old file was written for exactly these columns (the `epochdb` footer entry). */
function sameColumns(md: FileMetaData, meta: Columns): boolean {
  const kv = md.key_value_metadata?.find((k) => k.key === FOOTER_KEY)?.value
  if (kv === undefined) return false
  let f: EpochFooter
  try { f = JSON.parse(kv) as EpochFooter } catch { return false }
  return f.timestamp === meta.timestampIndex && f.columns.length === meta.columns.length &&
    f.columns.every((c, i) => c.name === meta.columns[i]!.name && c.type === meta.columns[i]!.type)
}

/** The byte range `[from, to)` of a row group's column chunks, or undefined when its entry does not say. */
function groupRange(g: RowGroup, fileSize: number): { from: number; to: number } | undefined {
  let from = Infinity
  let to = -Infinity
  for (const c of g.columns) {
    const md = c.meta_data
    if (md === undefined || c.file_path !== undefined) return undefined
    let start = md.data_page_offset
    if (md.dictionary_page_offset !== undefined && md.dictionary_page_offset > 0n && md.dictionary_page_offset < start) start = md.dictionary_page_offset
    const s = Number(start)
    const e = s + Number(md.total_compressed_size)
    if (s < from) from = s
    if (e > to) to = e
  }
  return from >= 4 && to <= fileSize && from < to ? { from, to } : undefined
}

/** A group's timestamp bound in µs (`ns`: given in nanoseconds, floored). */
function micros(x: bigint, ns: boolean): number {
  return Number(ns ? (x < 0n ? (x - 999n) / 1000n : x / 1000n) : x)
}

/** First index in `d[0, n)` with `d[i] >= x` (`after`: `> x`). */
function bound(d: ArrayLike<number | bigint>, n: number, x: number | bigint, after: boolean): number {
  let lo = 0
  let hi = n
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    const v = d[mid]!
    if (after ? v <= x : v < x) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * The segments of the partition's `rows` rows (designated timestamps `ts`, ascending): old row
 * groups of `md` found unchanged among them, copied; the rest encoded. `md` undefined: all encoded.
 */
export function planMerge(md: FileMetaData | undefined, meta: Columns, ts: Vector | undefined, rows: number, dirty?: readonly number[], small = SMALL_ROW_GROUP): MergeSegment[] {
  const out: MergeSegment[] = []
  let at = 0
  if (md !== undefined && ts !== undefined && sameColumns(md, meta)) {
    const d = materialize(ts).data as ArrayLike<number | bigint>
    const big = typeof d[0] === 'bigint'
    const leaf = meta.columns[meta.timestampIndex]!.name
    md.row_groups.forEach((g, k) => {
      const st = g.columns.find((c) => c.meta_data?.path_in_schema[0] === leaf)?.meta_data?.statistics
      const lo = st?.min_value ?? st?.min
      const hi = st?.max_value ?? st?.max
      if (typeof lo !== 'bigint' || typeof hi !== 'bigint' || g.num_rows <= 0n) return
      // rows a DEDUP append may have replaced (ranges in µs; a TIMESTAMP_NS group's bounds floored)
      if (dirty !== undefined && touches(dirty, micros(lo, big), micros(hi, big))) return
      const a = bound(d, rows, big ? lo : Number(lo), false)
      const b = bound(d, rows, big ? hi : Number(hi), true)
      // exactly its rows, after what is already placed: the group is unchanged
      if (a < at || BigInt(b - a) !== g.num_rows) return
      if (a > at) out.push({ kind: 'encode', start: at, end: a })
      out.push({ kind: 'copy', start: a, end: b, group: k })
      at = b
    })
  }
  if (at < rows || rows === 0) out.push({ kind: 'encode', start: at, end: rows })
  return absorbSmall(out, small)
}

/**
 * Copied groups of fewer than `small` rows next to encoded rows are encoded with them (as QuestDB
 * merges late rows in a gap into a small neighbouring group), so rows landing again and again
 * between the same groups do not leave a trail of tiny row groups.
 */
function absorbSmall(segments: readonly MergeSegment[], small: number): MergeSegment[] {
  const encode = segments.map((s, i) => s.kind === 'encode' || (s.end - s.start < small &&
    (segments[i - 1]?.kind === 'encode' || segments[i + 1]?.kind === 'encode')))
  const out: MergeSegment[] = []
  segments.forEach((s, i) => {
    const last = out[out.length - 1]
    if (!encode[i]) out.push(s)
    else if (last !== undefined && last.kind === 'encode' && last.end === s.start) out[out.length - 1] = { kind: 'encode', start: last.start, end: s.end }
    else out.push({ kind: 'encode', start: s.start, end: s.end })
  })
  return out
}

/** The name a partition's new Parquet file is written under, in its directory, until renamed to `data.parquet` (no reader globbing the data directory for `data.parquet` sees it half written). */
export const PARTIAL_FILE = `${PARQUET_PARTITION_FILE}.partial`

/**
 * Writes the partition whose columns are `columns` (each `rows` long) as `<tableDir>/<dir>/`{@link PARTIAL_FILE},
 * durably (fsynced; the caller renames it into place), copying the unchanged row groups of the
 * Parquet file at `oldPath` (undefined, unreadable or of other columns: every row encoded) that
 * the ranges `dirty` (a DEDUP table's, see parquet-keep.ts `addDirty`) do not meet. `dir` is
 * created if missing. Awaits between row groups (their pages compress on the worker threads),
 * so the event loop keeps serving meanwhile.
 */
export async function writeMergedPartition(tableDir: string, dir: string, meta: Columns, columns: readonly Vector[], rows: number, oldPath: string | undefined, dirty?: readonly number[]): Promise<MergeResult> {
  const md = oldPath === undefined ? undefined : readOldFooter(oldPath)
  const segments = planMerge(md, meta, meta.timestampIndex < 0 ? undefined : columns[meta.timestampIndex], rows, dirty)
  const path = `${tableDir}/${dir}`
  io.mkdirSync(path)
  const fd = io.openSync(`${path}/${PARTIAL_FILE}`, 'w')
  const oldFd = segments.some((s) => s.kind === 'copy') ? openSync(oldPath!, 'r') : undefined
  let bytes = 0
  let copied = 0
  let encodedRows = 0
  try {
    const oldSize = oldFd === undefined ? 0 : fstatSync(oldFd).size
    const w = await ParquetBatchWriter.open(meta.columns, meta.timestampIndex, {
      write: (b) => { for (let at = 0; at < b.length;) at += io.writeSync(fd, b.subarray(at), bytes + at); bytes += b.length },
    }, { compressionCodec: 'snappy', rowGroupSize: 2 * PARTITION_ROW_GROUP })
    for (const s of segments) {
      const g = s.kind === 'copy' ? md!.row_groups[s.group]! : undefined
      const range = g === undefined ? undefined : groupRange(g, oldSize)
      if (g !== undefined && range !== undefined) {
        await w.copyRowGroup(readChunkBytes(oldFd!, range.from, range.to - range.from, oldPath!), g, range.from)
        copied++
        continue
      }
      // encoded (also a group whose bytes cannot be located: its rows are the same), in groups of about
      // PARTITION_ROW_GROUP rows: a group and the few rows that landed in it stay one group
      const n = s.end - s.start
      const k = Math.max(1, Math.round(n / PARTITION_ROW_GROUP))
      for (let j = 0; j < k; j++) {
        const from = s.start + Math.floor(n * j / k)
        const to = s.start + Math.floor(n * (j + 1) / k)
        for (let at = from; at < to; at += BATCH_SIZE) {
          const end = Math.min(to, at + BATCH_SIZE)
          await w.push({ length: end - at, vectors: columns.map((v) => sliceVector(v, at, end)) })
        }
        await w.endRowGroup()
      }
      encodedRows += n
    }
    await w.finish()
    // on the thread pool: appends and queries go on while the disk syncs
    await io.fsync(fd)
  } finally {
    io.closeSync(fd)
    if (oldFd !== undefined) closeSync(oldFd)
  }
  return { bytes, copied, encodedRows }
}
