/**
 * The catalog: every table of a database, by case-insensitive name.
 */
import { SqlError, SqlState } from '../errors.js'
import { Table, type TableMeta, type TableStore } from './table.js'
import { DEFAULT_MAX_NAME_LENGTH } from './names.js'
import { MatViews } from './mat-views.js'

/**
 * A view (QuestDB 9's CREATE VIEW): a named query, expanded as a subquery wherever its name is
 * read. Immutable: CREATE OR REPLACE / ALTER VIEW install a new object.
 */
export interface ViewDef {
  /** from the table id counter (QuestDB names the view's directory `<name>~<id>`) */
  readonly id: number
  readonly name: string
  /** the query's text, as written between the parentheses of CREATE VIEW */
  readonly sql: string
}

/** A view's status as last checked (`views()`): valid, or invalid with the reason. */
export interface ViewStatus {
  readonly valid: boolean
  readonly reason: string
  /** when the status last changed (µs since the epoch) */
  readonly since: number
}

/** Tables and views by name: they share one namespace. */
export class Catalog {
  private readonly tables = new Map<string, Table>()
  private views = new Map<string, ViewDef>()
  /** the views' status as last checked, by lower-case name (not persisted: worked out again) */
  readonly viewStatus = new Map<string, ViewStatus>()
  private nextId = 1
  /** the materialized views' definitions and refresh state (their rows are tables of this catalog) */
  readonly matViews = new MatViews()
  /** durable storage given to every table created from now on (a data-directory database) */
  store: TableStore | undefined
  /** the longest table or column name (QuestDB's `cairo.max.file.name.length`) */
  maxNameLength = DEFAULT_MAX_NAME_LENGTH

  /** Table names in creation order. */
  names(): string[] {
    return [...this.tables.values()].map((t) => t.meta.name)
  }

  /** The table, or undefined. */
  find(name: string): Table | undefined {
    return this.tables.get(name.toLowerCase())
  }

  /** The table, or a 42P01 error at `pos`. */
  get(name: string, pos = -1): Table {
    const t = this.find(name)
    if (t === undefined) throw new SqlError(SqlState.UNDEFINED_TABLE, `table does not exist [table=${name}]`, pos)
    return t
  }

  /** The view, or undefined. */
  findView(name: string): ViewDef | undefined {
    return this.views.get(name.toLowerCase())
  }

  /** Every view, in creation order. */
  allViews(): ViewDef[] {
    return [...this.views.values()]
  }

  /**
   * Creates or replaces view `name` (a replaced view keeps its id). Refused (42P07) when a table
   * has the name: tables and views share one namespace.
   */
  putView(name: string, sql: string, pos = -1): ViewDef {
    if (this.find(name) !== undefined) throw new SqlError(SqlState.DUPLICATE_TABLE, `table already exists [table=${name}]`, pos)
    const old = this.findView(name)
    const v: ViewDef = { id: old?.id ?? this.nextId++, name: old?.name ?? name, sql }
    this.views.set(name.toLowerCase(), v)
    return v
  }

  /** Removes a view. */
  dropView(name: string): void {
    this.views.delete(name.toLowerCase())
    this.viewStatus.delete(name.toLowerCase())
  }

  /** Puts the views loaded from storage in place (ids kept; later ids come after them). */
  adoptViews(views: readonly ViewDef[]): void {
    for (const v of views) {
      this.views.set(v.name.toLowerCase(), v)
      this.nextId = Math.max(this.nextId, v.id + 1)
    }
  }

  /** 42P07 when `name` is a view's (a table cannot take it). */
  private checkNotView(name: string, pos: number): void {
    const v = this.findView(name)
    if (v !== undefined) throw new SqlError(SqlState.DUPLICATE_TABLE, `view already exists [view=${v.name}]`, pos)
  }

  /** Creates a table from metadata (its id is assigned here). */
  create(meta: Omit<TableMeta, 'id'>, pos = -1): Table {
    if (this.find(meta.name) !== undefined) throw new SqlError(SqlState.DUPLICATE_TABLE, `table already exists [table=${meta.name}]`, pos)
    this.checkNotView(meta.name, pos)
    const t = new Table({ ...meta, id: this.nextId++ })
    t.store = this.store
    this.tables.set(meta.name.toLowerCase(), t)
    return t
  }

  /** Adds a table loaded from storage, keeping its id (later ids come after it). */
  adopt(t: Table): void {
    this.tables.set(t.meta.name.toLowerCase(), t)
    this.nextId = Math.max(this.nextId, t.meta.id + 1)
  }

  /** The next table id (persisted so that ids are never reused). */
  get idCounter(): number {
    return this.nextId
  }

  /** Makes the next table id at least `n`. */
  reserveIds(n: number): void {
    this.nextId = Math.max(this.nextId, n)
  }

  /** Every table, in creation order. */
  all(): Table[] {
    return [...this.tables.values()]
  }

  /** Removes a table. */
  drop(name: string): void {
    this.tables.delete(name.toLowerCase())
  }

  /**
   * Remembers the catalog as it is now (which tables, under which names, with which metadata)
   * and returns a function that puts it back: a DDL statement whose storage write failed undoes
   * its change with it, so the catalog matches what the data directory (and a restart) holds.
   */
  savepoint(): () => void {
    const tables = new Map(this.tables)
    // metadata is immutable (DDL installs new objects): holding today's is enough to put it back
    const metas = new Map([...tables.values()].map((t) => [t, t.meta]))
    const nextId = this.nextId
    const views = new Map(this.views)
    return () => {
      this.views = views
      this.tables.clear()
      for (const [k, t] of tables) {
        t.setMeta(metas.get(t)!)
        this.tables.set(k, t)
      }
      // ids are never reused, even those of a creation that failed
      this.nextId = Math.max(this.nextId, nextId)
    }
  }

  /** Renames a table. */
  rename(from: string, to: string, pos = -1): void {
    const t = this.get(from)
    if (this.find(to) !== undefined) throw new SqlError(SqlState.DUPLICATE_TABLE, `table already exists [table=${to}]`, pos)
    this.checkNotView(to, pos)
    this.tables.delete(from.toLowerCase())
    t.setMeta({ ...t.meta, name: to })
    this.tables.set(to.toLowerCase(), t)
  }
}
