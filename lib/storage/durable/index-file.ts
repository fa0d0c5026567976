/**
 * Symbol index files: the persisted form of a partition's {@link SymbolPostings} for one indexed
 * SYMBOL column, `<column>.i` in the partition directory.
 *
 * The file is a run of blocks, each indexing consecutive rows [from, to) of the partition: a
 * partition written at a checkpoint gets one block for all its rows, and rows appended to it in
 * place add a block. Block: a 24-byte header — magic `EIX1`, from, to, slots (symbol key + 1 for
 * each key, slot 0 = null), CRC-32 of the body, 0 — then a body of `slots + 1` uint32 offsets into
 * the rows (prefix sums of the per-slot counts) and the `to - from` row numbers grouped by slot,
 * ascending within each slot.
 *
 * An index file is a cache of what the key column says: it is trusted only as far as it is
 * provably the index of the rows `_meta` records. Blocks are read while each one's checksum
 * holds and it continues the previous one from row 0, and only up to the recorded row count;
 * a block past it (an append a crash interrupted) is ignored, and cut before the next block is
 * appended. Rows the file does not cover are indexed from the key column when read, and a file
 * that is missing or unreadable is rebuilt from it. The column's data never changes below the
 * recorded row count (table-files.ts), so a block that passes these checks cannot be stale.
 * Index files are not synced: one lost in a crash is rebuilt.
 */
import { SymbolPostings } from '../symbol-index.js'
import { crc32 } from './crc32.js'
import { io, writeAll } from './io.js'
import { type Steps, runSteps } from './steps.js'

const MAGIC = 0x31584945 // 'EIX1' little-endian
const HEAD = 24

/** The index file of column `column` in partition directory `dir`. */
export function indexFileOf(dir: string, column: string): string {
  return `${dir}/${column}.i`
}

/** Rows of a block built per step ({@link encodeIndexBlockSteps}): a few milliseconds of work each. */
const ROWS_PER_STEP = 1 << 19

/** Bytes of an index file written per step ({@link writeIndexFileSteps}). */
const BYTES_PER_STEP = 4 << 20

/** One block indexing rows [from, to) whose keys are `keys[row - from]`. */
export function encodeIndexBlock(keys: ArrayLike<number>, from: number, to: number): Uint8Array {
  return runSteps(encodeIndexBlockSteps(keys, from, to))
}

/**
 * {@link encodeIndexBlock} in steps of {@link ROWS_PER_STEP} rows (counted, then placed), so
 * that a checkpoint running in the background builds a large partition's index without holding
 * the event loop for it whole.
 */
export function* encodeIndexBlockSteps(keys: ArrayLike<number>, from: number, to: number): Steps<Uint8Array> {
  const n = to - from
  let maxKey = -1
  for (let i = 0; i < n; i++) if (keys[i]! > maxKey) maxKey = keys[i]!
  const slots = maxKey + 2
  const out = new Uint8Array(HEAD + (slots + 1) * 4 + n * 4)
  const offsets = new Uint32Array(out.buffer, HEAD, slots + 1)
  for (let lo = 0; lo < n; lo += ROWS_PER_STEP) {
    yield
    const hi = Math.min(n, lo + ROWS_PER_STEP)
    for (let i = lo; i < hi; i++) offsets[keys[i]! + 2]!++
  }
  for (let s = 1; s <= slots; s++) offsets[s] = offsets[s]! + offsets[s - 1]!
  const rows = new Int32Array(out.buffer, HEAD + (slots + 1) * 4, n)
  const at = offsets.slice(0, slots)
  for (let lo = 0; lo < n; lo += ROWS_PER_STEP) {
    yield
    const hi = Math.min(n, lo + ROWS_PER_STEP)
    for (let i = lo; i < hi; i++) rows[at[keys[i]! + 1]!++] = from + i
  }
  const dv = new DataView(out.buffer)
  dv.setUint32(0, MAGIC, true)
  dv.setUint32(4, from, true)
  dv.setUint32(8, to, true)
  dv.setUint32(12, slots, true)
  dv.setUint32(16, crc32(out.subarray(HEAD)), true)
  return out
}

interface Block { readonly from: number; readonly to: number; readonly offsets: Uint32Array; readonly rows: Int32Array; readonly end: number }

/** The valid blocks of `bytes` from row 0 up to row `rows`, and the byte offset where they end. */
function validBlocks(bytes: Uint8Array, rows: number): { blocks: Block[]; end: number } {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const blocks: Block[] = []
  let p = 0
  let covered = 0
  while (p + HEAD <= bytes.length) {
    if (dv.getUint32(p, true) !== MAGIC) break
    const from = dv.getUint32(p + 4, true)
    const to = dv.getUint32(p + 8, true)
    const slots = dv.getUint32(p + 12, true)
    const size = (slots + 1) * 4 + (to - from) * 4
    if (from !== covered || to < from || to > rows || slots === 0 || p + HEAD + size > bytes.length) break
    const body = bytes.subarray(p + HEAD, p + HEAD + size)
    if (crc32(body) !== dv.getUint32(p + 16, true)) break
    // copied out: the file's bytes need not be 4-aligned
    const words = new Uint32Array(size / 4)
    new Uint8Array(words.buffer).set(body)
    const offsets = words.subarray(0, slots + 1)
    if (offsets[slots] !== to - from) break
    const ids = new Int32Array(words.buffer, (slots + 1) * 4, to - from)
    let ok = true
    for (let i = 0; i < ids.length && ok; i++) ok = ids[i]! >= from && ids[i]! < to
    if (!ok) break
    blocks.push({ from, to, offsets, rows: ids, end: p + HEAD + size })
    covered = to
    p += HEAD + size
  }
  return { blocks, end: p }
}

/**
 * The postings read from an index file for a partition of `rows` rows, covering rows
 * [0, postings.indexed) — possibly fewer than `rows` (see the file comment); undefined when the
 * file is missing or holds no valid block.
 */
export function readIndexFile(file: string, rows: number): SymbolPostings | undefined {
  let bytes: Uint8Array
  try { bytes = io.readFileSync(file) } catch { return undefined }
  const { blocks } = validBlocks(bytes, rows)
  if (blocks.length === 0) return undefined
  let slots = 0
  for (const b of blocks) slots = Math.max(slots, b.offsets.length - 1)
  const lists: (Int32Array | undefined)[] = new Array(slots)
  for (let s = 0; s < slots; s++) {
    let n = 0
    for (const b of blocks) if (s < b.offsets.length - 1) n += b.offsets[s + 1]! - b.offsets[s]!
    if (n === 0) continue
    const ids = new Int32Array(n)
    let at = 0
    for (const b of blocks) {
      if (s >= b.offsets.length - 1) continue
      const part = b.rows.subarray(b.offsets[s]!, b.offsets[s + 1]!)
      ids.set(part, at)
      at += part.length
    }
    lists[s] = ids
  }
  return SymbolPostings.fromLists(lists, blocks[blocks.length - 1]!.to)
}

/** Writes an index file holding one block (replacing any), atomically; not synced (see the file comment). */
export function writeIndexFile(file: string, block: Uint8Array): void {
  runSteps(writeIndexFileSteps(file, block))
}

/** {@link writeIndexFile} in steps of {@link BYTES_PER_STEP} bytes. */
export function* writeIndexFileSteps(file: string, block: Uint8Array): Steps<void> {
  const tmp = `${file}.tmp`
  const fd = io.openSync(tmp, 'w')
  try {
    for (let p = 0; p < block.length; p += BYTES_PER_STEP) {
      if (p > 0) yield
      writeAll(fd, block.subarray(p, Math.min(block.length, p + BYTES_PER_STEP)), p)
    }
  } finally {
    io.closeSync(fd)
  }
  io.renameSync(tmp, file)
}

/**
 * Appends a block for rows [rows, ...) to the index file of a partition that had `rows` rows:
 * anything after the valid blocks covering exactly [0, rows) is cut first. Does nothing (and
 * returns false) when the file does not cover those rows: it is then rebuilt when next read.
 */
export function appendIndexBlock(file: string, rows: number, block: Uint8Array): boolean {
  let fd: number
  try { fd = io.openSync(file, 'r+') } catch { return false }
  try {
    // the headers alone tell where the blocks covering [0, rows) end (their bodies are checked when read)
    const head = new Uint8Array(HEAD)
    const dv = new DataView(head.buffer)
    let p = 0
    let covered = 0
    while (covered < rows) {
      if (io.readSync(fd, head, p) < HEAD || dv.getUint32(0, true) !== MAGIC || dv.getUint32(4, true) !== covered) return false
      const to = dv.getUint32(8, true)
      if (to <= covered || to > rows) return false
      p += HEAD + (dv.getUint32(12, true) + 1) * 4 + (to - covered) * 4
      covered = to
    }
    if (p > io.statSize(file)) return false
    io.ftruncateSync(fd, p)
    writeAll(fd, block, p)
    return true
  } finally {
    io.closeSync(fd)
  }
}
