/**
 * `LineWriter`: InfluxDB Line Protocol ingestion of one stream of bytes (an HTTP request body
 * or a TCP connection) into the database, as QuestDB's ILP endpoints write.
 *
 * Bytes are parsed as they arrive ({@link LineWriter.write}); the rows are gathered per table
 * and nothing reaches a table before {@link LineWriter.commit}: then missing tables and columns
 * are created (with the principal's CREATE TABLE / ADD COLUMN permissions), INSERT is checked,
 * every table gets its rows in one columnar append, and one group commit of the WAL makes them
 * durable. An error in any line fails the whole batch with nothing written (the HTTP request is
 * all or nothing); the line's number is in the error.
 */
import type { Catalog } from '../storage/catalog.js'
import type { AccessControl } from '../security/acl/access-control.js'
import type { Principal } from '../session.js'
import { SqlError, SqlState } from '../errors.js'
import { allocate, type Vector } from '../types/vector.js'
import type { Table } from '../storage/table.js'
import { IlpError, LineError } from './ilp-error.js'
import { LineParser } from './line-parser.js'
import type { TimeUnit } from './number-bytes.js'
import { RequestRows, rememberBatchRows, type TableRows } from './request-rows.js'

/** Partitioning of tables ILP creates (`line.default.partition.by`). */
export type LinePartitionBy = 'NONE' | 'HOUR' | 'DAY' | 'WEEK' | 'MONTH' | 'YEAR'

/** Options of {@link Database.lineWriter}. */
export interface LineWriterOptions {
  /** unit of designated timestamps without a suffix: HTTP's `precision` (default `n`), TCP's `line.tcp.timestamp` */
  readonly precision?: TimeUnit
  /** create tables a line names that do not exist (`line.auto.create.new.tables`, default true) */
  readonly autoCreateTables?: boolean
  /** add columns a line names that do not exist (`line.auto.create.new.columns`, default true) */
  readonly autoCreateColumns?: boolean
  /** partitioning of created tables (`line.default.partition.by`, default DAY) */
  readonly partitionBy?: LinePartitionBy
  /** the longest line, in bytes; a longer one fails with 413 `request too large` (default 64 MiB) */
  readonly maxLineBytes?: number
  /**
   * the designated timestamp type of a table created by a line whose timestamp has no unit suffix
   * (or no timestamp): `line.timestamp.default.column.type`, default TIMESTAMP. A suffixed
   * timestamp (`n`, or `t` / `m`) always creates TIMESTAMP_NS, or TIMESTAMP, as QuestDB 9.1.1+.
   */
  readonly defaultTimestampType?: 'TIMESTAMP' | 'TIMESTAMP_NS'
}

/** What the writer needs of the database. @internal */
export interface LineWriterContext {
  readonly catalog: Catalog
  readonly acl: AccessControl
  readonly principal: Principal
  readonly clock: () => number
  readonly maxNameLength: number
  /** runs a DDL statement as the writer's session */
  readonly ddl: (sql: string) => Promise<unknown>
  /** the group commit */
  readonly sync: () => Promise<void>
}

const NEWLINE = Buffer.from('\n')

/** Line ends tried when joining an incomplete line with the next chunk, before joining the whole chunk. */
const JOIN_TRIES = 4

/** The first `\n` or `\r` of `buf` from `from`, or -1. */
function lineEnd(buf: Buffer, from: number): number {
  const nl = buf.indexOf(10, from)
  const cr = buf.indexOf(13, from)
  return nl < 0 ? cr : cr < 0 ? nl : Math.min(nl, cr)
}

/** Ingestion of one stream of line-protocol bytes; see the module comment. */
export class LineWriter {
  private rows: RequestRows
  private parser: LineParser
  /** bytes of an incomplete line, waiting for the rest */
  private tail: Buffer[] = []
  private tailBytes = 0
  private readonly maxLineBytes: number
  private readonly partitionBy: LinePartitionBy
  private failed = false

  constructor(private readonly ctx: LineWriterContext, private readonly options: LineWriterOptions = {}) {
    this.maxLineBytes = options.maxLineBytes ?? 64 * 1024 * 1024
    this.partitionBy = options.partitionBy ?? 'DAY'
    this.rows = this.newRows()
    this.parser = new LineParser(this.rows, options.precision ?? 'n', this.maxLineBytes)
  }

  private newRows(): RequestRows {
    return new RequestRows(this.ctx.catalog, {
      autoCreateTables: this.options.autoCreateTables ?? true, autoCreateColumns: this.options.autoCreateColumns ?? true,
      maxNameLength: this.ctx.maxNameLength, clock: this.ctx.clock, defaultTimestampType: this.options.defaultTimestampType ?? 'TIMESTAMP',
    })
  }

  /** Rows parsed and not yet committed. */
  get pendingRows(): number {
    return this.rows.rowCount
  }

  /** Non-empty lines parsed so far. */
  get lines(): number {
    return this.parser.lines
  }

  /** Parses a chunk of bytes. Throws an {@link IlpError} for a bad line; the writer is then spent. */
  write(chunk: Buffer): void {
    if (this.failed) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'line writer failed before')
    let from = 0
    if (this.tailBytes > 0) {
      // the incomplete line goes on unless this chunk holds a line end (binary values may fake one)
      let cut = lineEnd(chunk, 0)
      if (cut < 0) {
        this.tail.push(chunk)
        this.tailBytes += chunk.length
        this.checkLine()
        return
      }
      // the line joined with this chunk up to a line end, not the whole chunk (no copy of it)
      for (let tries = 0; ; tries++) {
        cut = tries < JOIN_TRIES && cut >= 0 ? cut + 1 : chunk.length
        const tailBytes = this.tailBytes
        const joined = Buffer.concat([...this.tail, chunk.subarray(0, cut)], tailBytes + cut)
        const used = this.guard(() => this.parser.parse(joined, 0, joined.length))
        // the line ended: the chunk is parsed from where the joined bytes stopped
        if (used >= tailBytes) { from = used - tailBytes; break }
        this.tail = [Buffer.from(joined.subarray(used, tailBytes))]
        this.tailBytes = tailBytes - used
        if (cut === chunk.length) {
          this.tail.push(chunk)
          this.tailBytes += chunk.length
          this.checkLine()
          return
        }
        // that line end was a byte of a binary value: up to the next one
        cut = used > 0 ? -1 : lineEnd(chunk, cut)
      }
      this.tail = []
      this.tailBytes = 0
    }
    const used = this.guard(() => this.parser.parse(chunk, from, chunk.length))
    if (used < chunk.length) {
      this.tail.push(Buffer.from(chunk.subarray(used)))
      this.tailBytes = chunk.length - used
      this.checkLine()
    }
  }

  private checkLine(): void {
    if (this.tailBytes > this.maxLineBytes) {
      this.failed = true
      throw new IlpError(413, 'request too large', `transaction is too large, either flush more frequently or increase buffer size "line.http.max.recv.buffer.size" [maxBufferSize=${this.maxLineBytes}]`, undefined, SqlState.PROGRAM_LIMIT_EXCEEDED)
    }
  }

  /** Runs the parser, turning a line's error into an {@link IlpError} with its number. */
  private guard(run: () => number): number {
    try {
      return run()
    } catch (e) {
      this.failed = true
      this.rows.abortLine()
      if (e instanceof LineError) throw new IlpError(e.status, e.ilpCode, e.message, this.parser.lines, e.code)
      if (e instanceof SqlError) throw new IlpError(400, 'invalid', e.message, this.parser.lines, e.code)
      throw e
    }
  }

  /**
   * The end of the stream: a last line without its newline is taken as complete (QuestDB's
   * HTTP endpoint appends one); then {@link commit}.
   */
  async end(): Promise<number> {
    if (this.failed) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'line writer failed before')
    if (this.tailBytes > 0) {
      const rest = Buffer.concat([...this.tail, NEWLINE])
      this.tail = []
      this.tailBytes = 0
      const used = this.guard(() => this.parser.parse(rest, 0, rest.length))
      if (used < rest.length) { this.failed = true; throw new IlpError(400, 'invalid', 'Could not parse entire line', this.parser.lines + 1) }
    }
    return this.commit()
  }

  /** Drops an incomplete last line (a TCP peer gone mid-line): what {@link commit} then writes is the complete lines. */
  dropIncomplete(): number {
    const n = this.tailBytes
    this.tail = []
    this.tailBytes = 0
    return n
  }

  /**
   * Writes the rows of the complete lines parsed so far (an incomplete last line stays for the
   * next bytes): creates missing tables and columns, appends, awaits the group commit. Returns
   * the rows written. After a bad line (TCP) it writes the complete lines before it.
   */
  async commit(): Promise<number> {
    const tables = [...this.rows.tables.values()].filter((t) => t.rows > 0)
    // the next lines go to fresh builders; the parser keeps counting lines
    this.rows = this.newRows()
    const lines = this.parser.lines
    this.parser = Object.assign(new LineParser(this.rows, this.options.precision ?? 'n', this.maxLineBytes), { lines })
    if (tables.length === 0) return 0
    try {
      for (const t of tables) await this.ensureSchema(t)
      const appends = tables.map((t) => this.vectors(t))
      let n = 0
      for (const a of appends) {
        const release = a.table.writers.tryShare() ?? await a.table.writers.share()
        // in memory, a large request goes in a slice per turn of the event loop (other clients are
        // answered meanwhile; readers see its rows at once); durable: its commit does the same
        try { await a.table.appendInTurns(a.vectors, a.length) } finally { release() }
        rememberBatchRows(a.table, a.length)
        n += a.length
      }
      await this.ctx.sync()
      return n
    } catch (e) {
      throw commitError(e)
    }
  }

  /** Creates the table and the columns `t` needs that do not exist (DDL is not undone by a later failure, as in QuestDB). */
  private async ensureSchema(t: TableRows): Promise<void> {
    const cols = t.columns.filter((c) => c.isNew && c.type !== undefined)
    // an external (OIDC) user is never stored, so it cannot own the table or the columns it
    // creates: SQL CREATE TABLE and ADD COLUMN would ask for OWNED BY; auto-creation names the
    // built-in admin, which adds no grants, and INSERT then comes from the user's groups
    const owner = this.ctx.acl.enabled && this.ctx.principal.kind === 'external' ? ` owned by ${quote(this.ctx.acl.adminName)}` : ''
    if (t.meta === undefined) {
      const ts = t.ts!
      const all = t.columns.includes(ts) ? cols : [...cols, ts]
      const part = this.partitionBy === 'NONE' ? '' : ` partition by ${this.partitionBy} wal`
      await this.ctx.ddl(`create table if not exists ${quote(t.name)} (${all.map((c) => `${quote(c.name)} ${ddlType(c.type!)}`).join(', ')}) timestamp(${quote(ts.name)})${part}${owner}`)
    }
    const table = this.ctx.catalog.get(t.name)
    for (const c of cols) {
      if (table.meta.columns.some((m) => m.name.toLowerCase() === c.key)) continue
      await this.ctx.ddl(`alter table ${quote(table.meta.name)} add column ${quote(c.name)} ${ddlType(c.type!)}${owner}`)
    }
  }

  /** The table's vectors for `t`'s rows, in column order; checks INSERT on the columns given. */
  private vectors(t: TableRows): { table: Table; vectors: Vector[]; length: number } {
    const table = this.ctx.catalog.get(t.name)
    const meta = table.meta
    const named: string[] = []
    const vectors = meta.columns.map((m, i) => {
      const c = t.byKey.get(m.name.toLowerCase())
      if (c === undefined || c.builder === undefined) return allocate(m.type, t.rows, table.dictOf(i))
      if (c.type !== m.type) throw new LineError(`table: ${meta.name}, column: ${m.name}; cast error from protocol type to column type: ${m.type} (the column was changed during the request)`)
      named.push(m.name)
      return c.builder.finish(t.rows, table.dictOf(i))
    })
    this.ctx.acl.authorize(this.ctx.principal, [{ permission: 'INSERT', table: meta.name, columns: named }])
    return { table, vectors, length: t.rows }
  }
}

function quote(name: string): string {
  return `"${name.replace(/"/g, '""')}"`
}

function ddlType(type: string): string {
  return type === 'SYMBOL' ? 'symbol capacity 256 cache' : type.toLowerCase()
}

/** QuestDB's status and code for a failure while writing: 403 for permissions, 400 for data, 500 otherwise. */
function commitError(e: unknown): unknown {
  if (e instanceof IlpError) return e
  if (e instanceof LineError) return new IlpError(e.status, e.ilpCode, e.message)
  if (!(e instanceof SqlError)) return e
  if (e.code === SqlState.INSUFFICIENT_PRIVILEGE) return new IlpError(403, 'unauthorised', e.message, undefined, e.code)
  const server = e.code.startsWith('5') || e.code.startsWith('XX')
  return new IlpError(server ? 500 : 400, server ? 'internal error' : 'invalid', e.message, undefined, e.code)
}
