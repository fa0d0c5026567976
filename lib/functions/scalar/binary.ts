/**
 * BINARY helpers: base64(bin, maxLength) and from_base64(text). Browser-safe (no Buffer).
 */
import type { ScalarFunctionDef } from '../registry-types.js'

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const DECODE = new Int16Array(128).fill(-1)
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i

/** Standard base64 (with padding) of `b`. */
export function toBase64(b: Uint8Array): string {
  let out = ''
  let i = 0
  for (; i + 2 < b.length; i += 3) {
    const n = (b[i]! << 16) | (b[i + 1]! << 8) | b[i + 2]!
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!
  }
  if (i < b.length) {
    const n = (b[i]! << 16) | ((b[i + 1] ?? 0) << 8)
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + (i + 1 < b.length ? ALPHABET[(n >> 6) & 63]! : '=') + '='
  }
  return out
}

/** Decodes standard base64 (padding optional, whitespace ignored); null when malformed. */
export function fromBase64(s: string): Uint8Array | null {
  const clean = s.replace(/\s+/g, '').replace(/=+$/, '')
  if (clean.length % 4 === 1) return null
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4))
  let bits = 0
  let acc = 0
  let o = 0
  for (let i = 0; i < clean.length; i++) {
    const c = clean.charCodeAt(i)
    const v = c < 128 ? DECODE[c]! : -1
    if (v < 0) return null
    acc = (acc << 6) | v
    bits += 6
    if (bits >= 8) { bits -= 8; out[o++] = (acc >> bits) & 255 }
  }
  return out.subarray(0, o)
}

/** The BINARY functions. */
export const BINARY_FUNCTIONS: readonly ScalarFunctionDef[] = [
  {
    kind: 'scalar', name: 'base64', family: 'binary',
    description: 'Base64 text of the first maxLength bytes of a BINARY value.',
    example: "SELECT base64(from_base64('MTIzNA=='), 100)",
    signatures: [{ args: ['BINARY', 'INT'], constant: [1], returns: 'STRING' }],
    row: ([b, max]) => toBase64((b as Uint8Array).subarray(0, Math.max(0, Number(max)))),
  },
  {
    kind: 'scalar', name: 'from_base64', family: 'binary',
    description: 'The BINARY value encoded by base64 text (null when the text is not base64).',
    example: "SELECT from_base64('MTIzNA==')",
    signatures: [{ args: ['STRING'], returns: 'BINARY' }],
    row: ([s]) => fromBase64(s as string),
  },
]
