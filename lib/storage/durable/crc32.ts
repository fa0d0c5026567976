/**
 * CRC-32 (IEEE 802.3, the zlib polynomial), slicing-by-4, for WAL record checksums.
 */
const T = new Int32Array(1024)
for (let n = 0; n < 256; n++) {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  T[n] = c
}
for (let n = 0; n < 256; n++) {
  for (let s = 1; s < 4; s++) T[s * 256 + n] = (T[(s - 1) * 256 + n]! >>> 8) ^ T[T[(s - 1) * 256 + n]! & 0xff]!
}

/** The CRC-32 of `data`, as an unsigned 32-bit number (same value as zlib's crc32). */
export function crc32(data: Uint8Array): number {
  let c = -1
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
