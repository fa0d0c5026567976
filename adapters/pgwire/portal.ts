/**
 * A portal: a prepared statement bound to parameter values and result formats, and — once
 * opened — the engine's execution with its batch iterator. Forward-only: an Execute with a row
 * limit sends that many rows and PortalSuspended, keeping the iterator (and the current batch
 * and offset in it) open for the next Execute.
 */
import type { Batch, ColumnType, Execution } from '../../lib/index.js'
import type { FieldDescription } from './backend-serializer.js'
import * as be from './backend-serializer.js'
import type { BufferWriter } from './buffer-writer.js'
import { PgError } from './errors.js'
import type { FormatCode } from './messages.js'
import { pgTypeOf } from './pg-types.js'
import type { Prepared } from './prepared.js'
import { type CellWriter, type ColumnWriter, columnWriter, writeRows } from './data-row-writer.js'
import { effectiveFormat } from './value-encoders.js'

/** Bytes of buffered output after which rows are flushed to the socket (and back-pressure applies). */
export const FLUSH_THRESHOLD = 256 * 1024

/**
 * Where a portal writes: the connection's output buffer and its back-pressured flush, which
 * returns undefined when the output went out (or was held back) at once.
 */
export interface PortalSink {
  readonly w: BufferWriter
  flush(): Promise<void> | undefined
}

/** A mutable cancel flag handed to the engine. */
export interface MutableSignal {
  cancelled: boolean
}

/** The format of column `k` among Bind's result format codes (none: text; one: all; else per column). */
function formatOf(formats: readonly FormatCode[], k: number): FormatCode {
  if (formats.length === 0) return 0
  if (formats.length === 1) return formats[0]!
  return formats[k] ?? 0
}

/** A bound statement. */
export class Portal {
  /** the cancel flag of this portal's execution */
  readonly signal: MutableSignal = { cancelled: false }
  private execution: Execution | undefined
  private iterator: AsyncIterator<Batch> | undefined
  private batch: Batch | undefined
  private offset = 0
  private sent = 0
  /** the column writers, made for the output buffer {@link writersFor} */
  private writers: ColumnWriter[] = []
  private writersFor: BufferWriter | undefined
  /** the writers bound to the current batch */
  private cells: CellWriter[] = []
  private finished = false

  /**
   * @param paramTypes engine types the client declared for the parameters (undefined where it
   *   left the type to the server)
   */
  constructor(readonly prepared: Prepared, readonly params: readonly unknown[], readonly resultFormats: readonly FormatCode[],
    readonly paramTypes?: readonly (ColumnType | undefined)[]) {}

  /** Starts the execution (once); DML runs here. */
  async open(): Promise<Execution> {
    if (this.execution === undefined) {
      const ex = await this.prepared.start(this.params, this.signal, this.paramTypes)
      this.execution = ex
    }
    return this.execution
  }

  /** The RowDescription fields (the portal must be open). */
  fields(): FieldDescription[] {
    const ex = this.execution!
    return ex.columns.map((c, k) => {
      const t = pgTypeOf(ex.types[k]!)
      return {
        name: c.name, tableOid: 0, attribute: k + 1, typeOid: t.oid, typeSize: t.size, typeModifier: t.modifier,
        format: effectiveFormat(ex.types[k]!, formatOf(this.resultFormats, k)),
      }
    })
  }

  /**
   * Sends up to `maxRows` rows (0 = all), then CommandComplete or PortalSuspended.
   * Returns true when the portal is exhausted.
   */
  async run(sink: PortalSink, maxRows: number): Promise<boolean> {
    const ex = this.execution ?? await this.open()
    if (this.finished) {
      be.commandComplete(sink.w, this.prepared.tag(this.prepared.returnsRows ? 0 : Math.max(ex.affected, 0)))
      return true
    }
    if (!this.prepared.returnsRows) {
      for await (const _ of ex.batches) void _
      this.finished = true
      be.commandComplete(sink.w, this.prepared.tag(Math.max(ex.affected, 0)))
      return true
    }
    this.iterator ??= ex.batches[Symbol.asyncIterator]()
    let budget = maxRows > 0 ? maxRows : Infinity
    while (budget > 0) {
      if (this.batch === undefined || this.offset >= this.batch.length) {
        const next = await this.iterator.next()
        if (next.done === true) {
          this.finished = true
          be.commandComplete(sink.w, this.prepared.tag(this.sent))
          return true
        }
        this.batch = next.value
        this.offset = 0
        this.cells = []
        continue
      }
      if (this.writersFor !== sink.w) {
        this.writersFor = sink.w
        this.writers = ex.types.map((t, k) => columnWriter(t, formatOf(this.resultFormats, k), sink.w))
        this.cells = []
      }
      if (this.cells.length !== this.writers.length) {
        const vectors = this.batch.vectors
        this.cells = this.writers.map((bind, k) => bind(vectors[k]!))
      }
      const end = Math.min(this.batch.length, this.offset + budget)
      const step = 4096
      for (let from = this.offset; from < end; from += step) {
        const to = Math.min(end, from + step)
        writeRows(sink.w, this.cells, from, to)
        if (sink.w.length >= FLUSH_THRESHOLD) await sink.flush()
        if (this.signal.cancelled) throw cancelled()
      }
      budget -= end - this.offset
      this.sent += end - this.offset
      this.offset = end
    }
    be.empty(sink.w, 's')
    return false
  }

  /** Stops the execution early (Close, or the connection ended). */
  close(): void {
    this.signal.cancelled = true
    if (this.iterator !== undefined && !this.finished) void this.iterator.return?.(undefined)?.catch(() => undefined)
    this.finished = true
  }
}

function cancelled(): PgError {
  return new PgError('57014', 'canceling statement due to user request')
}
