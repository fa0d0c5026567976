/// <reference lib="dom" />
/**
 * The SQL editor: CodeMirror 6 with the QuestDB dialect's keywords, types and functions
 * highlighted, the engine-grammar completion, Ctrl/Cmd+Enter to run, and the error mark (the
 * token at the server's position underlined, the cursor moved there).
 */
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from '@codemirror/autocomplete'
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands'
import { bracketMatching, defaultHighlightStyle, HighlightStyle, syntaxHighlighting } from '@codemirror/language'
import { SQLDialect, sql } from '@codemirror/lang-sql'
import { highlightSelectionMatches, searchKeymap } from '@codemirror/search'
import { EditorState, StateEffect, StateField, type Extension } from '@codemirror/state'
import { Decoration, type DecorationSet, drawSelection, EditorView, highlightActiveLine, keymap, lineNumbers, MatchDecorator, ViewPlugin, type ViewUpdate } from '@codemirror/view'
import { tags } from '@lezer/highlight'
import { KEYWORDS, tokenize } from '../../../lib/sql/index.js'
import { completionSource, type SchemaView } from './complete.js'
import { FUNCTIONS } from './functions.js'

const TYPES = 'boolean byte short char int integer long float double string varchar symbol date timestamp timestamp_ns binary long256 uuid ipv4 geohash interval array'

/** QuestDB's dialect for the CodeMirror SQL mode. */
export const QUESTDB_DIALECT = SQLDialect.define({
  keywords: KEYWORDS.join(' ').toLowerCase(),
  builtin: FUNCTIONS.map((f) => f.name).join(' '),
  types: TYPES,
  operatorChars: '*+-%<>!=&|~^/:',
  specialVar: '$',
})

const HIGHLIGHT = HighlightStyle.define([
  { tag: tags.keyword, class: 'tok-keyword' },
  { tag: tags.standard(tags.name), class: 'tok-function' },
  { tag: tags.typeName, class: 'tok-type' },
  { tag: tags.string, class: 'tok-string' },
  { tag: [tags.number, tags.bool, tags.null], class: 'tok-number' },
  { tag: tags.comment, class: 'tok-comment' },
  { tag: tags.special(tags.string), class: 'tok-string' },
])

/** Interval and timestamp strings ('2024-01-01;1h', '2024-01T10:00') get their own colour. */
const intervalMarks = new MatchDecorator({
  regexp: /'\d{4}(?:-\d\d){0,2}(?:[T ][\d:.]+)?Z?(?:;[^']*)?'/g,
  decoration: Decoration.mark({ class: 'tok-interval' }),
})
const intervalPlugin = ViewPlugin.fromClass(class {
  decorations: DecorationSet
  constructor(view: EditorView) { this.decorations = intervalMarks.createDeco(view) }
  update(u: ViewUpdate): void { this.decorations = intervalMarks.updateDeco(u, this.decorations) }
}, { decorations: (v) => v.decorations })

const setError = StateEffect.define<{ from: number; to: number } | null>()

/** The underlined error range; cleared by the next edit. */
const errorField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(deco, tr) {
    for (const e of tr.effects) {
      if (e.is(setError)) return e.value === null ? Decoration.none : Decoration.set([Decoration.mark({ class: 'cm-sql-error' }).range(e.value.from, e.value.to)])
    }
    return tr.docChanged ? Decoration.none : deco
  },
  provide: (f) => EditorView.decorations.from(f),
})

/** What the editor calls back into. */
export interface EditorHooks {
  /** Ctrl/Cmd+Enter: run the selection or the statement at the cursor */
  run(): void
  /** Ctrl/Cmd+Shift+Enter: run every statement */
  runAll(): void
  /** any edit (tabs save their text) */
  changed(text: string): void
}

/** Creates the editor in `parent`. */
export function createEditor(parent: HTMLElement, text: string, schema: SchemaView, hooks: EditorHooks): EditorView {
  const extensions: Extension[] = [
    lineNumbers(), history(), drawSelection(), highlightActiveLine(), bracketMatching(), closeBrackets(), highlightSelectionMatches(),
    sql({ dialect: QUESTDB_DIALECT, upperCaseKeywords: false }),
    syntaxHighlighting(HIGHLIGHT), syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
    intervalPlugin, errorField,
    autocompletion({ override: [completionSource(schema)], activateOnTyping: true, icons: true }),
    keymap.of([
      { key: 'Mod-Enter', run: () => { hooks.run(); return true } },
      { key: 'Mod-Shift-Enter', run: () => { hooks.runAll(); return true } },
      ...closeBracketsKeymap, ...completionKeymap, ...searchKeymap, ...historyKeymap, ...defaultKeymap, indentWithTab,
    ]),
    EditorView.updateListener.of((u) => { if (u.docChanged) hooks.changed(u.state.doc.toString()) }),
    EditorView.lineWrapping,
  ]
  return new EditorView({ parent, state: EditorState.create({ doc: text, extensions }) })
}

/**
 * Underlines the token at `position` (0-based, in the statement that starts at `base` in the
 * document) and moves the cursor there.
 */
export function markError(view: EditorView, base: number, statement: string, position: number): void {
  const docLen = view.state.doc.length
  const at = Math.min(base + Math.max(0, Math.min(position, statement.length)), docLen)
  let to = at
  try {
    const tok = tokenize(statement).find((t) => t.offset <= position && position < t.offset + t.text.length)
    if (tok !== undefined) to = base + tok.offset + tok.text.length
  } catch { /* unlexable text: mark one character */ }
  if (to <= at) to = Math.min(at + 1, docLen)
  let from = at
  if (to <= from) from = Math.max(0, to - 1) // error at the very end: mark the last character
  view.dispatch({ effects: setError.of(to > from ? { from, to } : null), selection: { anchor: at }, scrollIntoView: true })
  view.focus()
}

/** Removes the error mark. */
export function clearError(view: EditorView): void {
  view.dispatch({ effects: setError.of(null) })
}
