/**
 * QuestDB's `Rnd.nextUtf8Str`: random text of `len` characters of 1 to 4 UTF-8 bytes, drawn
 * exactly as QuestDB draws them (rejection loops included), returned as a JS string.
 */
import type { Rnd } from './rnd.js'

/** `nextUtf8Byte(wipe, set)`: redraws until the masked low byte is non-zero, then sets `set`. */
function utf8Byte(rnd: Rnd, wipe: number, set: number): number {
  for (;;) {
    const k = rnd.nextInt() & ~wipe & 0xff
    if (k !== 0) return k | set
  }
}

function continuation(rnd: Rnd): number {
  return utf8Byte(rnd, 0xc0, 0x80)
}

/** One character of `nextUtf8Str`, as a string. */
function utf8Char(rnd: Rnd): string {
  const byteCount = Math.max(1, rnd.nextPositiveInt() % 5)
  switch (byteCount) {
    case 1:
      return String.fromCharCode(32 + (rnd.nextPositiveInt() % 95))
    case 2:
      for (;;) {
        const b1 = utf8Byte(rnd, 0xe0, 0xc0)
        const b2 = continuation(rnd)
        if ((b1 & 30) === 0) continue
        return String.fromCharCode(((b1 & 0x1f) << 6) | (b2 & 0x3f))
      }
    case 3:
      for (;;) {
        const b1 = utf8Byte(rnd, 0xf0, 0xe0)
        const b2 = continuation(rnd)
        const b3 = continuation(rnd)
        const c = ((b1 & 0x0f) << 12) | ((b2 & 0x3f) << 6) | (b3 & 0x3f)
        if (c >= 0xd800 && c <= 0xdfff) continue
        // QuestDB keeps overlong 3-byte forms (c < 0x800) as raw bytes; we keep the code point
        return String.fromCharCode(c)
      }
    default:
      for (;;) {
        const b1 = utf8Byte(rnd, 0xf8, 0xf0)
        const b2 = continuation(rnd)
        const b3 = continuation(rnd)
        const b4 = continuation(rnd)
        const cp = ((b1 & 0x07) << 18) | ((b2 & 0x3f) << 12) | ((b3 & 0x3f) << 6) | (b4 & 0x3f)
        if (cp >= 0x10000 && cp <= 0x10ffff) return String.fromCodePoint(cp)
      }
  }
}

/** `len` random UTF-8 characters (QuestDB's `nextUtf8Str`). */
export function nextUtf8Str(rnd: Rnd, len: number): string {
  let s = ''
  for (let i = 0; i < len; i++) s += utf8Char(rnd)
  return s
}
