/**
 * Completion from the engine's own grammar: `expectedTokensAt` says which keywords may come
 * next; where an identifier may come, the schema gives table names (after FROM/JOIN/...) or
 * the columns of the tables in scope, and the function registry gives names with signatures.
 */
import type { Completion, CompletionContext, CompletionResult, CompletionSource } from '@codemirror/autocomplete'
import { expectedTokensAt, KEYWORDS } from '../../../lib/sql/index.js'
import { FUNCTIONS } from './functions.js'
import { statementAt } from './statements.js'

/** A column as the schema browser knows it. */
export interface SchemaColumn {
  readonly name: string
  readonly type: string
  readonly designated: boolean
}

/** What completion needs of the schema. */
export interface SchemaView {
  tableNames(): readonly string[]
  columns(table: string): Promise<readonly SchemaColumn[]>
}

/** Keywords after which a table name comes. */
const TABLE_CONTEXT = new Set(['from', 'join', 'update', 'into', 'table', 'exists'])

const FUNCTION_OPTIONS: readonly Completion[] = FUNCTIONS.map((f) => ({
  label: f.name, type: 'function', detail: f.sigs[0] ?? '()', info: [f.description, ...f.sigs.map((s) => f.name + s)].join('\n'), boost: -1,
  apply: f.name + '(',
}))

/** Names the statement refers to after FROM / JOIN (tables in scope), lower-cased. */
export function tablesInScope(statement: string, known: readonly string[]): string[] {
  const lower = new Map(known.map((n) => [n.toLowerCase(), n]))
  const out: string[] = []
  for (const m of statement.matchAll(/\b(?:from|join|update|into)\s+("[^"]+"|[\w.]+)/gi)) {
    const name = m[1]!.replace(/^"|"$/g, '').toLowerCase()
    const real = lower.get(name)
    if (real !== undefined && !out.includes(real)) out.push(real)
  }
  return out
}

/** The CodeMirror completion source. */
export function completionSource(schema: SchemaView): CompletionSource {
  return async (ctx: CompletionContext): Promise<CompletionResult | null> => {
    const word = ctx.matchBefore(/[\w$]*/)
    const from = word === null ? ctx.pos : word.from
    if (!ctx.explicit && (word === null || word.from === word.to)) {
      const before = ctx.state.sliceDoc(Math.max(0, ctx.pos - 1), ctx.pos)
      if (before !== ' ' && before !== '(' && before !== ',') return null
      if (before === ' ' && !/\b(from|join|select|where|by|on|and|or|update|into|table)\s$/i.test(ctx.state.sliceDoc(Math.max(0, ctx.pos - 12), ctx.pos))) return null
    }
    const doc = ctx.state.doc.toString()
    const expected = expectedTokensAt(doc, ctx.pos)
    const options: Completion[] = []
    const keywords = expected.length === 0 && from < ctx.pos ? KEYWORDS : expected.filter((e) => /^[A-Z_]+$/.test(e))
    for (const k of keywords) options.push({ label: k, type: 'keyword', boost: 1 })
    if (expected.includes('identifier') || expected.length === 0) {
      const prev = /(\w+)\s+[\w$]*$/.exec(doc.slice(Math.max(0, from - 40), ctx.pos))?.[1]?.toLowerCase()
      const tables = schema.tableNames()
      if (prev !== undefined && TABLE_CONTEXT.has(prev)) {
        for (const t of tables) options.push({ label: t, type: 'class', detail: 'table', boost: 3 })
        for (const f of FUNCTION_OPTIONS) if (FUNCTIONS.find((x) => x.name === f.label)?.kind === 'table') options.push(f)
      } else {
        const stmt = statementAt(doc, ctx.pos)
        for (const t of tablesInScope(stmt?.text ?? '', tables)) {
          for (const c of await schema.columns(t)) options.push({ label: c.name, type: 'property', detail: `${c.type}${c.designated ? ' (designated)' : ''} · ${t}`, boost: 4 })
        }
        options.push(...FUNCTION_OPTIONS)
        for (const t of tables) options.push({ label: t, type: 'class', detail: 'table', boost: -2 })
      }
    }
    if (options.length === 0) return null
    return { from, options, validFor: /^[\w$]*$/ }
  }
}
