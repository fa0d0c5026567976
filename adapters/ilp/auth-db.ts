/**
 * QuestDB's ILP/TCP authentication keys (`line.tcp.auth.db.path`): one key per line,
 * `<keyId> ec-p-256-sha256 <x> <y>` with the P-256 public point's coordinates in base64url;
 * `#` starts a comment; blank lines are skipped. A duplicate key id or a line of another shape
 * refuses the whole file, as QuestDB does.
 */
import { createPublicKey, randomInt, verify, type KeyObject } from 'node:crypto'

/** Public keys by key id. */
export type AuthKeys = ReadonlyMap<string, KeyObject>

/** Parses an auth db file's text. Throws with the line number of a bad line. */
export function parseAuthDb(text: string): AuthKeys {
  const keys = new Map<string, KeyObject>()
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/#.*/, '').trim()
    if (line === '') return
    const parts = line.split(/\s+/)
    if (parts.length !== 4 || parts[1] !== 'ec-p-256-sha256') throw new Error(`line.tcp.auth.db.path: line ${i + 1}: expected "<keyId> ec-p-256-sha256 <x> <y>"`)
    const [id, , x, y] = parts as [string, string, string, string]
    if (keys.has(id)) throw new Error(`line.tcp.auth.db.path: line ${i + 1}: duplicate key id ${id}`)
    try {
      keys.set(id, createPublicKey({ key: { kty: 'EC', crv: 'P-256', x, y }, format: 'jwk' }))
    } catch (e) {
      throw new Error(`line.tcp.auth.db.path: line ${i + 1}: invalid public key for ${id}: ${(e as Error).message}`)
    }
  })
  return keys
}

/** Bytes of the challenge QuestDB sends (printable ASCII), before its newline. */
export const CHALLENGE_LENGTH = 512

/** A fresh challenge: 512 random printable ASCII bytes (0x20–0x7E). */
export function newChallenge(): Buffer {
  const b = Buffer.allocUnsafe(CHALLENGE_LENGTH)
  for (let i = 0; i < b.length; i++) b[i] = 0x20 + randomInt(0x7f - 0x20)
  return b
}

/**
 * True when `signatureBase64` (standard base64) is `key`'s ECDSA-SHA256 signature of
 * `challenge`: 64 bytes are raw r‖s, anything else DER (as QuestDB reads them); an all-zero
 * signature never matches.
 */
export function checkSignature(key: KeyObject, challenge: Buffer, signatureBase64: string): boolean {
  if (signatureBase64.length > 96) return false
  const sig = Buffer.from(signatureBase64, 'base64')
  if (sig.length === 0 || sig.every((b) => b === 0)) return false
  try {
    return verify('sha256', challenge, { key, dsaEncoding: sig.length === 64 ? 'ieee-p1363' : 'der' }, sig)
  } catch {
    return false
  }
}
