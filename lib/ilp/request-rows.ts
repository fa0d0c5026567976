/**
 * The rows of one ILP request (or of one TCP commit), gathered per table as column vectors
 * while the lines are parsed: the {@link LineSink} of ingestion. Values are checked against
 * the column's type as QuestDB's appender checks them (same casts, same errors); columns and
 * tables the lines name that do not exist yet are given QuestDB's default types, to be created
 * when the request commits.
 */
import { isGeohash } from '../types/geohash.js'
import type { Catalog } from '../storage/catalog.js'
import type { TableMeta } from '../storage/table.js'
import { checkColumnName, checkTableName } from '../storage/names.js'
import { typeName, type ColumnType } from '../types/column-type.js'
import { arrayType } from '../types/array-type.js'
import type { DoubleArray } from '../types/array.js'
import { castScalar } from '../types/cast-scalar.js'
import { SqlError } from '../errors.js'
import { type ColumnBuilder, F64Builder, I64Builder, NsFromMicrosBuilder, ScalarBuilder, SymBuilder, builderFor } from './column-builder.js'
import { LineError } from './ilp-error.js'
import type { LineFastPath, LineSink } from './line-parser.js'
import { LineTemplate, type TemplateContext } from './line-template.js'
import { type DecimalValue, LAST_SUB_MICROS, parseDecimalText, type TimeUnit } from './number-bytes.js'
import { type DecimalType, decimalPrecision, decimalScale, decimalScalar, fitsPrecision, isDecimal, pow10n } from '../types/decimal.js'

/** One column of a table in the request. */
export interface RowsColumn {
  readonly name: string
  readonly key: string
  /** undefined for a new column that has had only null values so far */
  type: ColumnType | undefined
  /** true when the table does not have it yet */
  readonly isNew: boolean
  builder: ColumnBuilder | undefined
}

/** One table of the request. */
export interface TableRows {
  readonly name: string
  readonly key: string
  readonly nameBytes: Uint8Array
  /** the table's metadata when it exists (else it is created at commit) */
  readonly meta: TableMeta | undefined
  readonly columns: RowsColumn[]
  readonly byKey: Map<string, RowsColumn>
  /** the column named at each position of the last line (names compared as bytes) */
  readonly shape: (RowsColumn | undefined)[]
  /** the bytes of the name at each position of the last line */
  readonly shapeBytes: Uint8Array[]
  /** the designated timestamp column */
  readonly ts: RowsColumn | undefined
  rows: number
  /** rows every builder of the table has room for (grown together, once per doubling) */
  cap: number
  /** rows the table's last ILP batch had: the first growth goes straight there ({@link rememberBatchRows}) */
  readonly hint: number
}

/** What ILP may do to the catalog (QuestDB's `line.auto.create.*`). */
export interface RowsOptions {
  readonly autoCreateTables: boolean
  readonly autoCreateColumns: boolean
  readonly maxNameLength: number
  /** the server clock in microseconds (rows without a timestamp) */
  readonly clock: () => number
  /**
   * the type of a created table's designated timestamp when its first line does not say the unit
   * (`line.timestamp.default.column.type`; default TIMESTAMP)
   */
  readonly defaultTimestampType?: TimestampType
}

/** The column types a timestamp gets when ILP creates its column. */
export type TimestampType = 'TIMESTAMP' | 'TIMESTAMP_NS'

/**
 * The type of a timestamp column ILP creates, as QuestDB 9.1.1+ does: the precision the client
 * sent when the line says it (`n` is TIMESTAMP_NS; `t`, `m` and the binary coarser units are
 * TIMESTAMP), else (a designated timestamp as a bare number, or none) the configured default.
 */
export function newTimestampType(unit: TimeUnit | undefined, fallback: TimestampType): TimestampType {
  return unit === undefined ? fallback : unit === 'n' ? 'TIMESTAMP_NS' : 'TIMESTAMP'
}

/** Column types of new columns by the protocol type of their first value (QuestDB's defaults). */
const NEW_TYPE = { TAG: 'SYMBOL', FLOAT: 'DOUBLE', INTEGER: 'LONG', STRING: 'VARCHAR', BOOLEAN: 'BOOLEAN', TIMESTAMP: 'TIMESTAMP', LONG256: 'LONG256' } as const satisfies Record<string, ColumnType>
type Protocol = keyof typeof NEW_TYPE

const INT_RANGE: Partial<Record<ColumnType, readonly [number, number]>> = { BYTE: [-128, 127], SHORT: [-32768, 32767], INT: [-2147483648, 2147483647] }

/** The {@link LineSink} gathering a request's rows. */
export class RequestRows implements LineSink {
  /** tables in the order the lines first name them */
  readonly tables = new Map<string, TableRows>()
  private last: TableRows | undefined
  private cur!: TableRows
  private row = 0
  private pos = 0
  private col: RowsColumn | undefined
  /** a line has started (its table named) and not ended: what {@link abortLine} undoes */
  private inLine = false
  /** what the line templates of {@link fastPath} share */
  private templates: TemplateContext | undefined

  constructor(private readonly catalog: Catalog, private readonly o: RowsOptions) {}

  /** Rows gathered so far, over every table. */
  get rowCount(): number {
    let n = 0
    for (const t of this.tables.values()) n += t.rows
    return n
  }

  table(buf: Uint8Array, s: number, e: number, same: boolean): void {
    let t = this.last
    if (t === undefined || (!same && !sameBytes(t.nameBytes, buf, s, e))) {
      const name = text(buf, s, e)
      const key = name.toLowerCase()
      t = this.tables.get(key) ?? this.open(name, key, buf.slice(s, e))
      this.last = t
    }
    this.cur = t
    this.row = t.rows
    if (this.row >= t.cap) grow(t)
    this.pos = 0
    this.inLine = true
  }

  private open(name: string, key: string, nameBytes: Uint8Array): TableRows {
    try { checkTableName(name, -1, this.o.maxNameLength) } catch (e) { throw new LineError(`table: ${name}; ${(e as Error).message}`) }
    const existing = this.catalog.find(name)
    const matView = this.catalog.matViews.find(name)
    if (matView !== undefined) throw new LineError(`table: ${name}; cannot modify materialized view [view=${matView.name}]`)
    let t: TableRows
    if (existing === undefined) {
      if (!this.o.autoCreateTables) throw new LineError(`table: ${name}; table does not exist, creating new tables is disabled`)
      if (!this.o.autoCreateColumns) throw new LineError(`table: ${name}; table does not exist, cannot create table, creating new columns is disabled`)
      const ts = column('timestamp', 'TIMESTAMP', true)
      ts.builder = builderFor('TIMESTAMP')
      t = { name, key, nameBytes, meta: undefined, columns: [], byKey: new Map([['timestamp', ts]]), shape: [], shapeBytes: [], ts, rows: 0, cap: INITIAL_ROWS, hint: 0 }
    } else {
      const meta = existing.meta
      const cols = meta.columns.map((c) => column(c.name, c.type, false))
      const ts = meta.timestampIndex >= 0 ? cols[meta.timestampIndex] : undefined
      if (ts !== undefined) ts.builder = builderFor(ts.type!)
      t = { name: meta.name, key, nameBytes, meta, columns: cols, byKey: new Map(cols.map((c) => [c.key, c])), shape: [], shapeBytes: [], ts, rows: 0, cap: INITIAL_ROWS, hint: batchRows.get(existing) ?? 0 }
    }
    this.tables.set(key, t)
    return t
  }

  column(buf: Uint8Array, s: number, e: number, _tag: boolean, same: boolean): void {
    const t = this.cur
    const pos = this.pos++
    let c = t.shape[pos]
    if (c === undefined || (!same && !sameBytes(t.shapeBytes[pos]!, buf, s, e))) {
      const name = text(buf, s, e)
      const key = name.toLowerCase()
      c = t.byKey.get(key) ?? this.addColumn(t, name, key)
      t.shape[pos] = c
      t.shapeBytes[pos] = buf.slice(s, e)
    }
    if (t.meta === undefined && c === t.ts && !t.columns.includes(c)) t.columns.push(c)
    // a name given twice in a line: the first value wins
    this.col = c.builder !== undefined && c.builder.lastRow === this.row ? undefined : c
  }

  private addColumn(t: TableRows, name: string, key: string): RowsColumn {
    try { checkColumnName(name, -1, this.o.maxNameLength) } catch { throw new LineError(t.meta === undefined ? `invalid column name: ${name}` : `table: ${t.name}; invalid column name: ${name}`) }
    if (!this.o.autoCreateColumns) throw new LineError(`table: ${t.name}, column: ${name} does not exist, creating new columns is disabled`)
    const c = column(name, undefined, true)
    t.columns.push(c)
    t.byKey.set(key, c)
    return c
  }

  /** The builder the current value goes to (undefined: skip it), its type decided by a first value. */
  private slot(protocol: Protocol): ColumnBuilder | undefined {
    const c = this.col
    if (c === undefined) return undefined
    if (c.type === undefined) c.type = NEW_TYPE[protocol]
    const b = c.builder ?? this.newBuilder(c)
    b.lastRow = this.row
    return b
  }

  /** The builder of a column's first value, with room for the table's rows. */
  private newBuilder(c: RowsColumn): ColumnBuilder {
    const b = c.builder = builderFor(c.type!)
    b.reserve(this.cur.cap - 1)
    return b
  }

  private castError(protocol: string): LineError {
    const c = this.col!
    return new LineError(`table: ${this.cur.name}, column: ${c.name}; cast error from protocol type: ${protocol} to column type: ${typeName(c.type!)}`)
  }

  symbol(buf: Uint8Array, s: number, e: number): void {
    const b = this.slot('TAG')
    if (b === undefined) return
    if (b instanceof SymBuilder) b.setBytes(this.row, buf, s, e)
    else if (b.type === 'STRING' || b.type === 'VARCHAR') (b as ScalarBuilder).set(this.row, text(buf, s, e))
    else throw this.castError('TAG')
  }

  float(v: number): void {
    const b = this.slot('FLOAT')
    if (b === undefined) return
    if (b instanceof F64Builder) b.data[this.row] = v
    else if (b.type === 'FLOAT') (b as ScalarBuilder).set(this.row, v)
    else if (b instanceof SymBuilder) b.setText(this.row, String(v))
    else if (isDecimal(b.type)) this.setDecimal(b as ScalarBuilder, parseDecimalText(String(v)) ?? null)
    else throw this.castError('FLOAT')
  }

  integer(v: number | bigint): void {
    const b = this.slot('INTEGER')
    if (b === undefined) return
    if (b instanceof I64Builder) b.set(this.row, v)
    else if (b instanceof F64Builder) b.data[this.row] = Number(v)
    else if (b instanceof SymBuilder) b.setText(this.row, String(v))
    else if (b.type === 'FLOAT') (b as ScalarBuilder).set(this.row, Number(v))
    else {
      if (isDecimal(b.type)) { (b as ScalarBuilder).set(this.row, this.toDecimal({ unscaled: BigInt(v), scale: 0 }, b.type)); return }
      const range = INT_RANGE[b.type]
      if (range === undefined) throw this.castError('INTEGER')
      if (typeof v === 'bigint' || v < range[0] || v > range[1]) throw new LineError(`table: ${this.cur.name}, column: ${this.col!.name}; line protocol value: ${v} is out bounds of column type: ${b.type}`)
      ;(b as ScalarBuilder).set(this.row, v)
    }
  }

  string(v: string): void {
    const b = this.slot('STRING')
    if (b === undefined) return
    switch (b.type) {
      case 'VARCHAR': case 'STRING': (b as ScalarBuilder).set(this.row, v); return
      case 'SYMBOL': (b as SymBuilder).setText(this.row, v); return
      case 'CHAR':
        if (v.length > 1) throw this.castError('STRING')
        ;(b as ScalarBuilder).set(this.row, v.length === 0 ? null : v)
        return
      case 'UUID': case 'IPV4': case 'LONG256':
        try { (b as ScalarBuilder).set(this.row, castScalar(v, 'STRING', b.type)) } catch (e) { if (e instanceof SqlError) throw this.castError('STRING'); throw e }
        return
      default: {
        // GEOHASH: the text's leading bits at the column's precision; invalid, short or empty text is null
        if (isGeohash(b.type)) { (b as ScalarBuilder).set(this.row, castScalar(v, 'STRING', b.type, 'null')); return }
        if (!isDecimal(b.type)) throw this.castError('STRING')
        const d = parseDecimalText(v)
        if (d === undefined) throw this.castError('STRING')
        this.setDecimal(b as ScalarBuilder, d)
      }
    }
  }

  /**
   * A protocol-3 decimal: only into a DECIMAL column that exists (QuestDB never creates one from
   * ILP), rescaled to the column's scale; digits lost or a value past the precision are errors.
   */
  decimal(v: DecimalValue | null): void {
    const c = this.col
    if (c === undefined) return
    if (v === null) { this.col = undefined; return }
    const t = this.cur
    if (c.type === undefined) {
      if (t.meta === undefined) throw new LineError(`table: ${t.name}; decimal columns must be created manually: ${c.name}`)
      throw new LineError(`decimal columns cannot be created automatically [table=${t.name}, columnName=${c.name}]`, 500, 'internal error')
    }
    const b = c.builder ?? this.newBuilder(c)
    b.lastRow = this.row
    if (!isDecimal(b.type)) throw this.castError('DECIMAL')
    this.setDecimal(b as ScalarBuilder, v)
  }

  private setDecimal(b: ScalarBuilder, v: DecimalValue | null): void {
    b.set(this.row, v === null ? null : this.toDecimal(v, b.type as DecimalType))
  }

  /** `v` as a value of the column's DECIMAL type. */
  private toDecimal(v: DecimalValue, type: DecimalType): number | bigint | string {
    const s = decimalScale(type)
    let u = v.unscaled
    if (v.scale < s) u *= pow10n(s - v.scale)
    else if (v.scale > s) {
      const d = pow10n(v.scale - s)
      if (u % d !== 0n) throw new LineError(`table: ${this.cur.name}, column: ${this.col!.name}; decimal value would lose precision in column type: ${type}`)
      u /= d
    }
    if (!fitsPrecision(u, decimalPrecision(type))) throw new LineError(`table: ${this.cur.name}, column: ${this.col!.name}; decimal value does not fit column type: ${type} (DECIMAL_OVERFLOW)`)
    return decimalScalar(u, type)
  }

  boolean(v: boolean): void {
    const b = this.slot('BOOLEAN')
    if (b === undefined) return
    if (b.type === 'BOOLEAN') (b as ScalarBuilder).set(this.row, v)
    else if (b instanceof I64Builder && b.type === 'LONG') b.set(this.row, v ? 1 : 0)
    else if (b instanceof F64Builder) b.data[this.row] = v ? 1 : 0
    else if (b instanceof SymBuilder) b.setText(this.row, String(v))
    else if (b.type === 'BYTE' || b.type === 'SHORT' || b.type === 'INT' || b.type === 'FLOAT') (b as ScalarBuilder).set(this.row, v ? 1 : 0)
    else throw this.castError('BOOLEAN')
  }

  timestamp(micros: number, unit?: TimeUnit): void {
    const c = this.col
    if (c === undefined) return
    // a column ILP creates takes the precision the value was sent in
    if (c.type === undefined) c.type = newTimestampType(unit, 'TIMESTAMP')
    else if (c === this.cur.ts) this.typeNewTs(newTimestampType(unit, 'TIMESTAMP'))
    const b = this.slot('TIMESTAMP')
    if (b === undefined) return
    if (b instanceof NsFromMicrosBuilder) { b.set(this.row, micros); b.sub[this.row] = LAST_SUB_MICROS.nanos } else if (b instanceof I64Builder && b.type === 'TIMESTAMP') b.set(this.row, micros)
    else if (b instanceof I64Builder && b.type === 'DATE') b.set(this.row, Math.floor(micros / 1000))
    else if (b instanceof SymBuilder) b.setText(this.row, String(micros))
    else throw this.castError('TIMESTAMP')
  }

  long256(hex: string): void {
    const b = this.slot('LONG256')
    if (b === undefined) return
    if (b.type === 'LONG256') (b as ScalarBuilder).set(this.row, castScalar(hex, 'STRING', 'LONG256'))
    else if (b instanceof SymBuilder) b.setText(this.row, hex)
    else throw this.castError('LONG256')
  }

  array(v: DoubleArray | null): void {
    const c = this.col
    if (c === undefined) return
    if (v === null) { if (c.type === undefined) return; this.col = undefined; return }
    // a new column takes the incoming dimension count; an existing one must have exactly it
    if (c.type === undefined) c.type = arrayType(v.dims)
    const b = c.builder ?? this.newBuilder(c)
    if (c.type !== arrayType(v.dims)) throw this.castError(`DOUBLE${'[]'.repeat(v.dims)}`)
    b.lastRow = this.row
    ;(b as ScalarBuilder).set(this.row, v)
  }

  nul(): void {
    this.col = undefined
  }

  endLine(micros: number, unit?: TimeUnit): void {
    const t = this.cur
    const ts = t.ts
    if (ts !== undefined) {
      if (ts.builder!.lastRow !== this.row) this.typeNewTs(newTimestampType(Number.isNaN(micros) ? undefined : unit, this.o.defaultTimestampType ?? 'TIMESTAMP'))
      const b = ts.builder as I64Builder
      // a TIMESTAMP_NS designated timestamp keeps the nanoseconds of the line's `n` timestamp
      // a TIMESTAMP_NS timestamp of -1..-999 ns is 0 µs here, yet before 1970 (QuestDB checks the value in the column's unit)
      const nsBelowZero = b instanceof NsFromMicrosBuilder && b.lastRow !== this.row && !Number.isNaN(micros) && LAST_SUB_MICROS.negative
      if (b instanceof NsFromMicrosBuilder && b.lastRow !== this.row) b.sub[this.row] = Number.isNaN(micros) ? 0 : LAST_SUB_MICROS.nanos
      if (b.lastRow === this.row) micros = b.data[this.row]!
      else if (Number.isNaN(micros)) micros = this.o.clock()
      if (micros < 0 || nsBelowZero) {
        // the value in the column's unit, as QuestDB reports it
        const shown = nsBelowZero ? String(BigInt(micros) * 1000n - BigInt(LAST_SUB_MICROS.negativeNanos)) : b instanceof NsFromMicrosBuilder ? String(BigInt(micros) * 1000n) : String(micros)
        throw new LineError(`table: ${t.name}, timestamp: ${shown}; designated timestamp before 1970-01-01 is not allowed`)
      }
      if (micros === Infinity) throw new LineError(`table: ${t.name}; designated timestamp overflow`)
      b.data[this.row] = micros
      b.lastRow = this.row
    }
    t.rows++
    this.inLine = false
  }

  /**
   * Gives the designated timestamp of a table this request creates the type its first line asks
   * for (before any row is in its builder; later lines do not change it).
   */
  private typeNewTs(type: TimestampType): void {
    const t = this.cur
    const ts = t.ts!
    if (t.meta !== undefined || t.rows > 0 || ts.type === type) return
    ts.type = type
    ts.builder = builderFor(type)
    ts.builder.reserve(t.cap - 1)
  }

  /** A template of the line just ended (line-template.ts), for the parser's fast path. */
  fastPath(buf: Uint8Array, s: number, e: number, unit: TimeUnit): LineFastPath | undefined {
    if (this.inLine) return undefined
    const ctx = this.templates ??= { unit, clock: this.o.clock, grow }
    return LineTemplate.of(buf, s, e, this.cur, ctx.unit === unit ? ctx : { ...ctx, unit })
  }

  abortLine(): void {
    // a line cut before its table name leaves the previous, complete line alone
    if (!this.inLine) return
    this.inLine = false
    // the columns this line set are the ones whose last row is this one
    for (const c of this.cur.byKey.values()) {
      const b = c.builder
      if (b !== undefined && b.lastRow === this.row) { b.clear(this.row); b.lastRow = -1 }
    }
  }
}

/** Rows a table's builders start with room for. */
const INITIAL_ROWS = 1024

/**
 * Rows of each table's last ILP batch: clients send batches of one size (the Node client's
 * `auto_flush_rows`, 75,000), so the next batch's builders grow to it at once instead of
 * doubling from {@link INITIAL_ROWS} (seven copies of every column, and their garbage).
 */
const batchRows = new WeakMap<object, number>()

/** Remembers that `table` (a catalog table) was given `rows` rows by ILP (see {@link TableRows.hint}). */
export function rememberBatchRows(table: object, rows: number): void {
  batchRows.set(table, rows)
}

/** Doubles the room of every builder of `t` (at the first growth: at least the table's last batch). */
function grow(t: TableRows): void {
  t.cap = t.cap === INITIAL_ROWS ? Math.max(2 * t.cap, t.hint) : 2 * t.cap
  for (const c of t.byKey.values()) c.builder?.reserve(t.cap - 1)
}

function column(name: string, type: ColumnType | undefined, isNew: boolean): RowsColumn {
  return { name, key: name.toLowerCase(), type, isNew, builder: undefined }
}

function text(buf: Uint8Array, s: number, e: number): string {
  return Buffer.from(buf.buffer, buf.byteOffset + s, e - s).toString('utf8')
}

function sameBytes(ref: Uint8Array, buf: Uint8Array, s: number, e: number): boolean {
  if (ref.length !== e - s) return false
  for (let i = 0; i < ref.length; i++) if (ref[i] !== buf[s + i]) return false
  return true
}
