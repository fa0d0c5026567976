/// <reference lib="dom" />
/** The searchable history panel of executed queries (kept in localStorage). */
import { el } from './dom.js'
import { loadHistory } from './store.js'

/** The history side panel: a search box and the queries, newest first; a click inserts one. */
export class HistoryPanel {
  readonly element: HTMLElement
  private readonly search: HTMLInputElement
  private readonly list: HTMLElement

  constructor(private readonly pick: (query: string) => void) {
    this.search = el('input', { type: 'search', placeholder: 'Search history…', 'data-testid': 'history-search' })
    this.search.oninput = () => this.refresh()
    this.list = el('div', { class: 'history-list' })
    this.element = el('aside', { class: 'history hidden' }, el('header', {}, 'History'), this.search, this.list)
  }

  /** Shows or hides the panel. */
  toggle(): void {
    this.element.classList.toggle('hidden')
    if (!this.element.classList.contains('hidden')) { this.refresh(); this.search.focus() }
  }

  /** Re-reads the history and applies the search. */
  refresh(): void {
    if (this.element.classList.contains('hidden')) return
    const q = this.search.value.toLowerCase()
    const items = loadHistory().filter((h) => h.query.toLowerCase().includes(q)).slice(0, 200)
    this.list.replaceChildren(...items.map((h) => {
      const item = el('div', { class: h.ok ? 'history-item' : 'history-item failed', title: new Date(h.at).toLocaleString() }, h.query.length > 300 ? h.query.slice(0, 300) + '…' : h.query)
      item.onclick = () => this.pick(h.query)
      return item
    }))
  }
}
