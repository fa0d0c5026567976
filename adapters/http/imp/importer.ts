/**
 * One CSV import: detects the header and the column types from the first rows, creates (or
 * reuses, or with `overwrite` replaces) the table, then appends rows in batches through
 * `Database.append`. Bad values are counted per column; with `atomicity=skipCol` (default) the
 * value becomes null, with `skipRow` the row is rejected, with `abort` the import stops.
 */
import type { ColumnType, Database, Session } from '../../../lib/index.js'
import { type Cell, guessType, parseCell, widen } from './cells.js'

/** Rows read before the types are decided. */
export const SAMPLE_ROWS = 1000
/** Rows appended per `Database.append` call. */
export const APPEND_ROWS = 50_000

/** A column given by the `schema` part. */
export interface SchemaColumn {
  readonly name: string
  readonly type: string
}

/** What the request asks for. */
export interface ImportRequest {
  readonly table: string
  readonly timestamp: string | undefined
  readonly partitionBy: string
  readonly overwrite: boolean
  readonly forceHeader: boolean
  readonly atomicity: 'skipCol' | 'skipRow' | 'abort'
  readonly schema: readonly SchemaColumn[]
}

/** A column of the import with its error count. */
export interface ImportColumn {
  readonly name: string
  type: ColumnType
  errors: number
}

/** The outcome, as the response reports it. */
export interface ImportResult {
  readonly table: string
  readonly header: boolean
  readonly partitionBy: string
  readonly timestamp: string | undefined
  readonly rowsHandled: number
  readonly rowsImported: number
  readonly columns: readonly ImportColumn[]
  readonly warnings: readonly string[]
}

const ident = (s: string): string => '"' + s.replace(/"/g, '""') + '"'

/** Streams rows into one table. */
export class Importer {
  private sample: string[][] | undefined = []
  private columns: ImportColumn[] = []
  private header = false
  private buffers: Cell[][] = []
  private buffered = 0
  private handled = 0
  private imported = 0
  private tsIndex = -1
  private readonly warnings: string[] = []
  private partitionBy: string
  private timestamp: string | undefined

  constructor(private readonly db: Database, private readonly session: Session, private readonly r: ImportRequest) {
    this.partitionBy = r.partitionBy
    this.timestamp = r.timestamp
  }

  /** Takes parsed CSV rows. */
  async add(rows: string[][]): Promise<void> {
    if (this.sample !== undefined) {
      for (const row of rows) this.sample.push(row)
      if (this.sample.length < SAMPLE_ROWS) return
      await this.start()
      return
    }
    await this.rows(rows)
  }

  /** Ends the import and reports. */
  async finish(): Promise<ImportResult> {
    if (this.sample !== undefined) await this.start()
    await this.flush()
    return {
      table: this.r.table, header: this.header, partitionBy: this.partitionBy, timestamp: this.timestamp,
      rowsHandled: this.handled, rowsImported: this.imported, columns: this.columns, warnings: this.warnings,
    }
  }

  private async start(): Promise<void> {
    const sample = this.sample!
    this.sample = undefined
    if (sample.length === 0) throw new Error('no data in the upload')
    const width = sample[0]!.length
    this.header = this.r.forceHeader || looksLikeHeader(sample)
    const names = this.header ? sample[0]!.map((n, i) => n.trim() || `f${i}`) : Array.from({ length: width }, (_, i) => `f${i}`)
    const body = this.header ? sample.slice(1) : sample
    const existing = await this.tableColumns()
    if (existing !== undefined && !this.r.overwrite) {
      this.columns = names.map((n) => {
        const c = existing.find((e) => e.name.toLowerCase() === n.toLowerCase())
        if (c === undefined) throw new Error(`column not found in table ${this.r.table}: ${n}`)
        return { name: c.name, type: c.type, errors: 0 }
      })
      if (this.timestamp !== undefined || this.partitionBy !== 'NONE') this.warnings.push('Existing table timestamp column is used', 'Existing table PartitionBy is used')
    } else {
      this.columns = names.map((name, i) => ({ name, type: this.typeOf(name, i, body), errors: 0 }))
      if (this.timestamp !== undefined) {
        const c = this.columns.find((x) => x.name.toLowerCase() === this.timestamp!.toLowerCase())
        if (c === undefined) throw new Error(`timestamp column not found: ${this.timestamp}`)
        c.type = 'TIMESTAMP'
      } else if (this.partitionBy !== 'NONE') {
        throw new Error('partitionBy requires a designated timestamp column (timestamp=...)')
      }
      if (existing !== undefined) await this.db.query(`drop table ${ident(this.r.table)}`, [], { session: this.session })
      const cols = this.columns.map((c) => `${ident(c.name)} ${c.type}`).join(', ')
      const ts = this.timestamp === undefined ? '' : ` timestamp(${ident(this.timestamp)}) partition by ${this.partitionBy}`
      await this.db.query(`create table ${ident(this.r.table)} (${cols})${ts}`, [], { session: this.session })
    }
    this.tsIndex = this.timestamp === undefined ? -1 : this.columns.findIndex((c) => c.name.toLowerCase() === this.timestamp!.toLowerCase())
    this.buffers = this.columns.map(() => [])
    await this.rows(body)
  }

  private typeOf(name: string, i: number, rows: readonly string[][]): ColumnType {
    const given = this.r.schema.find((s) => s.name.toLowerCase() === name.toLowerCase())
    if (given !== undefined) {
      const t = given.type.toUpperCase()
      return (t === 'IPV4' ? 'IPV4' : t) as ColumnType
    }
    let type: ColumnType | undefined
    const distinct = new Set<string>()
    let n = 0
    for (const row of rows) {
      const v = row[i]
      if (v === undefined || v.length === 0) continue
      type = widen(type, guessType(v))
      distinct.add(v)
      n++
    }
    if (type === undefined) return 'STRING'
    if (type === 'STRING') return distinct.size <= Math.ceil(n * 0.75) && distinct.size <= 10_000 ? 'SYMBOL' : 'STRING'
    return type
  }

  private async tableColumns(): Promise<{ name: string; type: ColumnType }[] | undefined> {
    // a literal, not $1: the engine does not bind parameters inside table-function arguments yet
    const name = "'" + this.r.table.replace(/'/g, "''") + "'"
    const r = await this.db.query(`select "column", type from table_columns(${name})`, [], { session: this.session }).catch(() => undefined)
    if (r === undefined || r.rows.length === 0) return undefined
    return r.rows.map((row) => ({ name: String(row[0]), type: (String(row[1]) === 'IPv4' ? 'IPV4' : String(row[1])) as ColumnType }))
  }

  private async rows(rows: readonly string[][]): Promise<void> {
    const cols = this.columns
    const n = cols.length
    for (const row of rows) {
      this.handled++
      if (row.length !== n) continue
      let bad = false
      const values: Cell[] = new Array(n)
      for (let c = 0; c < n; c++) {
        const v = parseCell(cols[c]!.type, row[c]!)
        if (v === undefined) {
          cols[c]!.errors++
          if (this.r.atomicity === 'abort') throw new Error(`bad value for column ${cols[c]!.name} at row ${this.handled}: '${row[c]}'`)
          bad = true
          values[c] = null
        } else values[c] = v
      }
      if ((bad && this.r.atomicity === 'skipRow') || (this.tsIndex >= 0 && values[this.tsIndex] === null)) continue
      for (let c = 0; c < n; c++) this.buffers[c]!.push(values[c]!)
      if (++this.buffered >= APPEND_ROWS) await this.flush()
    }
  }

  private async flush(): Promise<void> {
    if (this.buffered === 0) return
    const data: Record<string, ArrayLike<unknown>> = {}
    this.columns.forEach((c, i) => { data[c.name] = this.buffers[i]! })
    this.imported += await this.db.append(this.r.table, data, { session: this.session })
    this.buffers = this.columns.map(() => [])
    this.buffered = 0
  }
}

/** A first row of distinct non-empty texts over data that has some non-text column reads as a header. */
function looksLikeHeader(sample: readonly string[][]): boolean {
  const first = sample[0]!
  if (new Set(first).size !== first.length || first.some((f) => f.length === 0 || guessType(f) !== 'STRING')) return false
  if (sample.length === 1) return true
  return first.some((_, i) => sample.slice(1).some((row) => row[i] !== undefined && row[i]!.length > 0 && guessType(row[i]!) !== 'STRING'))
}
