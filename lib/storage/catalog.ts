/**
 * The catalog: every table of a database, by case-insensitive name.
 */
import { SqlError, SqlState } from '../errors.js'
import { Table, type TableMeta, type TableStore } from './table.js'
import { DEFAULT_MAX_NAME_LENGTH } from './names.js'

/** Tables by name. */
export class Catalog {
  private readonly tables = new Map<string, Table>()
  private nextId = 1
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

  /** Creates a table from metadata (its id is assigned here). */
  create(meta: Omit<TableMeta, 'id'>, pos = -1): Table {
    if (this.find(meta.name) !== undefined) throw new SqlError(SqlState.DUPLICATE_TABLE, `table already exists [table=${meta.name}]`, pos)
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
    return () => {
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
    this.tables.delete(from.toLowerCase())
    t.setMeta({ ...t.meta, name: to })
    this.tables.set(to.toLowerCase(), t)
  }
}
