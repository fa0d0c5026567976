/**
 * The query protocol of a logged-in connection: simple Query (multi-statement, stops at the
 * first error) and the extended protocol (Parse / Bind / Describe / Execute / Close / Sync /
 * Flush) with named and unnamed statements and portals. After an error in the extended
 * protocol, messages are skipped until Sync. Transaction status: `T` inside BEGIN, `E` after an
 * error inside BEGIN until COMMIT/ROLLBACK (which then answers ROLLBACK).
 */
import type { ColumnType } from '../../lib/index.js'
import type { FrontendMessage, TxStatus } from './messages.js'
import * as be from './backend-serializer.js'
import { BufferWriter } from './buffer-writer.js'
import { PgError, errorFields } from './errors.js'
import { decodeInferred, numericBinaryText, parseArrayText } from './params.js'
import { DESCRIBED_NUMERIC, typedNumeric } from './numeric-param.js'
import { inferParamOids } from './param-types.js'
import { Oid, declaredEngineTypes } from './pg-types.js'
import { Portal, type PortalSink } from './portal.js'
import { type Prepared, type RunContext, prepareSql } from './prepared.js'
import { inListParams } from './statement-info.js'

/** Integer parameter types (see {@link ParsedStatement.numericBesideInteger}). */
const INTEGER_OIDS: readonly number[] = [Oid.INT2, Oid.INT4, Oid.INT8]

/** Text that reads as a one-dimensional array literal: `{...}`. */
const ARRAY_LITERAL = /^\s*\{[\s\S]*\}\s*$/

/** A statement kept by Parse, with the parameter OIDs the client declared (0 = unspecified). */
interface ParsedStatement {
  readonly prepared: Prepared
  readonly paramOids: readonly number[]
  /** the declared OIDs with the inferred ones where the client declared 0 (computed on first need) */
  effective?: readonly number[]
  /** the engine types the declared OIDs define (pg-types.ts declaredEngineTypes) */
  readonly engineTypes: readonly (ColumnType | undefined)[] | undefined
  /** the parameters declared numeric that nothing in the statement types: typed by their value at Bind (with {@link effective}) */
  numericAlone?: readonly number[]
  /**
   * the parameters declared numeric that stand where the statement wants an integer (`l > $1`
   * with psycopg 3's `Decimal('1.5')`): a value with fraction digits is typed DECIMAL at Bind, as
   * QuestDB types a declared numeric bind variable, so the integer beside it widens to a DECIMAL
   * (it failed to read as a LONG: 22P02); a whole number stays the integer (`LIMIT $1`)
   */
  numericBesideInteger?: readonly number[]
}

/** Per-connection query state. */
export class QueryProtocol {
  private readonly statements = new Map<string, ParsedStatement>()
  /** named portals; the unnamed one lives in {@link unnamed} (made and dropped on every Bind and Sync, it would make the map grow and shrink each time) */
  private readonly portals = new Map<string, Portal>()
  private unnamed: Portal | undefined
  private skipping = false
  private failedTx = false
  /** the portal whose statement is running (for CancelRequest) */
  private active: Portal | undefined
  /** the signal of a long text being parsed (for CancelRequest) */
  private parsing: { cancelled: boolean } | undefined
  /** set when a statement that may write ran since the connection last flushed (it then owns a group commit's outcome) */
  wrote = false

  /** @param readOnly refuse statements that write (`pg.security.readonly`) */
  constructor(private readonly ctx: RunContext, private readonly sink: PortalSink, private readonly readOnly = false) {}

  /** ReadyForQuery status. */
  get status(): TxStatus {
    return this.failedTx ? 'E' : this.ctx.session.inTransaction ? 'T' : 'I'
  }

  /** Cancels the running statement, if any. */
  cancel(): void {
    if (this.active !== undefined) this.active.signal.cancelled = true
    if (this.parsing !== undefined) this.parsing.cancelled = true
  }

  /** The statements of `sql`; a long text is parsed in slices, and CancelRequest stops it. */
  private prepare(sql: string): Prepared[] | Promise<Prepared[]> {
    const signal = { cancelled: false }
    const stmts = prepareSql(this.ctx, sql, signal)
    if (Array.isArray(stmts)) return stmts
    this.parsing = signal
    return stmts.finally(() => { if (this.parsing === signal) this.parsing = undefined })
  }

  /** Releases every portal (the connection closed). */
  close(): void {
    this.cancel()
    for (const p of this.portals.values()) p.close()
    this.portals.clear()
    this.unnamed?.close()
    this.unnamed = undefined
    this.statements.clear()
  }

  private fail(e: unknown): void {
    be.errorResponse(this.sink.w, errorFields(e))
    if (this.ctx.session.inTransaction) this.failedTx = true
  }

  /**
   * Refuses statements inside a failed transaction, except the ones that end it, and, on a
   * read-only server, statements that write (before they run: simple and extended protocol alike).
   */
  private checkTx(p: Prepared): void {
    const s = p.statement
    if (this.failedTx && !(s?.kind === 'transaction' && s.action !== 'begin')) {
      throw new PgError('25P02', 'current transaction is aborted, commands ignored until end of transaction block')
    }
    if (this.readOnly && s !== undefined && this.ctx.db.statementInfo(s).writes) {
      const what = s.kind === 'unsupported' ? s.feature : s.kind.replace(/_/g, ' ').toUpperCase()
      throw new PgError('25006', `cannot execute ${what} in read-only mode (pg.security.readonly)`)
    }
  }

  /** Declared parameter OIDs, with the inferred type where the client declared 0 (worked out once per statement). */
  private async effectiveOids(s: ParsedStatement): Promise<readonly number[]> {
    if (s.effective !== undefined) return s.effective
    const n = s.prepared.paramCount
    const declared = Array.from({ length: n }, (_, i) => s.paramOids[i] || (s.prepared.paramOids?.[i] ?? 0))
    s.numericAlone = []
    if (declared.every((o) => o !== 0 && o !== Oid.NUMERIC) || s.prepared.statement === undefined) return (s.effective = declared)
    const inferred = await inferParamOids(this.ctx, s.prepared.statement, n)
    s.numericAlone = declared.flatMap((o, i) => (o === Oid.NUMERIC && inferred[i] === 0 ? [i] : []))
    s.numericBesideInteger = declared.flatMap((o, i) => (o === Oid.NUMERIC && INTEGER_OIDS.includes(inferred[i]!) ? [i] : []))
    return (s.effective = declared.map((o, i) => o || inferred[i]!))
  }

  private async execute(portal: Portal, maxRows: number): Promise<void> {
    this.checkTx(portal.prepared)
    if (!portal.prepared.returnsRows || portal.prepared.writes === true) this.wrote = true
    this.active = portal
    try {
      const endsFailedTx = this.failedTx
      await portal.run(endsFailedTx ? { w: new BufferWriter(), flush: () => undefined } : this.sink, maxRows)
      if (endsFailedTx) {
        this.failedTx = false
        be.commandComplete(this.sink.w, 'ROLLBACK')
      }
    } finally {
      this.active = undefined
    }
  }

  /**
   * Handles one message of a logged-in connection (startup and auth messages excluded). Returns
   * a promise only when the message has to wait (for the engine or the socket); Parse, Bind,
   * Close and most Syncs complete at once, without an await per message.
   */
  handle(m: FrontendMessage): Promise<void> | undefined {
    switch (m.kind) {
      case 'query': return this.simpleQuery(m.sql)
      case 'sync':
        this.skipping = false
        this.unnamed?.close()
        this.unnamed = undefined
        be.readyForQuery(this.sink.w, this.status)
        return this.sink.flush()
      case 'flush': return this.sink.flush()
      case 'parse': case 'bind': case 'describe': case 'execute': case 'close': {
        if (this.skipping) return undefined
        let pending: Promise<void> | undefined
        try {
          pending = this.extended(m)
        } catch (e) {
          this.extendedFailed(e)
          return undefined
        }
        return pending?.catch((e: unknown) => this.extendedFailed(e))
      }
      case 'terminate': case 'password': case 'invalid':
        throw new Error(`unexpected message ${m.kind}`)
    }
  }

  /** An extended-protocol message failed: ErrorResponse, then skip messages until Sync. */
  private extendedFailed(e: unknown): void {
    this.fail(e)
    this.skipping = true
  }

  private async simpleQuery(sql: string): Promise<void> {
    this.skipping = false
    try {
      const prepared = this.prepare(sql)
      const stmts = Array.isArray(prepared) ? prepared : await prepared
      for (const p of stmts) {
        if (p.empty) { if (stmts.length === 1) be.empty(this.sink.w, 'I'); continue }
        this.checkTx(p)
        const portal = new Portal(p, [], [])
        try {
          await portal.open()
          if (p.returnsRows) be.rowDescription(this.sink.w, portal.fields())
          await this.execute(portal, 0)
        } finally {
          portal.close()
        }
      }
    } catch (e) {
      this.fail(e)
    }
    be.readyForQuery(this.sink.w, this.status)
    await this.sink.flush()
  }

  private extended(m: Extract<FrontendMessage, { kind: 'parse' | 'bind' | 'describe' | 'execute' | 'close' }>): Promise<void> | undefined {
    const w = this.sink.w
    switch (m.kind) {
      case 'parse': {
        if (m.name !== '' && this.statements.has(m.name)) throw new PgError('42P05', `prepared statement "${m.name}" already exists`)
        const stmts = this.prepare(m.sql)
        const parsed = (prepared: Prepared[]): void => {
          if (prepared.length > 1) throw new PgError('42601', 'cannot insert multiple commands into a prepared statement')
          this.statements.set(m.name, { prepared: prepared[0]!, paramOids: m.paramOids, engineTypes: declaredEngineTypes(m.paramOids) })
          be.empty(w, '1')
        }
        if (!Array.isArray(stmts)) return stmts.then(parsed)
        parsed(stmts)
        return undefined
      }
      case 'bind': {
        const s = this.statements.get(m.statement)
        if (s === undefined) throw new PgError('26000', `prepared statement "${m.statement}" does not exist`)
        // parameters declared 0 are read with the type Describe reports (inferred from the statement, once)
        if (s.effective === undefined) return this.effectiveOids(s).then((oids) => this.bind(m, s, oids))
        this.bind(m, s, s.effective)
        return undefined
      }
      case 'describe': {
        if (m.target === 'S') return this.describeStatement(m.name)
        const p = this.portal(m.name)
        if (p === undefined) throw new PgError('34000', `portal "${m.name}" does not exist`)
        if (!p.prepared.returnsRows) { be.empty(w, 'n'); return undefined }
        this.checkTx(p.prepared)
        return p.open().then(() => { be.rowDescription(w, p.fields()) })
      }
      case 'execute': {
        const p = this.portal(m.portal)
        if (p === undefined) throw new PgError('34000', `portal "${m.portal}" does not exist`)
        if (p.prepared.empty) { be.empty(w, 'I'); return undefined }
        return this.execute(p, m.maxRows)
      }
      case 'close': {
        if (m.target === 'S') this.statements.delete(m.name)
        else { this.portal(m.name)?.close(); this.setPortal(m.name, undefined) }
        be.empty(w, '3')
        return undefined
      }
    }
  }

  private portal(name: string): Portal | undefined {
    return name === '' ? this.unnamed : this.portals.get(name)
  }

  private setPortal(name: string, p: Portal | undefined): void {
    if (name === '') this.unnamed = p
    else if (p === undefined) this.portals.delete(name)
    else this.portals.set(name, p)
  }

  private bind(m: Extract<FrontendMessage, { kind: 'bind' }>, s: ParsedStatement, oids: readonly number[]): void {
    if (m.params.length !== s.prepared.paramCount && !(s.prepared.paramCount === 0 && m.params.length === 0)) {
      throw new PgError('08P01', `bind message supplies ${m.params.length} parameters, but prepared statement "${m.statement}" requires ${s.prepared.paramCount}`)
    }
    const nf = m.paramFormats.length
    if (nf > 1 && nf !== m.params.length) throw new PgError('08P01', `bind message has ${nf} parameter formats but ${m.params.length} parameters`)
    const values = new Array<unknown>(m.params.length)
    for (let i = 0; i < values.length; i++) {
      const format = nf === 0 ? 0 : nf === 1 ? m.paramFormats[0]! : m.paramFormats[i]!
      values[i] = decodeInferred(m.params[i]!, s.paramOids[i] ?? 0, oids[i] ?? 0, format, i)
    }
    // an untyped `x IN ($n)` parameter written as an array literal is an array (QuestDB's VARCHAR[] IN)
    const stmt = s.prepared.statement
    if (stmt !== undefined) {
      for (const n of inListParams(stmt)) {
        const v = values[n - 1]
        if ((s.paramOids[n - 1] ?? 0) === 0 && typeof v === 'string' && ARRAY_LITERAL.test(v)) values[n - 1] = parseArrayText(v, n - 1)
      }
    }
    if (m.portal !== '' && this.portals.has(m.portal)) throw new PgError('42P03', `portal "${m.portal}" already exists`)
    if (m.portal === '') this.unnamed?.close()
    let types: (ColumnType | undefined)[] | undefined
    const beside = s.numericBesideInteger ?? []
    for (const i of [...(s.numericAlone ?? []), ...beside]) {
      const data = m.params[i]
      if (data === null || data === undefined) continue
      const format = nf === 0 ? 0 : nf === 1 ? m.paramFormats[0]! : m.paramFormats[i]!
      const typed = typedNumeric(typeof data === 'string' ? data : format === 1 ? numericBinaryText(data, i) : data.toString('utf8'))
      if (typed === undefined || (beside.includes(i) && typed.type.endsWith(',0)'))) continue
      types ??= s.engineTypes === undefined ? new Array<ColumnType | undefined>(values.length) : [...s.engineTypes]
      types[i] = typed.type
      values[i] = typed.text
    }
    this.setPortal(m.portal, new Portal(s.prepared, values, m.resultFormats, types ?? s.engineTypes))
    be.empty(this.sink.w, '2')
  }

  /**
   * A message refused without running anything (FunctionCall, COPY data outside COPY, a message
   * whose fields do not parse): ErrorResponse, then ReadyForQuery for a message that is a cycle of
   * its own (`simple`: Query, FunctionCall), or skipping to Sync for an extended-protocol one
   * (which is ignored when already skipping, as PostgreSQL does).
   */
  refuse(e: unknown, simple: boolean): Promise<void> | undefined {
    if (!simple) {
      if (!this.skipping) this.extendedFailed(e)
      return undefined
    }
    this.skipping = false
    this.fail(e)
    be.readyForQuery(this.sink.w, this.status)
    return this.sink.flush()
  }

  private async describeStatement(name: string): Promise<void> {
    const w = this.sink.w
    const s = this.statements.get(name)
    if (s === undefined) throw new PgError('26000', `prepared statement "${name}" does not exist`)
    const oids = (await this.effectiveOids(s)).map((o) => o || Oid.VARCHAR)
    be.parameterDescription(w, oids)
    if (!s.prepared.returnsRows) { be.empty(w, 'n'); return }
    let types = s.engineTypes
    if ((s.numericAlone ?? []).length > 0) {
      const t = types === undefined ? new Array<ColumnType | undefined>(oids.length) : [...types]
      for (const i of s.numericAlone!) t[i] = DESCRIBED_NUMERIC
      types = t
    }
    const probe = new Portal(s.prepared, oids.map(() => null), [], types)
    try {
      await probe.open()
      be.rowDescription(w, probe.fields())
    } finally {
      probe.close()
    }
  }
}
