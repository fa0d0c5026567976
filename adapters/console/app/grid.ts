/// <reference lib="dom" />
/**
 * The results grid: virtual in both directions (only the visible rows and columns are in the
 * DOM), rows fetched from /exec in pages of {@link PAGE_ROWS} with `limit=lo,hi` when they come
 * into view (after a short settle, so a fast scroll over a 1M-row result fetches only where it
 * stops). Click selects a cell; Ctrl/Cmd+C copies it, Ctrl/Cmd+Shift+C copies the row.
 */
import { exec, type ExecColumn } from './api.js'
import { isNumericColumn, typedCellText } from './cell-format.js'
import { binaryColumns, withBinaryHex } from './binary.js'
import { cellText, el } from './dom.js'

/** Rows per /exec page. */
export const PAGE_ROWS = 1000
/** Row height in CSS pixels. */
const ROW_H = 24
/** Header height in CSS pixels. */
const HEAD_H = 44
/** Past this many pixels the scroll range is scaled (browsers cap element heights near 33M px). */
const MAX_SCROLL_PX = 10_000_000
/** Pages kept in memory. */
const MAX_PAGES = 40
/** Milliseconds a scroll position must hold before missing pages are fetched. */
const SETTLE_MS = 60

/** Widest value of fixed-width types, in characters (later pages may be wider than the first). */
const TYPE_CHARS: Readonly<Record<string, number>> = {
  BINARY: 48, BOOLEAN: 5, BYTE: 4, SHORT: 6, INT: 11, LONG: 20, FLOAT: 12, DOUBLE: 22, DATE: 24, TIMESTAMP: 27, TIMESTAMP_NS: 30, UUID: 36, IPV4: 15, CHAR: 3,
}

/** Counters the e2e test and the status bar read. */
export const gridStats = { pageFetches: 0, rowsFetched: 0 }

/** What the grid shows: a query, its columns and total row count, and the first page. */
export interface GridData {
  readonly query: string
  readonly columns: readonly ExecColumn[]
  readonly timestamp: number
  readonly count: number
  readonly firstPage: readonly (readonly unknown[])[]
}

/** The virtual results grid. */
export class ResultGrid {
  readonly element: HTMLElement
  private readonly sizer: HTMLElement
  private readonly head: HTMLElement
  private readonly body: HTMLElement
  private data: GridData | undefined
  private widths: number[] = []
  private lefts: number[] = []
  private pages = new Map<number, readonly (readonly unknown[])[]>()
  private pending = new Set<number>()
  private selected: { row: number; col: number } | undefined
  private frame = 0
  private settle: ReturnType<typeof setTimeout> | undefined
  private generation = 0

  constructor() {
    this.head = el('div', { class: 'grid-head' })
    this.body = el('div', { class: 'grid-body' })
    this.sizer = el('div', { class: 'grid-sizer' }, this.head, this.body)
    this.element = el('div', { class: 'grid', tabindex: '0', 'data-testid': 'grid' }, this.sizer)
    this.element.addEventListener('scroll', () => this.schedule())
    new ResizeObserver(() => this.schedule()).observe(this.element)
    this.element.addEventListener('keydown', (e) => this.key(e))
    this.body.addEventListener('mousedown', (e) => this.click(e))
  }

  /** Shows a new result. */
  show(data: GridData): void {
    this.generation++
    this.data = data
    this.pages = new Map([[0, data.firstPage]])
    this.pending.clear()
    this.selected = undefined
    this.widths = data.columns.map((c, j) => {
      let chars = Math.max(c.name.length, c.type.length + (j === data.timestamp ? 13 : 0), TYPE_CHARS[c.type] ?? 0)
      for (const row of data.firstPage.slice(0, 200)) chars = Math.max(chars, Math.min(48, cellText(row[j], 60).length))
      return Math.round(Math.min(420, Math.max(64, chars * 7.6 + 20)))
    })
    let x = 0
    this.lefts = this.widths.map((w) => { const l = x; x += w; return l })
    this.sizer.style.width = `${x}px`
    this.sizer.style.height = `${HEAD_H + Math.min(data.count * ROW_H, MAX_SCROLL_PX) + 2}px`
    this.element.scrollTo(0, 0)
    this.render()
    if (binaryColumns(data.columns).length > 0) void this.binaryHex(0, data.firstPage, this.generation)
  }

  /** Replaces the BINARY values of a loaded page by their hex (see binary.ts). */
  private async binaryHex(page: number, rows: readonly (readonly unknown[])[], gen: number): Promise<void> {
    const d = this.data!
    try {
      const hex = await withBinaryHex(d.query, d.columns, rows, page * PAGE_ROWS + 1, page * PAGE_ROWS + rows.length)
      if (gen !== this.generation || this.pages.get(page) !== rows) return
      this.pages.set(page, hex)
      this.schedule()
    } catch { /* the server went away: the cells keep what /exec sent */ }
  }

  /** The value at a row (0-based) and column, if its page is loaded. */
  valueAt(row: number, col: number): unknown {
    return this.pages.get(Math.floor(row / PAGE_ROWS))?.[row % PAGE_ROWS]?.[col]
  }

  private schedule(): void {
    if (this.frame !== 0) return
    this.frame = requestAnimationFrame(() => { this.frame = 0; this.render() })
  }

  /** First visible row and the pixel offset of the row box. */
  private firstRow(): { first: number; shift: number; visible: number } {
    const d = this.data!
    const viewH = Math.max(0, this.element.clientHeight - HEAD_H)
    const visible = Math.ceil(viewH / ROW_H) + 1
    const top = this.element.scrollTop
    if (d.count * ROW_H <= MAX_SCROLL_PX) return { first: Math.floor(top / ROW_H), shift: top % ROW_H, visible }
    const maxTop = Math.max(1, MAX_SCROLL_PX - viewH)
    const first = Math.round((Math.min(top, maxTop) / maxTop) * Math.max(0, d.count - visible + 1))
    return { first, shift: 0, visible }
  }

  private render(): void {
    const d = this.data
    if (d === undefined) return
    const viewW = this.element.clientWidth
    const left = this.element.scrollLeft
    let c0 = 0
    while (c0 < d.columns.length - 1 && this.lefts[c0]! + this.widths[c0]! < left) c0++
    let c1 = c0
    while (c1 < d.columns.length && this.lefts[c1]! < left + viewW) c1++
    const headCells: HTMLElement[] = []
    for (let j = c0; j < c1; j++) {
      const c = d.columns[j]!
      const cell = el('div', { class: j === d.timestamp ? 'cell designated' : 'cell', title: `${c.name} ${c.type}${j === d.timestamp ? ' (designated timestamp)' : ''}` },
        el('div', { class: 'col-name' }, c.name), el('div', { class: 'col-type' }, c.type + (j === d.timestamp ? ' · designated' : '')))
      cell.style.left = `${this.lefts[j]}px`
      cell.style.width = `${this.widths[j]}px`
      headCells.push(cell)
    }
    this.head.replaceChildren(...headCells)
    const { first, shift, visible } = this.firstRow()
    const last = Math.min(d.count, first + visible)
    const rows: HTMLElement[] = []
    const missing = new Set<number>()
    for (let i = first; i < last; i++) {
      const page = this.pages.get(Math.floor(i / PAGE_ROWS))
      const row = el('div', { class: i % 2 === 0 ? 'row' : 'row odd', 'data-row': String(i) })
      row.style.top = `${(i - first) * ROW_H - shift}px`
      if (page === undefined) missing.add(Math.floor(i / PAGE_ROWS))
      for (let j = c0; j < c1; j++) {
        const v = page?.[i % PAGE_ROWS]?.[j]
        const type = d.columns[j]!.type
        const cls = page === undefined ? 'cell loading' : v === null ? 'cell null' : typeof v === 'number' || isNumericColumn(type) ? 'cell num' : 'cell'
        const sel = this.selected !== undefined && this.selected.row === i && this.selected.col === j
        const cell = el('div', { class: sel ? cls + ' selected' : cls, 'data-col': String(j) }, page === undefined ? '…' : typedCellText(v, type))
        cell.style.left = `${this.lefts[j]}px`
        cell.style.width = `${this.widths[j]}px`
        row.append(cell)
      }
      rows.push(row)
    }
    this.body.replaceChildren(...rows)
    this.body.style.height = `${Math.max(0, this.element.clientHeight - HEAD_H)}px`
    if (missing.size > 0) {
      clearTimeout(this.settle)
      this.settle = setTimeout(() => { for (const p of missing) void this.fetchPage(p) }, SETTLE_MS)
    }
  }

  private async fetchPage(page: number): Promise<void> {
    const d = this.data
    if (d === undefined || this.pages.has(page) || this.pending.has(page)) return
    const { first, visible } = this.firstRow()
    if (page * PAGE_ROWS >= first + visible || (page + 1) * PAGE_ROWS <= first) return // scrolled away
    const gen = this.generation
    this.pending.add(page)
    gridStats.pageFetches++
    try {
      const r = await exec(d.query, { lo: page * PAGE_ROWS + 1, hi: (page + 1) * PAGE_ROWS })
      if (gen !== this.generation) return
      const rows = r.kind === 'rows' ? r.dataset : []
      gridStats.rowsFetched += rows.length
      this.pages.set(page, rows)
      if (rows.length > 0 && binaryColumns(d.columns).length > 0) void this.binaryHex(page, rows, gen)
      while (this.pages.size > MAX_PAGES) this.pages.delete(this.pages.keys().next().value!)
    } catch { /* the page shows as loading; scrolling retries */ } finally {
      if (gen === this.generation) this.pending.delete(page)
    }
    this.schedule()
  }

  private click(e: MouseEvent): void {
    const cell = (e.target as HTMLElement).closest<HTMLElement>('.cell')
    const row = cell?.parentElement?.dataset.row
    if (cell === null || cell === undefined || row === undefined) return
    this.selected = { row: Number(row), col: Number(cell.dataset.col) }
    this.schedule()
  }

  private key(e: KeyboardEvent): void {
    const s = this.selected
    const d = this.data
    if (s === undefined || d === undefined) return
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'c') {
      const text = e.shiftKey ? d.columns.map((_, j) => cellText(this.valueAt(s.row, j), Infinity)).join('\t') : cellText(this.valueAt(s.row, s.col), Infinity)
      void navigator.clipboard?.writeText(text).catch(() => undefined)
      e.preventDefault()
      return
    }
    const moves: Record<string, [number, number]> = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }
    const m = moves[e.key]
    if (m === undefined) return
    e.preventDefault()
    this.selected = { row: Math.max(0, Math.min(d.count - 1, s.row + m[0])), col: Math.max(0, Math.min(d.columns.length - 1, s.col + m[1])) }
    const { first, visible } = this.firstRow()
    if (this.selected.row < first || this.selected.row >= first + visible - 1) this.element.scrollTop += m[0] * ROW_H
    this.schedule()
  }
}
