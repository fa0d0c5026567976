/// <reference lib="dom" />
/**
 * The Web Console: layout, tabs, running statements, and the result panel (grid, chart,
 * messages). Entry point of the bundle built by adapters/console/build.mjs.
 */
import type { EditorView } from '@codemirror/view'
import 'uplot/dist/uPlot.min.css'
import './styles.css'
import { downloadWithCredentials, exec, expUrl, type ExecRows } from './api.js'
import { ChartPanel } from './chart.js'
import { el } from './dom.js'
import { clearError, createEditor, markError } from './editor.js'
import { gridStats, PAGE_ROWS, ResultGrid } from './grid.js'
import { HistoryPanel } from './history.js'
import { importFile, installDropImport } from './import.js'
import { SchemaBrowser } from './schema.js'
import { authHeaders, currentUser, onRefused, signInForm, signOut } from './sign-in.js'
import { type StatementRange, splitStatements, statementAt } from './statements.js'
import { hasAuthorizer } from './auth/authorized-fetch.js'
import { startAuth } from './auth/index.js'
import { addHistory, loadTabs, loadTheme, saveTabs, saveTheme, type TabState, type Theme } from './store.js'

const app = document.getElementById('app')!
const status = el('span', { class: 'status', 'data-testid': 'status' }, 'Ready')
const runBtn = el('button', { class: 'primary', title: 'Run the statement at the cursor or the selection (Ctrl/Cmd+Enter)', 'data-testid': 'run' }, '▶ Run')
const runAllBtn = el('button', { title: 'Run all statements in order (Ctrl/Cmd+Shift+Enter)' }, 'Run all')
const cancelBtn = el('button', { class: 'danger', 'data-testid': 'cancel', disabled: '' }, 'Cancel')
const gridTab = el('button', { class: 'view-tab on', 'data-testid': 'view-grid' }, 'Grid')
const chartTab = el('button', { class: 'view-tab', 'data-testid': 'view-chart' }, 'Chart')
const csvLink = el('a', { class: 'button hidden', 'data-testid': 'csv', download: 'result.csv' }, '⬇ CSV')
const summary = el('span', { class: 'summary', 'data-testid': 'summary' })
const message = el('div', { class: 'message hidden', 'data-testid': 'message' })
const importBar = el('div', { class: 'import-bar hidden', 'data-testid': 'import' }, el('span', {}), el('progress', { max: '1' }))
const grid = new ResultGrid()
const chart = new ChartPanel()
const schema = new SchemaBrowser((text) => insertText(text))
const history = new HistoryPanel((q) => insertText(q))
const tabBar = el('div', { class: 'tabs' })
const editorBox = el('div', { class: 'editor-box' })
const resultBody = el('div', { class: 'result-body' }, grid.element, chart.element, message)
const themeBtn = el('button', { class: 'icon', title: 'Dark / light theme', 'data-testid': 'theme' }, '◐')
const fileInput = el('input', { type: 'file', accept: '.csv,.tsv,.txt,text/csv', class: 'hidden', 'data-testid': 'file' })
const importBtn = el('button', { title: 'Import a CSV file (or drop one anywhere)' }, 'Import CSV')
const historyBtn = el('button', { title: 'History of executed queries', 'data-testid': 'history' }, 'History')
const userLabel = el('span', { class: 'user hidden', 'data-testid': 'signed-in-user' })
const signOutBtn = el('button', { class: 'hidden', title: 'Sign out (forgets the session token and reloads)', 'data-testid': 'signout' }, 'Sign out')
const signIn = signInForm(() => signedIn())

let theme: Theme = loadTheme()
const saved = loadTabs()
const tabs: TabState[] = saved.tabs
let active = saved.active
const views = new Map<number, EditorView>()
let controller: AbortController | undefined
let current: ExecRows | undefined
let view: 'grid' | 'chart' = 'grid'

function applyTheme(): void { document.documentElement.dataset.theme = theme }

function layout(): void {
  applyTheme()
  app.append(
    el('header', { class: 'topbar' }, el('span', { class: 'logo' }, 'EpochDB'), el('span', { class: 'muted', 'data-testid': 'version' }, ''), el('span', { class: 'spacer' }), importBtn, fileInput, historyBtn, userLabel, signOutBtn, themeBtn),
    el('div', { class: 'main' },
      el('aside', { class: 'side' }, schema.element),
      el('div', { class: 'work' },
        tabBar, editorBox,
        el('div', { class: 'toolbar' }, runBtn, runAllBtn, cancelBtn, status),
        el('section', { class: 'result' },
          el('div', { class: 'result-bar' }, gridTab, chartTab, summary, el('span', { class: 'spacer' }), csvLink),
          resultBody, importBar)),
      history.element),
    signIn.element,
  )
  signOutBtn.onclick = () => signOut()
  csvLink.onclick = (e) => {
    if (Object.keys(authHeaders()).length === 0 && !hasAuthorizer()) return // a plain link: no credentials to carry
    e.preventDefault()
    void downloadWithCredentials(csvLink.getAttribute('href')!, 'result.csv').catch((err: Error) => showMessage(`CSV download failed: ${err.message}`, 'error'))
  }
  runBtn.onclick = () => { void run('current') }
  runAllBtn.onclick = () => { void run('all') }
  cancelBtn.onclick = () => controller?.abort()
  gridTab.onclick = () => setView('grid')
  chartTab.onclick = () => setView('chart')
  themeBtn.onclick = () => { theme = theme === 'dark' ? 'light' : 'dark'; saveTheme(theme); applyTheme() }
  historyBtn.onclick = () => history.toggle()
  importBtn.onclick = () => fileInput.click()
  fileInput.onchange = () => { const f = fileInput.files?.[0]; if (f !== undefined) void importFile(f, reportImport, imported); fileInput.value = '' }
  installDropImport(app, reportImport, imported)
  setView('grid')
  renderTabs()
}

function reportImport(text: string, fraction: number | undefined, ok: boolean): void {
  importBar.classList.remove('hidden')
  importBar.classList.toggle('error', !ok)
  importBar.querySelector('span')!.textContent = text
  const bar = importBar.querySelector('progress')!
  bar.classList.toggle('hidden', fraction === undefined)
  if (fraction !== undefined) bar.value = fraction
}

function imported(): void { void schema.refresh() }

function activeView(): EditorView {
  let v = views.get(active)
  if (v === undefined) {
    const tab = tabs.find((t) => t.id === active)!
    v = createEditor(editorBox, tab.text, schema, {
      run: () => { void run('current') },
      runAll: () => { void run('all') },
      changed: (text) => { tab.text = text; saveTabs(tabs, active) },
    })
    views.set(active, v)
  }
  return v
}

function renderTabs(): void {
  const buttons = tabs.map((t) => {
    const close = el('span', { class: 'close', title: 'Close tab' }, '×')
    close.onclick = (e) => { e.stopPropagation(); closeTab(t.id) }
    const b = el('div', { class: t.id === active ? 'tab on' : 'tab' }, el('span', {}, t.title), ...(tabs.length > 1 ? [close] : []))
    b.onclick = () => { active = t.id; saveTabs(tabs, active); renderTabs() }
    b.ondblclick = () => { const name = prompt('Tab name', t.title); if (name !== null && name.trim() !== '') { t.title = name.trim(); saveTabs(tabs, active); renderTabs() } }
    return b
  })
  const add = el('button', { class: 'tab add', title: 'New tab', 'data-testid': 'new-tab' }, '+')
  add.onclick = () => {
    const id = Math.max(0, ...tabs.map((t) => t.id)) + 1
    tabs.push({ id, title: `Query ${id}`, text: '' })
    active = id
    saveTabs(tabs, active)
    renderTabs()
  }
  tabBar.replaceChildren(...buttons, add)
  const v = activeView()
  for (const [id, ev] of views) ev.dom.classList.toggle('hidden', id !== active)
  v.focus()
}

function closeTab(id: number): void {
  const i = tabs.findIndex((t) => t.id === id)
  if (i < 0 || tabs.length === 1) return
  tabs.splice(i, 1)
  views.get(id)?.destroy()
  views.delete(id)
  if (active === id) active = tabs[Math.max(0, i - 1)]!.id
  saveTabs(tabs, active)
  renderTabs()
}

function insertText(text: string): void {
  const v = activeView()
  const sel = v.state.selection.main
  v.dispatch({ changes: { from: sel.from, to: sel.to, insert: text }, selection: { anchor: sel.from + text.length } })
  v.focus()
}

function setView(next: 'grid' | 'chart'): void {
  view = next
  gridTab.classList.toggle('on', next === 'grid')
  chartTab.classList.toggle('on', next === 'chart')
  const hasRows = current !== undefined && message.classList.contains('hidden')
  grid.element.classList.toggle('hidden', next !== 'grid' || !hasRows)
  chart.element.classList.toggle('hidden', next !== 'chart' || !hasRows)
  if (next === 'chart' && hasRows && current !== undefined) void chart.load(current.query, current.columns, current.timestamp)
}

function showMessage(text: string, kind: 'error' | 'info'): void {
  message.textContent = text
  message.className = `message ${kind}`
  grid.element.classList.add('hidden')
  chart.element.classList.add('hidden')
}

function ms(ns: number | undefined): string { return ns === undefined ? '?' : `${(ns / 1e6).toFixed(ns < 1e7 ? 2 : 0)} ms` }

/** Runs the selection / statement at the cursor, or every statement. */
async function run(mode: 'current' | 'all'): Promise<void> {
  if (controller !== undefined) return
  const v = activeView()
  const doc = v.state.doc.toString()
  const sel = v.state.selection.main
  let list: StatementRange[]
  if (mode === 'all') list = splitStatements(doc)
  else if (!sel.empty) list = splitStatements(doc.slice(sel.from, sel.to)).map((s) => ({ ...s, from: s.from + sel.from, to: s.to + sel.from }))
  else { const s = statementAt(doc, sel.head); list = s === undefined ? [] : [s] }
  if (list.length === 0) { status.textContent = 'Nothing to run'; return }
  clearError(v)
  controller = new AbortController()
  cancelBtn.removeAttribute('disabled')
  runBtn.setAttribute('disabled', '')
  const started = performance.now()
  const tick = setInterval(() => { status.textContent = `Running… ${((performance.now() - started) / 1000).toFixed(1)} s` }, 100)
  status.textContent = 'Running…'
  try {
    for (const [n, s] of list.entries()) {
      const t0 = performance.now()
      const r = await exec(s.text, { lo: 1, hi: PAGE_ROWS, count: true, timings: true, signal: controller.signal })
      addHistory(s.text, r.kind !== 'error')
      history.refresh()
      const wall = performance.now() - t0
      if (r.kind === 'error') {
        showMessage(`${r.message}${r.position >= 0 ? ` (at position ${r.position})` : ''}`, 'error')
        csvLink.classList.add('hidden')
        current = undefined
        summary.textContent = list.length > 1 ? `statement ${n + 1} of ${list.length} failed` : ''
        if (r.position >= 0) markError(v, s.from, s.text, r.position)
        status.textContent = 'Error'
        return
      }
      if (r.kind === 'done') {
        current = undefined
        showMessage(`${r.message}${list.length > 1 ? ` (statement ${n + 1} of ${list.length})` : ''} · ${wall.toFixed(0)} ms`, 'info')
        summary.textContent = ''
        csvLink.classList.add('hidden')
        if (/^\s*(create|drop|alter|rename|truncate)\b/i.test(s.text)) void schema.refresh()
        continue
      }
      current = r
      message.className = 'message hidden'
      grid.element.classList.toggle('hidden', view !== 'grid') // visible before show() measures it
      grid.show({ query: r.query, columns: r.columns, timestamp: r.timestamp, count: r.count, firstPage: r.dataset })
      const t = r.timings
      summary.textContent = `${r.count.toLocaleString()} row${r.count === 1 ? '' : 's'} · ${r.columns.length} columns · execute ${ms(t?.execute)} · compile ${ms(t?.compiler)} · count ${ms(t?.count)} · total ${wall.toFixed(0)} ms`
      csvLink.setAttribute('href', expUrl(r.query))
      csvLink.classList.remove('hidden')
      setView(view)
    }
    status.textContent = `Done in ${((performance.now() - started) / 1000).toFixed(2)} s`
  } catch (e) {
    const aborted = (e as Error).name === 'AbortError'
    showMessage(aborted ? 'Cancelled: the query was stopped on the server.' : `Cannot reach the server: ${(e as Error).message}`, 'error')
    status.textContent = aborted ? 'Cancelled' : 'Server unreachable'
    summary.textContent = ''
    csvLink.classList.add('hidden')
    current = undefined
  } finally {
    clearInterval(tick)
    controller = undefined
    cancelBtn.setAttribute('disabled', '')
    runBtn.removeAttribute('disabled')
  }
}

/** Signed in (or no sign-in needed): show who, load the schema. */
function signedIn(): void {
  const user = currentUser()
  userLabel.textContent = user ?? ''
  userLabel.classList.toggle('hidden', user === undefined)
  signOutBtn.classList.toggle('hidden', user === undefined)
  void schema.refresh()
}

// a refused request (401, or 403 for the HTTP permission) brings the form back once: no retry loop
onRefused((why) => {
  if (hasAuthorizer()) return // signed in with OIDC: its own screens answer (auth/)
  userLabel.classList.add('hidden')
  signOutBtn.classList.add('hidden')
  signIn.show(why)
})

layout()
// OIDC first when /settings says so (auth/: it may leave for the provider and come back)
startAuth().then((s) => {
  document.querySelector('[data-testid=version]')!.textContent = String(s.config['release.version'] ?? '')
  if (s.badge !== undefined) document.querySelector('.topbar')!.append(s.badge)
  // the user name / password form when OIDC is off
  if (s.config['acl.enabled'] === true && s.config['acl.oidc.enabled'] !== true) signIn.show()
  else signedIn()
}).catch(() => { status.textContent = 'The server does not answer /settings' })

/** Hooks for tests and the curious (`epochConsole` in the devtools). */
Object.assign(window, { epochConsole: { gridStats, view: () => activeView() } })
