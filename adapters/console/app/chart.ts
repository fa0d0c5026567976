/// <reference lib="dom" />
/**
 * Charts with uPlot: line, area or bar; x = the designated timestamp (or a chosen column),
 * y = chosen numeric columns, one series per value of an optional key column. Drag to zoom,
 * double-click to reset; the legend shows the values under the cursor.
 */
import uPlot from 'uplot'
import { exec, type ExecColumn } from './api.js'
import { el } from './dom.js'

/** Rows a chart reads (from the start of the result). */
export const CHART_ROWS = 20_000
/** Series per chart at most (key values × y columns). */
const MAX_SERIES = 24
const PALETTE = ['#4fa3ff', '#ff7b72', '#7ee787', '#d2a8ff', '#ffa657', '#79c0ff', '#f778ba', '#e3b341', '#56d4dd', '#a5d6ff']
const NUMERIC = new Set(['BYTE', 'SHORT', 'INT', 'LONG', 'FLOAT', 'DOUBLE'])
/** A column to plot: the number types and DECIMAL(p,s) (its exact text converts with Number); not arrays. */
const isNumeric = (type: string): boolean => NUMERIC.has(type) || type.startsWith('DECIMAL')
const TEMPORAL = new Set(['TIMESTAMP', 'DATE', 'TIMESTAMP_NS'])

/** Chart kinds. */
export const CHART_KINDS = ['line', 'area', 'bar'] as const
/** One chart kind. */
export type ChartKind = (typeof CHART_KINDS)[number]

/** The chart panel of one result. */
export class ChartPanel {
  readonly element: HTMLElement
  private readonly controls: HTMLElement
  private readonly plotBox: HTMLElement
  private plot: uPlot | undefined
  private rows: readonly (readonly unknown[])[] = []
  private columns: readonly ExecColumn[] = []
  private kind: ChartKind = 'line'
  private x = -1
  private ys: number[] = []
  private key = -1

  constructor() {
    this.controls = el('div', { class: 'chart-controls' })
    this.plotBox = el('div', { class: 'chart-plot', 'data-testid': 'chart' })
    this.element = el('div', { class: 'chart' }, this.controls, this.plotBox)
    new ResizeObserver(() => this.resize()).observe(this.plotBox)
  }

  /** Loads up to {@link CHART_ROWS} rows of `query` and draws the default chart. */
  async load(query: string, columns: readonly ExecColumn[], timestamp: number): Promise<void> {
    this.columns = columns
    const r = await exec(query, { lo: 1, hi: CHART_ROWS })
    this.rows = r.kind === 'rows' ? r.dataset : []
    this.x = timestamp >= 0 ? timestamp : columns.findIndex((c) => TEMPORAL.has(c.type))
    if (this.x < 0) this.x = 0
    this.ys = columns.map((_, j) => j).filter((j) => j !== this.x && isNumeric(columns[j]!.type)).slice(0, 4)
    this.key = -1
    this.renderControls()
    this.draw()
  }

  private renderControls(): void {
    const select = (label: string, options: [number | string, string][], value: number | string, on: (v: string) => void): HTMLElement => {
      const s = el('select', { 'data-testid': `chart-${label}` }, ...options.map(([v, t]) => el('option', { value: String(v) }, t)))
      s.value = String(value)
      s.onchange = () => { on(s.value); this.draw() }
      return el('label', {}, label + ' ', s)
    }
    const cols = this.columns.map((c, j): [number, string] => [j, c.name])
    const keys = this.columns.map((c, j): [number, string] => [j, c.name]).filter(([j]) => ['SYMBOL', 'STRING', 'VARCHAR', 'BOOLEAN', 'CHAR'].includes(this.columns[j]!.type))
    const ys = el('span', { class: 'chart-ys' }, 'y ', ...this.columns.flatMap((c, j) => {
      if (!isNumeric(c.type)) return []
      const box = el('input', { type: 'checkbox' })
      box.checked = this.ys.includes(j)
      box.onchange = () => { this.ys = box.checked ? [...this.ys, j] : this.ys.filter((y) => y !== j); this.draw() }
      return [el('label', { class: 'check' }, box, c.name)]
    }))
    this.controls.replaceChildren(
      select('type', CHART_KINDS.map((k) => [k, k]), this.kind, (v) => { this.kind = v as ChartKind }),
      select('x', cols, this.x, (v) => { this.x = Number(v) }),
      ys,
      select('key', [[-1, '(none)'], ...keys], this.key, (v) => { this.key = Number(v) }),
      el('span', { class: 'muted' }, `${this.rows.length.toLocaleString()} rows${this.rows.length === CHART_ROWS ? ' (first ' + CHART_ROWS.toLocaleString() + ')' : ''} · drag to zoom, double-click to reset`),
    )
  }

  private xValue(v: unknown): number | null {
    if (v === null || v === undefined) return null
    if (TEMPORAL.has(this.columns[this.x]?.type ?? '')) return Date.parse(String(v)) / 1000
    const n = Number(v)
    return Number.isFinite(n) ? n : null
  }

  /** Builds the aligned series: x values sorted, one y array per (key value, y column). */
  private series(): { data: uPlot.AlignedData; names: string[] } {
    const groups = new Map<string, Map<number, (number | null)[]>>()
    for (const row of this.rows) {
      const x = this.xValue(row[this.x])
      if (x === null || Number.isNaN(x)) continue
      const k = this.key >= 0 ? String(row[this.key]) : ''
      let g = groups.get(k)
      if (g === undefined) {
        if (groups.size * Math.max(1, this.ys.length) >= MAX_SERIES) continue
        g = new Map()
        groups.set(k, g)
      }
      g.set(x, this.ys.map((j) => (row[j] === null ? null : Number(row[j]))))
    }
    const xs = [...new Set([...groups.values()].flatMap((g) => [...g.keys()]))].sort((a, b) => a - b)
    const names: string[] = []
    const ys: (number | null)[][] = []
    for (const [k, g] of groups) {
      this.ys.forEach((j, n) => {
        names.push(this.key >= 0 ? `${k} · ${this.columns[j]!.name}` : this.columns[j]!.name)
        ys.push(xs.map((x) => g.get(x)?.[n] ?? null))
      })
    }
    return { data: [xs, ...ys] as uPlot.AlignedData, names }
  }

  private draw(): void {
    this.plot?.destroy()
    this.plot = undefined
    const { data, names } = this.series()
    if (names.length === 0) { this.plotBox.replaceChildren(el('div', { class: 'muted' }, 'Choose at least one numeric y column.')); return }
    this.plotBox.replaceChildren()
    const bars = this.kind === 'bar' ? uPlot.paths.bars!({ size: [0.7, 40] }) : undefined
    const temporal = TEMPORAL.has(this.columns[this.x]?.type ?? '')
    const css = getComputedStyle(this.element)
    const muted = css.getPropertyValue('--fg-muted').trim() || '#888'
    const line = css.getPropertyValue('--grid-line').trim() || '#ddd'
    const axis = { stroke: muted, grid: { stroke: line }, ticks: { stroke: line } }
    const opts: uPlot.Options = {
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      width: Math.max(200, this.plotBox.clientWidth), height: Math.max(120, this.plotBox.clientHeight - 40),
      scales: { x: { time: temporal } },
      axes: [axis, axis],
      series: [{ label: this.columns[this.x]?.name ?? 'x' }, ...names.map((label, i) => {
        const color = PALETTE[i % PALETTE.length]!
        return { label, stroke: color, width: 1.5, ...(this.kind === 'area' ? { fill: color + '33' } : {}), ...(bars !== undefined ? { paths: bars, fill: color + 'aa' } : {}), spanGaps: true }
      })],
    }
    this.plot = new uPlot(opts, data, this.plotBox)
  }

  private resize(): void {
    if (this.plot === undefined) return
    this.plot.setSize({ width: Math.max(200, this.plotBox.clientWidth), height: Math.max(120, this.plotBox.clientHeight - 40) })
  }
}
