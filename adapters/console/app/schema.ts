/// <reference lib="dom" />
/**
 * The schema: tables (designated timestamp, partitioning, row count) and their columns, read
 * through /exec from `tables()` and `table_columns()`, shown as a tree in the side panel. A
 * click inserts the name into the editor.
 */
import { rowsOf } from './api.js'
import type { SchemaColumn, SchemaView } from './complete.js'
import { el, quoteName } from './dom.js'

/** One table as the browser shows it. */
export interface TableEntry {
  readonly name: string
  readonly designated: string
  readonly partitionBy: string
  rows: number | undefined
}

/** The schema cache and its side panel. */
export class SchemaBrowser implements SchemaView {
  private tables: TableEntry[] = []
  private readonly cols = new Map<string, Promise<readonly SchemaColumn[]>>()
  private readonly open = new Set<string>()
  readonly element: HTMLElement
  private readonly list: HTMLElement

  constructor(private readonly insert: (text: string) => void) {
    this.list = el('div', { class: 'schema-list' })
    const refresh = el('button', { class: 'icon', title: 'Refresh the schema', 'data-testid': 'schema-refresh' }, '⟳')
    refresh.onclick = () => { void this.refresh() }
    this.element = el('section', { class: 'schema' }, el('header', {}, el('span', {}, 'Tables'), refresh), this.list)
  }

  /** Table names, as loaded by the last refresh. */
  tableNames(): readonly string[] { return this.tables.map((t) => t.name) }

  /** The columns of `table` (cached until the next refresh). */
  columns(table: string): Promise<readonly SchemaColumn[]> {
    let p = this.cols.get(table)
    if (p === undefined) {
      p = rowsOf(`select "column", type, designated from table_columns('${table.replace(/'/g, "''")}')`)
        .then((rows) => rows.map((r) => ({ name: String(r[0]), type: String(r[1]), designated: r[2] === true })))
        .catch(() => [])
      this.cols.set(table, p)
    }
    return p
  }

  /** Reloads tables, columns of the open tables and row counts. */
  async refresh(): Promise<void> {
    this.cols.clear()
    try {
      const rows = await rowsOf('select table_name, designatedTimestamp, partitionBy from tables() order by table_name')
      this.tables = rows.map((r) => ({ name: String(r[0]), designated: r[1] === null ? '' : String(r[1]), partitionBy: String(r[2] ?? 'NONE'), rows: undefined }))
    } catch (e) {
      this.list.replaceChildren(el('div', { class: 'muted' }, `cannot read tables: ${(e as Error).message}`))
      return
    }
    this.render()
    // row counts, a few tables at a time
    for (const t of this.tables.slice(0, 200)) {
      const r = await rowsOf(`select count() from ${quoteName(t.name)}`).catch(() => [])
      t.rows = Number(r[0]?.[0] ?? NaN)
    }
    this.render()
  }

  private render(): void {
    if (this.tables.length === 0) { this.list.replaceChildren(el('div', { class: 'muted' }, 'No tables yet. Create one, or drop a CSV file here.')); return }
    this.list.replaceChildren(...this.tables.map((t) => this.tableNode(t)))
  }

  private tableNode(t: TableEntry): HTMLElement {
    const isOpen = this.open.has(t.name)
    const name = el('span', { class: 'name', title: 'Click to insert' }, t.name)
    name.onclick = (e) => { e.stopPropagation(); this.insert(quoteName(t.name)) }
    const caret = el('span', { class: 'caret' }, isOpen ? '▾' : '▸')
    const meta = el('span', { class: 'meta' }, [t.partitionBy !== 'NONE' ? t.partitionBy : '', t.rows !== undefined && !Number.isNaN(t.rows) ? `${t.rows.toLocaleString()} rows` : ''].filter((s) => s !== '').join(' · '))
    const head = el('div', { class: 'table-row', 'data-table': t.name }, caret, name, meta)
    const node = el('div', { class: 'table-node' }, head)
    head.onclick = () => {
      if (this.open.has(t.name)) this.open.delete(t.name); else this.open.add(t.name)
      node.replaceWith(this.tableNode(t))
    }
    if (isOpen) {
      const box = el('div', { class: 'columns' }, el('div', { class: 'muted' }, '…'))
      node.append(box)
      void this.columns(t.name).then((cols) => {
        box.replaceChildren(...cols.map((c) => {
          const row = el('div', { class: 'column-row' }, el('span', { class: 'name' }, c.name), el('span', { class: 'type' }, c.type + (c.designated ? ' · ts' : '')))
          row.title = c.designated ? 'designated timestamp' : c.type
          row.onclick = () => this.insert(quoteName(c.name))
          return row
        }))
      })
    }
    return node
  }
}
