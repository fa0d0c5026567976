/**
 * CRC-32 (IEEE 802.3, the zlib polynomial) for WAL record checksums: node's native `zlib.crc32`
 * where the runtime has it (node >= 20.15, several GB/s), else a slicing-by-4 table in JS.
 * Both continue a running checksum, so a record written as several pieces is summed piece by
 * piece without joining them.
 */
import * as zlib from 'node:zlib'

const T = new Int32Array(1024)
for (let n = 0; n < 256; n++) {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  T[n] = c
}
for (let n = 0; n < 256; n++) {
  for (let s = 1; s < 4; s++) T[s * 256 + n] = (T[(s - 1) * 256 + n]! >>> 8) ^ T[T[(s - 1) * 256 + n]! & 0xff]!
}

/** The JS CRC-32 of `data` continuing from `prev` (the checksum of the bytes before it; 0 to start). */
export function crc32Js(data: Uint8Array, prev = 0): number {
  let c = ~prev
  let i = 0
  const n = data.length
  const end4 = n - (n & 3)
  for (; i < end4; i += 4) {
    c ^= data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24)
    c = T[768 + (c & 0xff)]! ^ T[512 + ((c >>> 8) & 0xff)]! ^ T[256 + ((c >>> 16) & 0xff)]! ^ T[c >>> 24]!
  }
  for (; i < n; i++) c = T[(c ^ data[i]!) & 0xff]! ^ (c >>> 8)
  return (c ^ -1) >>> 0
}

const native = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32

/**
 * The CRC-32 of `data` as an unsigned 32-bit number (zlib's value), continuing from `prev`:
 * `crc32(b, crc32(a))` is the checksum of `a` followed by `b`.
 */
export function crc32(data: Uint8Array, prev = 0): number {
  return native !== undefined ? native(data, prev) >>> 0 : crc32Js(data, prev)
}
