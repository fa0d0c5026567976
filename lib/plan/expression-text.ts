/**
 * An expression written back as QuestDB 9 writes it when it names a column after its text
 * (`cairo.sql.column.alias.expression.enabled`, its `ExpressionNode.toSink`): operators with a
 * space either side and only the parentheses precedence needs (`(a + b) * c`), lower-case
 * `and`/`or`, calls as `f(a, b)`, `count(*)` as `count()`, `a || b || c` as `concat(a, b, c)`,
 * casts as `x::type` (`(a + 1)::string`), a searched CASE as `case when ... then ... end`, a
 * CASE on one column as `switch(x, 1, 'a', null)` (QuestDB's rewrite), unary operators as
 * calls (`not(x)`, `-(x)`), literals as written (`'text'` with its quotes), `ARRAY[1, 2]` and
 * `arr[1]`. PIVOT names its columns with the same text.
 */
import type { BinaryOp, Case, Expr } from '../sql/ast.js'
import { ARRAY_CALL, RANGE_CALL, SUBSCRIPT_CALL } from '../sql/build/array.js'

/** How tightly each operator binds (larger binds tighter), from the grammar's precedence levels. */
const STRENGTH: Readonly<Record<BinaryOp | 'like' | 'in' | 'between' | 'is', number>> = {
  or: 1, and: 2,
  '=': 4, '!=': 4, '~': 4, '!~': 4, like: 4, is: 4,
  '<': 5, '<=': 5, '>': 5, '>=': 5,
  in: 6, between: 6,
  '|': 7, '^': 8, '&': 9, '||': 10,
  '<<': 11, '>>': 11, '<<=': 11, '>>=': 11,
  '+': 12, '-': 12, '*': 13, '/': 13, '%': 13,
}

/** The text of `e` as QuestDB 9 names a column after it. */
export function expressionText(e: Expr): string {
  switch (e.kind) {
    case 'column': return e.table === undefined ? name(e.name) : `${name(e.table)}.${name(e.name)}`
    case 'star': return e.table === undefined ? '*' : `${name(e.table)}.*`
    case 'param': return `$${e.index}`
    case 'literal':
      switch (e.type) {
        case 'string': return quote(e.value)
        case 'char': return quote(e.value)
        case 'boolean': return String(e.value)
        case 'null': return 'null'
        case 'decimal': return `${e.text}m`
        default: return e.text
      }
    case 'call': return callText(e.name, e.args, e.star, e.distinct)
    case 'binary':
      if (e.op === '||') return `concat(${concatArgs(e).map(expressionText).join(', ')})`
      return operatorText(e.left, e.op, e.right, STRENGTH[e.op])
    case 'unary': return `${e.op}(${expressionText(e.operand)})`
    case 'cast': {
      const inner = expressionText(e.expr)
      const wrap = isOperation(e.expr) || e.expr.kind === 'case' || e.expr.kind === 'between'
      return `${wrap ? `(${inner})` : inner}::${e.type}`
    }
    case 'case': return caseText(e)
    case 'in': {
      if (!Array.isArray(e.list)) return negate(`${expressionText(e.expr)} in (select)`, e.not)
      const list = e.list as readonly Expr[]
      const text = list.length === 1
        ? operatorText(e.expr, 'in', list[0]!, STRENGTH.in)
        : `${expressionText(e.expr)} in (${list.map(expressionText).join(', ')})`
      return negate(text, e.not)
    }
    case 'between': return negate(`${expressionText(e.expr)} between (${expressionText(e.low)}, ${expressionText(e.high)})`, e.not)
    case 'like': return negate(operatorText(e.expr, e.caseInsensitive ? 'ilike' : 'like', e.pattern, STRENGTH.like), e.not)
    case 'isnull': return `${expressionText(e.expr)} is ${e.not ? 'not null' : 'null'}`
    case 'extract': return `extract(${e.unit}, ${expressionText(e.expr)})`
    case 'exists': return negate('exists(select)', e.not)
    case 'subquery': return '(select)'
  }
}

function callText(fn: string, args: readonly Expr[], star: boolean, distinct: boolean): string {
  if (fn === ARRAY_CALL) return `ARRAY[${args.map(expressionText).join(', ')}]`
  if (fn === SUBSCRIPT_CALL) return `${expressionText(args[0]!)}[${args.slice(1).map(expressionText).join(', ')}]`
  if (fn === RANGE_CALL) return args.map(expressionText).join(':')
  // QuestDB rewrites count(*) to count() and count(DISTINCT x) to count_distinct(x) before naming
  if (star) return `${fn}()`
  const name = distinct && fn.toLowerCase() === 'count' ? 'count_distinct' : fn
  return `${name}(${args.map(expressionText).join(', ')})`
}

/** `l op r` with the parentheses a child of looser binding needs (on the right: looser or equal). */
function operatorText(left: Expr, op: string, right: Expr, strength: number): string {
  const l = expressionText(left)
  const r = expressionText(right)
  const ls = operationStrength(left)
  const rs = operationStrength(right)
  return `${ls !== undefined && ls < strength ? `(${l})` : l} ${op} ${rs !== undefined && rs <= strength ? `(${r})` : r}`
}

function operationStrength(e: Expr): number | undefined {
  switch (e.kind) {
    case 'binary': return e.op === '||' ? undefined : STRENGTH[e.op]
    case 'like': return e.not ? undefined : STRENGTH.like
    case 'in': return e.not || !Array.isArray(e.list) || (e.list as readonly Expr[]).length !== 1 ? undefined : STRENGTH.in
    default: return undefined
  }
}

function isOperation(e: Expr): boolean {
  return operationStrength(e) !== undefined || e.kind === 'isnull'
}

function negate(text: string, not: boolean): string {
  return not ? `not(${text})` : text
}

/** The operands of a chain of `||` (QuestDB flattens it into one concat call). */
function concatArgs(e: Expr): Expr[] {
  return e.kind === 'binary' && e.op === '||' ? [...concatArgs(e.left), ...concatArgs(e.right)] : [e]
}

/**
 * QuestDB turns `CASE x WHEN ...` and a CASE whose every WHEN compares one column with a
 * constant into `switch(x, v1, r1, ..., else)` before naming; other searched CASEs print as written.
 */
function caseText(e: Case): string {
  const sw = switchArgs(e)
  if (sw !== undefined) return `switch(${sw.map(expressionText).join(', ')})`
  const whens = e.whens.map((w) => ` when ${expressionText(w.when)} then ${expressionText(w.then)}`).join('')
  return `case${whens}${e.else === undefined ? '' : ` else ${expressionText(e.else)}`} end`
}

/** The arguments of the `switch` QuestDB makes of this CASE, or undefined when it keeps the CASE. */
export function switchArgs(e: Case): Expr[] | undefined {
  if (e.operand !== undefined) {
    return [e.operand, ...e.whens.flatMap((w) => [w.when, w.then]), ...(e.else === undefined ? [] : [e.else])]
  }
  let column: string | undefined
  const out: Expr[] = []
  for (const w of e.whens) {
    const c = w.when
    if (c.kind !== 'binary' || c.op !== '=') return undefined
    const [col, value] = c.left.kind === 'column' && c.right.kind === 'literal' ? [c.left, c.right]
      : c.right.kind === 'column' && c.left.kind === 'literal' ? [c.right, c.left] : [undefined, undefined]
    if (col === undefined || value === undefined) return undefined
    const key = expressionText(col)
    if (column !== undefined && column !== key) return undefined
    column = key
    if (out.length === 0) out.push(col)
    out.push(value, w.then)
  }
  if (out.length === 0) return undefined
  out.push(e.else ?? { kind: 'literal', pos: e.pos, type: 'null' })
  return out
}

/** A string constant as written: in single quotes, a quote doubled. */
function quote(s: string): string {
  return `'${s.replaceAll("'", "''")}'`
}

/** A name as written: bare when it is a plain identifier, else in double quotes. */
function name(n: string): string {
  return /^[A-Za-z_][A-Za-z0-9_$]*$/.test(n) ? n : `"${n.replaceAll('"', '""')}"`
}
