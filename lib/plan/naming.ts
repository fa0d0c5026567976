/**
 * AST helpers for the binder: QuestDB's output column names, structural keys of expressions,
 * and aggregate detection.
 */
import type { ColumnRef, Expr, SelectItem } from '../sql/ast.js'
import { functionsNamed, isAggregateOf } from '../functions/registry.js'
import { expressionText, switchArgs } from './expression-text.js'

/**
 * The name QuestDB gives a select item: its alias; a column's name; a function's name
 * (`count`, `avg`; `concat` for `a || b`); `cast` for casts; `case` for CASE (`switch` for the CASE
 * forms QuestDB rewrites into its switch function); a literal's text (a string without its
 * quotes: `SELECT 'C1'` is column `C1`; a negative number with its sign: `SELECT -5` is `-5`);
 * otherwise `column`.
 */
export function outputName(item: SelectItem): string {
  if (item.alias !== undefined) return item.alias
  const e = item.expr
  switch (e.kind) {
    case 'column': return e.name
    // QuestDB names a window call with IGNORE NULLS `<name>_ignore_nulls`
    case 'call': return e.over !== undefined && e.ignoreNulls === true ? `${e.name}_ignore_nulls` : e.name
    case 'cast': return 'cast'
    case 'case': return switchArgs(e) === undefined ? 'case' : 'switch'
    // QuestDB rewrites `a || b` into concat(a, b) before naming
    case 'binary': return e.op === '||' ? 'concat' : 'column'
    case 'extract': return 'extract'
    case 'unary':
      // QuestDB's lexer folds a sign into a number literal: `-5` is the constant -5
      if (e.op === '-' && e.operand.kind === 'literal' && (e.operand.type === 'int' || e.operand.type === 'long' || e.operand.type === 'double' || e.operand.type === 'decimal')) return `-${e.operand.text}`
      return 'column'
    case 'literal':
      switch (e.type) {
        case 'int': case 'long': case 'double': case 'long256': case 'decimal': case 'geohash': return e.text
        case 'string': return e.value === '' ? 'column' : e.value
        case 'boolean': return String(e.value)
        case 'null': return 'null'
        case 'char': return `'${e.value}'`
      }
    // fallthrough is impossible: every literal type returns
    default: return 'column'
  }
}

/**
 * How result columns without an alias are named: `legacy` is QuestDB's
 * `cairo.sql.column.alias.expression.enabled=false` ({@link outputName}, duplicates `x1`);
 * `expression` names them after their text ({@link expressionText}, at most `maxLength`
 * characters, duplicates `x_2`), as a QuestDB 9 server does by default.
 */
export interface OutputNaming {
  readonly expression: boolean
  /** `cairo.sql.column.alias.generated.max.size` (64) */
  readonly maxLength: number
}

/** QuestDB's default lengths of generated names. */
export const DEFAULT_ALIAS_MAX_LENGTH = 64

/**
 * The names of a select list's columns. `expanded` holds the items a `*` became: they keep their
 * column names, made unique with digits (`ts1`) after the other columns are named, as QuestDB.
 */
export function outputNames(items: readonly SelectItem[], naming: OutputNaming | undefined, expanded?: ReadonlySet<SelectItem>): string[] {
  if (naming === undefined || !naming.expression) return uniqueNames(items.map((it) => outputName(it)))
  const out: (string | undefined)[] = items.map((it) => it.alias)
  const used = new Set<string>()
  const explicit = uniqueNames(items.flatMap((it) => it.alias === undefined ? [] : [it.alias]))
  let k = 0
  items.forEach((it, i) => { if (it.alias !== undefined) { out[i] = explicit[k++]!; used.add(out[i]!.toLowerCase()) } })
  items.forEach((it, i) => {
    if (out[i] !== undefined || expanded?.has(it) === true) return
    const e = it.expr
    out[i] = generatedName(e.kind === 'column' ? e.name : expressionText(e), e.kind !== 'column' && hasUnquotedDot(expressionText(e)), used, naming.maxLength)
    used.add(out[i]!.toLowerCase())
  })
  items.forEach((it, i) => {
    if (out[i] !== undefined) return
    const n = outputName(it)
    let name = n
    for (let j = 1; used.has(name.toLowerCase()); j++) name = `${n}${j}`
    out[i] = name
    used.add(name.toLowerCase())
  })
  return out as string[]
}

/**
 * QuestDB's `createExprColumnAlias`: the text cut to `maxLength` characters without trailing
 * spaces, then `_2`, `_3`, ... until unused (case-insensitively). A text QuestDB keeps in
 * protective quotes (it has a `.`) gives up three characters to them.
 */
function generatedName(text: string, quoted: boolean, used: ReadonlySet<string>, maxLength: number): string {
  for (let seq = 1; ; seq++) {
    const suffix = seq > 1 ? `_${seq}` : ''
    const limit = Math.max(0, maxLength - suffix.length - (quoted ? 3 : 0))
    const content = text.length > limit ? text.slice(0, limit).replace(/ +$/, '') : text.replace(/ +$/, '')
    const name = content + suffix
    if (content.length > 0 && !used.has(name.toLowerCase())) return name
    if (seq > 100_000) return `${text}${suffix}`
  }
}

/** True when `s` has a `.` outside double quotes (QuestDB's `Chars.indexOfLastUnquoted`). */
function hasUnquotedDot(s: string): boolean {
  let inQuotes = false
  for (const c of s) {
    if (c === '"') inQuotes = !inQuotes
    else if (c === '.' && !inQuotes) return true
  }
  return false
}

/** Makes names unique case-insensitively as QuestDB does: `x`, `x1`, `x2`. */
export function uniqueNames(names: readonly string[]): string[] {
  const used = new Set<string>()
  return names.map((n) => {
    let name = n
    for (let i = 1; used.has(name.toLowerCase()); i++) name = `${n}${i}`
    used.add(name.toLowerCase())
    return name
  })
}

/** Keys computed so far (an AST is never changed once parsed, and binding asks for the same nodes' keys again and again). */
const astKeys = new WeakMap<Expr, string>()

/** A structural key of an expression: equal for the same expression written at different places. */
export function astKey(e: Expr): string {
  let key = astKeys.get(e)
  if (key === undefined) {
    key = JSON.stringify(e, (k, v: unknown) => {
      if (k === 'pos' || k === 'typePos' || k === 'aliasPos') return undefined
      if ((k === 'name' || k === 'table') && typeof v === 'string') return v.toLowerCase()
      return v
    })
    astKeys.set(e, key)
  }
  return key
}

/** True when the call names an aggregate function. */
export function isAggregateCall(e: Expr): boolean {
  if (e.kind !== 'call' || e.over !== undefined) return false
  const defs = functionsNamed(e.name.toLowerCase() === 'count' && e.distinct ? 'count_distinct' : e.name)
  return defs.length > 0 && (defs.every((d) => d.kind === 'aggregate') || isAggregateOf(defs, e.args.length))
}

/** True when an aggregate call appears in `e` (not looking into subqueries). */
export function containsAggregate(e: Expr): boolean {
  let found = false
  walk(e, (x) => { if (isAggregateCall(x)) { found = true; return false } return true })
  return found
}

/** Column references in `e`; with `outsideAggregates`, only those not inside an aggregate call. */
export function collectColumnRefs(e: Expr, outsideAggregates = false): ColumnRef[] {
  const out: ColumnRef[] = []
  walk(e, (x) => {
    if (outsideAggregates && isAggregateCall(x)) return false
    if (x.kind === 'column') out.push(x)
    return true
  })
  return out
}

/** Visits `e` and its sub-expressions (not subqueries) while `visit` returns true. */
function walk(e: Expr, visit: (e: Expr) => boolean): void {
  if (!visit(e)) return
  switch (e.kind) {
    case 'call': e.args.forEach((a) => walk(a, visit)); break
    case 'binary': walk(e.left, visit); walk(e.right, visit); break
    case 'unary': walk(e.operand, visit); break
    case 'cast': walk(e.expr, visit); break
    case 'case':
      if (e.operand !== undefined) walk(e.operand, visit)
      e.whens.forEach((w) => { walk(w.when, visit); walk(w.then, visit) })
      if (e.else !== undefined) walk(e.else, visit)
      break
    case 'in': walk(e.expr, visit); if (Array.isArray(e.list)) (e.list as readonly Expr[]).forEach((a) => walk(a, visit)); break
    case 'between': walk(e.expr, visit); walk(e.low, visit); walk(e.high, visit); break
    case 'like': walk(e.expr, visit); walk(e.pattern, visit); break
    case 'isnull': walk(e.expr, visit); break
    case 'extract': walk(e.expr, visit); break
    case 'literal': case 'column': case 'star': case 'param': case 'subquery': case 'exists': break
  }
}
