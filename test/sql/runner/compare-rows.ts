/**
 * Compares expected row text with formatted actual rows. Values are whitespace-separated
 * tokens (or tab-separated cells when the expected line has a tab); numbers compare by value,
 * reals within a tolerance; everything else compares as exact text.
 */
import type { Flavor, SortMode } from './slt-types.js'

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/
const INTEGER = /^[+-]?\d+$/

/** Whether two value tokens are equal: numbers by value (reals within tolerance), else text. */
export function tokensEqual(expected: string, actual: string, flavor: Flavor): boolean {
  if (expected === actual) return true
  if (!NUMBER.test(expected) || !NUMBER.test(actual)) return false
  if (INTEGER.test(expected) && INTEGER.test(actual)) return BigInt(expected) === BigInt(actual)
  const e = Number(expected)
  const a = Number(actual)
  if (e === a) return true
  const scale = Math.max(1, Math.abs(e), Math.abs(a))
  // QuestDB's files round reals to 6 decimals; ours print shortest round-trip digits
  const tolerance = flavor === 'questdb' ? 1e-6 + 1e-9 * scale : 1e-9 * scale
  return Math.abs(e - a) <= tolerance
}

/** The tokens of one line: tab-separated cells when it has a tab, else whitespace-separated words. */
export function lineTokens(line: string): string[] {
  if (line.includes('\t')) return line.split('\t').map(c => c.trim())
  const t = line.trim()
  return t === '' ? [] : t.split(/\s+/)
}

/** The tokens of a formatted actual row, split the same way as an expected line without tabs. */
export function cellTokens(cells: readonly string[], asCells: boolean): string[] {
  if (asCells) return cells.map(c => c.trim())
  return cells.flatMap(c => lineTokens(c.replace(/\t/g, ' ')))
}

function rowsEqual(expected: string, actual: readonly string[], flavor: Flavor): boolean {
  // QuestDB's runner (sqllogictest-rs) compares rows with all whitespace collapsed, whatever
  // separates the expected values (its files mix tabs and spaces in one line)
  const asCells = flavor !== 'questdb' && expected.includes('\t')
  const e = flavor === 'questdb' ? lineTokens(expected.replace(/\t/g, ' ')) : lineTokens(expected)
  const a = cellTokens(actual, asCells)
  if (e.length !== a.length) return false
  for (let k = 0; k < e.length; k++) if (!tokensEqual(e[k]!, a[k]!, flavor)) return false
  return true
}

function compareText(x: string, y: string): number {
  return x < y ? -1 : x > y ? 1 : 0
}

/** What a comparison found; `ok` false comes with a short reason. */
export interface Comparison {
  readonly ok: boolean
  readonly reason?: string
}

/**
 * Compares expected lines with actual formatted rows under a sort mode. `rowsort` sorts rows by
 * their text, `valuesort` sorts all values individually, `nosort` / none keeps the order.
 */
export function compareRows(
  expected: readonly string[],
  actual: readonly (readonly string[])[],
  sort: SortMode | undefined,
  flavor: Flavor,
): Comparison {
  if (sort === 'valuesort') {
    const e = expected.flatMap(lineTokens).sort(compareText)
    const a = actual.flatMap(r => cellTokens(r, false)).sort(compareText)
    if (e.length !== a.length) return { ok: false, reason: `expected ${e.length} values, got ${a.length}` }
    for (let k = 0; k < e.length; k++) {
      if (!tokensEqual(e[k]!, a[k]!, flavor)) return { ok: false, reason: `value ${k + 1} (sorted) differs: expected ${e[k]}, got ${a[k]}` }
    }
    return { ok: true }
  }
  if (expected.length !== actual.length) {
    return { ok: false, reason: `expected ${expected.length} rows, got ${actual.length}` }
  }
  let e = expected
  let a = actual
  if (sort === 'rowsort') {
    e = [...expected].sort((x, y) => compareText(lineTokens(x).join(' '), lineTokens(y).join(' ')))
    a = [...actual].sort((x, y) => compareText(cellTokens(x, false).join(' '), cellTokens(y, false).join(' ')))
  }
  for (let k = 0; k < e.length; k++) {
    if (!rowsEqual(e[k]!, a[k]!, flavor)) return { ok: false, reason: `row ${k + 1}${sort === 'rowsort' ? ' (sorted)' : ''} differs` }
  }
  return { ok: true }
}
