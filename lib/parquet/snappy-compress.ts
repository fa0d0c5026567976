/**
 * Snappy compression (the raw block format Parquet's SNAPPY codec uses) into one preallocated
 * buffer: the Parquet export's compressor, in place of hyparquet-writer's byte-at-a-time one.
 *
 * The input is cut into 64 KiB fragments as the reference implementation does (offsets then fit
 * two bytes and the hash table is a small `Uint16Array` reset per fragment); matches are found
 * through a hash of the next four bytes, and the lookups skip ahead faster the longer nothing
 * matches. When the first fragment of an input saves under 1/32 of its size, the rest of that
 * input is written as literals (a page holds one column: what did not compress at its start
 * rarely does later), so incompressible data (many doubles) costs about a copy.
 */

const FRAGMENT = 1 << 16
const HASH_BITS = 14
const HASH_SHIFT = 32 - HASH_BITS
/** the last bytes of a fragment are always a literal (room for the four-byte loads) */
const INPUT_MARGIN = 15

/** positions (within the fragment) by hash of their next four bytes, reset per fragment */
const table = new Uint16Array(1 << HASH_BITS)

function load32(b: Uint8Array, i: number): number {
  return b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24)
}

function hash(x: number): number {
  return Math.imul(x, 0x1e35a7bd) >>> HASH_SHIFT
}

/** The largest output of {@link snappyCompress} for `n` input bytes. */
export function maxCompressedLength(n: number): number {
  return 32 + n + Math.ceil(n / 6)
}

/** `input` Snappy-compressed. */
export function snappyCompress(input: Uint8Array): Uint8Array {
  const out = new Uint8Array(maxCompressedLength(input.length))
  // the uncompressed length as a varint
  let op = 0
  let n = input.length
  while (n >= 0x80) { out[op++] = (n & 0x7f) | 0x80; n >>>= 7 }
  out[op++] = n
  for (let start = 0; start < input.length; start += FRAGMENT) {
    const end = Math.min(input.length, start + FRAGMENT)
    const before = op
    op = fragment(input, start, end, out, op)
    // a first fragment that saved under 1/32 of its size says the data (a page of one column)
    // does not compress: the rest goes as literals, at the speed of a copy
    if (start === 0 && end < input.length && (op - before) * 32 > (end - start) * 31) {
      for (let s = end; s < input.length; s += FRAGMENT) op = literal(input, s, Math.min(input.length, s + FRAGMENT), out, op)
      break
    }
  }
  return out.subarray(0, op)
}

/** Compresses `input[start, end)` (at most 64 KiB) into `out` at `op`; returns the new end. */
function fragment(input: Uint8Array, start: number, end: number, out: Uint8Array, op: number): number {
  let nextEmit = start
  if (end - start >= INPUT_MARGIN) {
    const t = table
    t.fill(0)
    const limit = end - INPUT_MARGIN
    let ip = start + 1
    let nextHash = hash(load32(input, ip))
    for (;;) {
      // find a four-byte match, looking further apart the longer none is found
      let skip = 32
      let nextIp = ip
      let candidate = 0
      for (;;) {
        ip = nextIp
        const h = nextHash
        nextIp = ip + (skip++ >>> 5)
        if (nextIp > limit) return literal(input, nextEmit, end, out, op)
        nextHash = hash(load32(input, nextIp))
        candidate = start + t[h]!
        t[h] = ip - start
        if (load32(input, ip) === load32(input, candidate) && candidate < ip) break
      }
      op = literal(input, nextEmit, ip, out, op)
      // copies while the data keeps matching
      for (;;) {
        const base = ip
        let matched = 4
        while (ip + matched < end && input[ip + matched] === input[candidate + matched]) matched++
        ip += matched
        op = copy(out, op, base - candidate, matched)
        nextEmit = ip
        if (ip >= limit) return literal(input, nextEmit, end, out, op)
        // hash the position just before, then try the current one right away
        t[hash(load32(input, ip - 1))] = ip - 1 - start
        const h = hash(load32(input, ip))
        candidate = start + t[h]!
        t[h] = ip - start
        if (candidate >= ip || load32(input, ip) !== load32(input, candidate)) break
      }
      ip++
      nextHash = hash(load32(input, ip))
    }
  }
  return literal(input, nextEmit, end, out, op)
}

/** A literal of `input[from, to)` (nothing when empty). */
function literal(input: Uint8Array, from: number, to: number, out: Uint8Array, op: number): number {
  const len = to - from
  if (len === 0) return op
  const n = len - 1
  if (n < 60) out[op++] = n << 2
  else if (n < 0x100) { out[op++] = 60 << 2; out[op++] = n }
  else if (n < 0x10000) { out[op++] = 61 << 2; out[op++] = n & 0xff; out[op++] = n >>> 8 }
  else if (n < 0x1000000) { out[op++] = 62 << 2; out[op++] = n & 0xff; out[op++] = (n >>> 8) & 0xff; out[op++] = n >>> 16 }
  else { out[op++] = 63 << 2; out[op++] = n & 0xff; out[op++] = (n >>> 8) & 0xff; out[op++] = (n >>> 16) & 0xff; out[op++] = n >>> 24 }
  if (len < 16) { for (let i = 0; i < len; i++) out[op + i] = input[from + i]! } else out.set(input.subarray(from, to), op)
  return op + len
}

/** Copies of `len` bytes from `offset` back (offset < 65536). */
function copy(out: Uint8Array, op: number, offset: number, len: number): number {
  while (len >= 68) { out[op++] = 2 | (63 << 2); out[op++] = offset & 0xff; out[op++] = offset >>> 8; len -= 64 }
  if (len > 64) { out[op++] = 2 | (59 << 2); out[op++] = offset & 0xff; out[op++] = offset >>> 8; len -= 60 }
  if (len < 12 && offset < 2048) {
    out[op++] = 1 | ((len - 4) << 2) | ((offset >>> 8) << 5)
    out[op++] = offset & 0xff
  } else {
    out[op++] = 2 | ((len - 1) << 2)
    out[op++] = offset & 0xff
    out[op++] = offset >>> 8
  }
  return op
}
