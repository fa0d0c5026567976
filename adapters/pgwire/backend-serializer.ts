/**
 * Serializes backend messages (server → client) into a {@link BufferWriter}. Mirror image of
 * node-postgres's `pg-protocol/src/serializer.ts`, which writes the frontend side. DataRows
 * are written by `data-row-writer.ts`.
 */
import type { BufferWriter } from './buffer-writer.js'
import type { FormatCode, TxStatus } from './messages.js'

/** One column of a RowDescription. */
export interface FieldDescription {
  readonly name: string
  readonly tableOid: number
  readonly attribute: number
  readonly typeOid: number
  readonly typeSize: number
  readonly typeModifier: number
  readonly format: FormatCode
}

/** The fields of an ErrorResponse or NoticeResponse. */
export interface ErrorFields {
  readonly severity: 'ERROR' | 'FATAL' | 'NOTICE' | 'WARNING'
  readonly code: string
  readonly message: string
  /** 1-based character position in the query text */
  readonly position?: number
  readonly detail?: string
  readonly hint?: string
}

/** AuthenticationOk, or a request for a password / SASL step. */
export const auth = {
  ok: (w: BufferWriter): BufferWriter => w.begin('R').int32(0).end(),
  cleartext: (w: BufferWriter): BufferWriter => w.begin('R').int32(3).end(),
  sasl: (w: BufferWriter, mechanisms: readonly string[]): BufferWriter => {
    w.begin('R').int32(10)
    for (const m of mechanisms) w.cstring(m)
    return w.byte(0).end()
  },
  saslContinue: (w: BufferWriter, data: string): BufferWriter => w.begin('R').int32(11).bytes(Buffer.from(data)).end(),
  saslFinal: (w: BufferWriter, data: string): BufferWriter => w.begin('R').int32(12).bytes(Buffer.from(data)).end(),
} as const

/** ParameterStatus `S`. */
export function parameterStatus(w: BufferWriter, name: string, value: string): BufferWriter {
  return w.begin('S').cstring(name).cstring(value).end()
}

/** BackendKeyData `K`. */
export function backendKeyData(w: BufferWriter, pid: number, secret: number): BufferWriter {
  return w.begin('K').int32(pid).int32(secret).end()
}

/** ReadyForQuery `Z`. */
export function readyForQuery(w: BufferWriter, status: TxStatus): BufferWriter {
  return w.begin('Z').byte(status.charCodeAt(0)).end()
}

/** RowDescription `T`. */
export function rowDescription(w: BufferWriter, fields: readonly FieldDescription[]): BufferWriter {
  w.begin('T').int16(fields.length)
  for (const f of fields) {
    w.cstring(f.name).int32(f.tableOid).int16(f.attribute).int32(f.typeOid).int16(f.typeSize).int32(f.typeModifier).int16(f.format)
  }
  return w.end()
}

/** ParameterDescription `t`. */
export function parameterDescription(w: BufferWriter, oids: readonly number[]): BufferWriter {
  w.begin('t').int16(oids.length)
  for (const o of oids) w.int32(o)
  return w.end()
}

/** A message with no body: ParseComplete `1`, BindComplete `2`, CloseComplete `3`, NoData `n`, EmptyQueryResponse `I`, PortalSuspended `s`. */
export function empty(w: BufferWriter, code: '1' | '2' | '3' | 'n' | 'I' | 's'): BufferWriter {
  return w.begin(code).end()
}

/** CommandComplete `C`. */
export function commandComplete(w: BufferWriter, tag: string): BufferWriter {
  return w.begin('C').cstring(tag).end()
}

/** ErrorResponse `E` (or NoticeResponse `N` when `notice`). */
export function errorResponse(w: BufferWriter, e: ErrorFields, notice = false): BufferWriter {
  w.begin(notice ? 'N' : 'E')
  w.byte(0x53).cstring(e.severity) // S
  w.byte(0x56).cstring(e.severity) // V (non-localized severity)
  w.byte(0x43).cstring(e.code) // C
  w.byte(0x4d).cstring(e.message) // M
  if (e.detail !== undefined) w.byte(0x44).cstring(e.detail) // D
  if (e.hint !== undefined) w.byte(0x48).cstring(e.hint) // H
  if (e.position !== undefined && e.position > 0) w.byte(0x50).cstring(String(e.position)) // P
  return w.byte(0).end()
}
