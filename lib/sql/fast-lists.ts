/**
 * The parser's fast path for long lists of simple values: the rows of `INSERT ... VALUES` and
 * the items of `x [NOT] IN (...)`. The Earley parser costs microseconds per token, so a
 * 1,000-row INSERT spent almost all its time there; these lists have a shape a hand-written
 * scanner reads in one pass.
 *
 * How: before the Earley parser runs, {@link shrinkLists} scans the statement's tokens for such
 * lists whose every item is simple (a number, string, boolean, NULL or NaN literal, a `$n`
 * parameter, a typed literal `TIMESTAMP '...'`, optionally signed, optionally cast with
 * `::name`). It builds those items with the grammar's own AST builders (`build/expr.ts`) and
 * hands the grammar the statement with each list cut to its first item (first row); after the
 * parse, {@link ShrunkStatement.patch} puts the scanned items back into the nodes the grammar
 * made. Anything else (an expression, a sub-query, a multi-word type), and any list the patch
 * cannot find again, leaves the statement to the grammar alone, so the AST is always the
 * grammar's (test/unit/sql/fast-lists.test.ts compares both on a corpus).
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import type { Expr, Statement } from './ast.js'
import type { Token } from './lexer.js'
import { cast, keywordLiteral, numberLiteral, stringLiteral, typedLiteral, unary } from './build/expr.js'
import { typeName } from './build/ddl.js'
import { nameOf } from './build/tokens.js'
import { t_softName } from './build/terminals.js'

/** IN lists shorter than this go to the grammar as they are (not worth the detour). */
export const FAST_IN_MIN_ITEMS = 8

/** Items the scanner reads between two yields of {@link shrinkSteps}. */
const STEP_ITEMS = 4096

/** A statement's tokens with its long lists cut, and how to put them back. */
export interface ShrunkStatement {
  /** the tokens the grammar parses */
  readonly tokens: Token[]
  /**
   * Puts the scanned items back into the statement the grammar made of {@link tokens}; false
   * when a list's node is not where it should be (then parse the full tokens instead).
   */
  patch(stmt: Statement): boolean
}

const isOp = (t: Token | undefined, text: string): boolean => t !== undefined && t.type === 'op' && t.text === text

/** A token the grammar's `name` rule takes (identifier or soft keyword; not a quoted one here). */
const isName = (t: Token | undefined): t is Token => t !== undefined && (t.type === 'ident' || t_softName.test(t))

/** The item {@link scanItem} read last (a module variable: no result object per item of a 21,000-item INSERT). */
let lastItem: Expr | undefined

/**
 * One simple item starting at `tokens[i]`, which must be followed by `,` or `)`: returns the
 * index of that token and leaves the item in {@link lastItem}; -1 when there is none.
 */
function scanItem(tokens: readonly Token[], i: number): number {
  let tok = tokens[i]
  let sign: Token | undefined
  if (isOp(tok, '-') || isOp(tok, '+')) {
    sign = tok
    tok = tokens[++i]
  }
  if (tok === undefined) return -1
  let expr: Expr
  switch (tok.type) {
    case 'integer': case 'long': case 'float': case 'hex': case 'NAN':
      expr = numberLiteral(tok)
      i++
      break
    case 'string':
      expr = stringLiteral(tok)
      i++
      break
    case 'TRUE': case 'FALSE': case 'NULL':
      expr = keywordLiteral(tok)
      i++
      break
    case 'param':
      expr = { kind: 'param', pos: tok.offset, index: Number(tok.text.slice(1)) }
      i++
      break
    default: {
      const str = tokens[i + 1]
      if (!isName(tok) || str === undefined || str.type !== 'string') return -1
      const typed = typedLiteral(nameOf(tok), str)
      if (typed === null) return -1
      expr = typed
      i += 2
    }
  }
  while (isOp(tokens[i], '::')) {
    const op = tokens[i] as Token
    const type = tokens[i + 1]
    const after = tokens[i + 2]
    // one-word type names only: `(`, `[` or a second word (`double precision`) go to the grammar
    if (!isName(type) || !(isOp(after, ',') || isOp(after, ')') || isOp(after, '::'))) return -1
    expr = cast(op.offset, expr, typeName(nameOf(type), null, 0), true)
    i += 2
  }
  if (sign !== undefined) expr = unary(sign, expr)
  const next = tokens[i]
  if (!(isOp(next, ',') || isOp(next, ')'))) return -1
  lastItem = expr
  return i
}

/** A parenthesised list of simple items at `tokens[open]` (`(`); its items and the `)` index. */
type ScannedList = { items: Expr[]; firstEnd: number; close: number }

/**
 * {@link scanList} as steps: yields after every {@link STEP_ITEMS} items, so one list of
 * 150,000 items is not read in one go.
 */
function* scanListSteps(tokens: readonly Token[], open: number): Generator<void, ScannedList | undefined> {
  if (!isOp(tokens[open], '(')) return undefined
  const items: Expr[] = []
  let i = open + 1
  let firstEnd = -1
  for (let n = 1; ; n++) {
    const next = scanItem(tokens, i)
    if (next < 0) return undefined
    items.push(lastItem!)
    if (firstEnd < 0) firstEnd = next
    i = next
    if (isOp(tokens[i], ')')) return { items, firstEnd, close: i }
    i++ // the comma
    if (n % STEP_ITEMS === 0) yield
  }
}

/** {@link scanListSteps} in one go (a VALUES row: a few items). */
function scanList(tokens: readonly Token[], open: number): ScannedList | undefined {
  const steps = scanListSteps(tokens, open)
  for (;;) {
    const r = steps.next()
    if (r.done === true) return r.value
  }
}

/** One cut list: where its node is and what goes back in. */
type Cut =
  | { readonly kind: 'values'; readonly rows: Expr[][] }
  | { readonly kind: 'in'; readonly pos: number; readonly items: Expr[] }

/**
 * The index of `VALUES` in `INSERT ... VALUES` tokens (outside parentheses, before any `;`);
 * -1 when the statement is not one (`INSERT ... SELECT`/`WITH`, or no `VALUES`).
 */
export function valuesIndex(tokens: readonly Token[]): number {
  if (tokens[0]?.type !== 'INSERT') return -1
  let depth = 0
  for (let i = 1; i < tokens.length; i++) {
    const t = tokens[i] as Token
    if (isOp(t, '(')) depth++
    else if (isOp(t, ')')) depth--
    else if (isOp(t, ';')) return -1
    else if (depth === 0 && t.type === 'VALUES') return i
    else if (depth === 0 && (t.type === 'SELECT' || t.type === 'WITH')) return -1
  }
  return -1
}

/**
 * The scan of {@link shrinkLists} as steps: yields every few thousand items so an async caller
 * can pause between them; returns the shrunk statement, or undefined when there is nothing to
 * cut.
 */
export function* shrinkSteps(tokens: readonly Token[]): Generator<void, ShrunkStatement | undefined> {
  const keep: [number, number][] = [] // token ranges kept, in order
  const cuts: Cut[] = []
  let from = 0
  let scanned = 0
  if (tokens[0]?.type === 'INSERT') {
    const values = valuesIndex(tokens)
    const row0 = values < 0 ? undefined : scanList(tokens, values + 1)
    if (row0 !== undefined) {
      const rows: Expr[][] = []
      let j = row0.close + 1
      let ok = true
      while (isOp(tokens[j], ',')) {
        const row = scanList(tokens, j + 1)
        if (row === undefined) { ok = false; break }
        rows.push(row.items)
        j = row.close + 1
        scanned += row.items.length
        if (scanned >= STEP_ITEMS) { scanned = 0; yield }
      }
      if (ok && j === tokens.length && rows.length > 0) {
        keep.push([0, row0.close + 1])
        from = tokens.length
        cuts.push({ kind: 'values', rows })
      }
    }
  }
  for (let i = from; i < tokens.length; i++) {
    const t = tokens[i] as Token
    if (t.type !== 'IN' || !isOp(tokens[i + 1], '(')) continue
    const list = yield* scanListSteps(tokens, i + 1)
    if (list === undefined || list.items.length < FAST_IN_MIN_ITEMS) continue
    const before = tokens[i - 1]
    const pos = before !== undefined && before.type === 'NOT' ? before.offset : t.offset
    keep.push([from, list.firstEnd])
    from = list.close
    cuts.push({ kind: 'in', pos, items: list.items })
    i = list.close
    scanned += list.items.length
    if (scanned >= STEP_ITEMS) { scanned = 0; yield }
  }
  if (cuts.length === 0) return undefined
  if (from < tokens.length) keep.push([from, tokens.length])
  const shrunk: Token[] = []
  for (const [lo, hi] of keep) for (let k = lo; k < hi; k++) shrunk.push(tokens[k] as Token)
  yield
  return { tokens: shrunk, patch: (stmt) => patch(stmt, cuts) }
}

/** {@link shrinkSteps} in one go. */
export function shrinkLists(tokens: readonly Token[]): ShrunkStatement | undefined {
  const steps = shrinkSteps(tokens)
  for (;;) {
    const r = steps.next()
    if (r.done === true) return r.value
  }
}

/** Puts every cut list back; false when one is not found as expected. */
function patch(stmt: Statement, cuts: readonly Cut[]): boolean {
  const ins = new Map<number, Expr[]>()
  for (const c of cuts) {
    if (c.kind === 'values') {
      if (stmt.kind !== 'insert' || stmt.source.kind !== 'values' || stmt.source.rows.length !== 1) return false
      ;(stmt.source as unknown as { rows: (readonly Expr[])[] }).rows = [stmt.source.rows[0] as readonly Expr[], ...c.rows]
    } else {
      ins.set(c.pos, c.items)
    }
  }
  if (ins.size === 0) return true
  let found = 0
  const walk = (x: unknown): void => {
    if (x === null || typeof x !== 'object') return
    if (Array.isArray(x)) {
      for (const y of x) walk(y)
      return
    }
    const node = x as { kind?: unknown; pos?: unknown; list?: unknown }
    if (node.kind === 'in' && typeof node.pos === 'number' && Array.isArray(node.list) && node.list.length === 1) {
      const items = ins.get(node.pos)
      if (items !== undefined) {
        // the grammar's first item stays (same tokens), the scanned rest follow; the scanned
        // items are simple literals, so the walk does not descend into them (150k objects)
        items[0] = node.list[0] as Expr
        node.list = items
        ins.delete(node.pos)
        found++
        for (const k in node) if (k !== 'list') walk((node as Record<string, unknown>)[k])
        return
      }
    }
    for (const k in node) walk((node as Record<string, unknown>)[k])
  }
  walk(stmt)
  return ins.size === 0 && found > 0
}
