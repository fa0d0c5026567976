/// <reference lib="dom" />
/**
 * What the console keeps in localStorage: the editor tabs and the history of executed queries,
 * and the theme.
 */

/** One editor tab. */
export interface TabState {
  id: number
  title: string
  text: string
}

/** One executed query. */
export interface HistoryEntry {
  readonly query: string
  readonly at: number
  readonly ok: boolean
}

const TABS_KEY = 'epochdb.console.tabs'
const HISTORY_KEY = 'epochdb.console.history'
const THEME_KEY = 'epochdb.console.theme'
/** Entries kept in the history. */
const HISTORY_MAX = 500

function read<T>(key: string, fallback: T): T {
  try {
    const s = localStorage.getItem(key)
    return s === null ? fallback : (JSON.parse(s) as T)
  } catch {
    return fallback
  }
}

function write(key: string, value: unknown): void {
  try { localStorage.setItem(key, JSON.stringify(value)) } catch { /* quota or disabled storage: keep going */ }
}

const WELCOME = `-- Ctrl/Cmd+Enter runs the statement at the cursor (or the selection); Ctrl/Cmd+Shift+Enter runs all.
-- Drop a CSV file anywhere to import it.
select * from long_sequence(10);
`

/** The saved tabs and the active tab id. */
export function loadTabs(): { tabs: TabState[]; active: number } {
  const saved = read<{ tabs: TabState[]; active: number } | null>(TABS_KEY, null)
  if (saved === null || !Array.isArray(saved.tabs) || saved.tabs.length === 0) return { tabs: [{ id: 1, title: 'Query 1', text: WELCOME }], active: 1 }
  return saved
}

/** Saves the tabs. */
export function saveTabs(tabs: readonly TabState[], active: number): void {
  write(TABS_KEY, { tabs, active })
}

/** The history, newest first. */
export function loadHistory(): HistoryEntry[] {
  return read<HistoryEntry[]>(HISTORY_KEY, [])
}

/** Adds a query to the history (a repeat moves to the top). */
export function addHistory(query: string, ok: boolean): HistoryEntry[] {
  const list = [{ query, at: Date.now(), ok }, ...loadHistory().filter((h) => h.query !== query)].slice(0, HISTORY_MAX)
  write(HISTORY_KEY, list)
  return list
}

/** The two themes. */
export type Theme = 'dark' | 'light'

/** The saved theme (default: the system's preference). */
export function loadTheme(): Theme {
  const t = read<Theme | null>(THEME_KEY, null)
  if (t === 'dark' || t === 'light') return t
  return window.matchMedia?.('(prefers-color-scheme: light)').matches === true ? 'light' : 'dark'
}

/** Saves the theme. */
export function saveTheme(t: Theme): void {
  write(THEME_KEY, t)
}
