/// <reference lib="dom" />
/**
 * BINARY cells as hex. /exec writes every BINARY value as `[]` (as QuestDB does), so for a page
 * with BINARY columns the console asks for `base64(col, BINARY_BYTES)` of the same rows through
 * a wrapping query and shows the bytes as hex. When the wrapping query fails (a statement that is
 * not a SELECT, duplicate column names) the cells say so instead.
 */
import { exec, type ExecColumn } from './api.js'
import { quoteName } from './dom.js'

/** Bytes of each BINARY value fetched for display (and copy). */
export const BINARY_BYTES = 256

/** A BINARY value ready for display: the hex of its first bytes, or a note. */
export interface BinaryText {
  readonly binary: string
}

/** True when `v` is a {@link BinaryText}. */
export function isBinaryText(v: unknown): v is BinaryText {
  return typeof v === 'object' && v !== null && typeof (v as { binary?: unknown }).binary === 'string'
}

/** Hex of base64 text, bytes separated by spaces; `…` when the value was cut at {@link BINARY_BYTES}. */
export function base64ToHex(b64: string): string {
  const raw = atob(b64)
  let out = ''
  for (let i = 0; i < raw.length; i++) out += (i > 0 ? ' ' : '') + raw.charCodeAt(i).toString(16).padStart(2, '0')
  return raw.length >= BINARY_BYTES ? out + ' …' : out
}

/** Indexes of the BINARY columns. */
export function binaryColumns(columns: readonly ExecColumn[]): number[] {
  return columns.flatMap((c, j) => (c.type === 'BINARY' ? [j] : []))
}

/**
 * Rows `lo..hi` (1-based, inclusive) of `rows` with their BINARY columns replaced by
 * {@link BinaryText} values. Rejects on network failures (the caller keeps the rows as they are).
 */
export async function withBinaryHex(query: string, columns: readonly ExecColumn[], rows: readonly (readonly unknown[])[], lo: number, hi: number): Promise<(readonly unknown[])[]> {
  const cols = binaryColumns(columns)
  const inner = query.replace(/;\s*$/, '')
  const select = cols.map((j, k) => `base64(${quoteName(columns[j]!.name)}, ${BINARY_BYTES}) b${k}`).join(', ')
  const r = await exec(`select ${select} from (${inner})`, { lo, hi })
  const note: BinaryText = { binary: r.kind === 'error' ? `(binary: ${r.message})` : '(binary)' }
  return rows.map((row, i) => {
    const copy = [...row]
    for (const [k, j] of cols.entries()) {
      const v = r.kind === 'rows' ? r.dataset[i]?.[k] : undefined
      copy[j] = v === null ? null : typeof v === 'string' ? { binary: base64ToHex(v) } : note
    }
    return copy
  })
}
