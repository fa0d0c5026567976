/**
 * AST builders for expressions, called from the grammar's postprocessors.
 */
import type {
  BinaryOp, Call, Case, Expr, FrameBound, Literal, OrderItem, Query, WindowFrame, WindowSpec,
} from '../ast.js'
import type { Token } from '../lexer.js'
import { unquoteString } from '../lexer.js'
import type { Name } from './tokens.js'
import { type Seq, toArray } from './seq.js'
import { SqlError, SqlState } from '../../errors.js'

const INT_MAX = 2147483647

/** A numeric literal from an `integer`, `long`, `float`, `hex` or `NAN` token. */
export function numberLiteral(tok: Token): Literal {
  const pos = tok.offset
  switch (tok.type) {
    case 'integer': {
      const text = tok.text.replace(/_/g, '')
      return { kind: 'literal', pos, type: Number(text) > INT_MAX ? 'long' : 'int', text }
    }
    case 'long':
      return { kind: 'literal', pos, type: 'long', text: tok.text.slice(0, -1).replace(/_/g, '') }
    case 'hex':
      return { kind: 'literal', pos, type: 'long256', text: tok.text }
    case 'NAN':
      return { kind: 'literal', pos, type: 'double', text: 'NaN' }
    default:
      return { kind: 'literal', pos, type: 'double', text: tok.text.replace(/_/g, '') }
  }
}

/** A DECIMAL literal (`1.25m`, `5m`); null for a duration token that is not `<digits>m`. */
export function decimalLiteral(tok: Token): Literal | null {
  if (tok.type === 'duration' && !/^\d[\d_]*m$/.test(tok.text)) return null
  return { kind: 'literal', pos: tok.offset, type: 'decimal', text: tok.text.slice(0, -1).replace(/_/g, '') }
}

/** A string literal. */
export function stringLiteral(tok: Token): Literal {
  return { kind: 'literal', pos: tok.offset, type: 'string', value: unquoteString(tok.text) }
}

/** TRUE / FALSE / NULL. */
export function keywordLiteral(tok: Token): Literal {
  if (tok.type === 'NULL') return { kind: 'literal', pos: tok.offset, type: 'null' }
  return { kind: 'literal', pos: tok.offset, type: 'boolean', value: tok.type === 'TRUE' }
}

/** A binary operator; `<>` is normalised to `!=`, AND/OR to lower case. */
export function binary(left: Expr, op: Token, right: Expr): Expr {
  const text = op.text.toLowerCase()
  const norm = (text === '<>' ? '!=' : text) as BinaryOp
  return { kind: 'binary', pos: op.offset, op: norm, left, right }
}

/** A unary operator; `-` on a number literal folds into a negative literal (`LIMIT -5`). */
export function unary(op: Token, operand: Expr): Expr {
  const text = op.text.toLowerCase() as '-' | 'not' | '~' | '+'
  if (text === '-' && operand.kind === 'literal' && 'text' in operand && operand.type !== 'long256' && !operand.text.startsWith('-')) {
    const negText = `-${operand.text}`
    const type = operand.type === 'long' && Number(negText) >= -INT_MAX ? 'int' : operand.type
    return { kind: 'literal', pos: op.offset, type, text: negText } as Literal
  }
  if (text === 'not' && operand.kind === 'exists' && !operand.not) return { ...operand, pos: op.offset, not: true }
  return { kind: 'unary', pos: op.offset, op: text, operand }
}

/** `name` or `table.name`. */
export function columnRef(first: Name, second: Name | null): Expr {
  return second === null
    ? { kind: 'column', pos: first.pos, name: first.name }
    : { kind: 'column', pos: first.pos, table: first.name, name: second.name }
}

/** Arguments of a call: `*`, `DISTINCT a, b` or a list. */
export interface CallArgs {
  readonly args: readonly Expr[]
  readonly distinct: boolean
  readonly star: boolean
  /** where `*` is, for `f(*)` */
  readonly starPos?: number
}

/**
 * A function call with optional `IGNORE|RESPECT NULLS` and `OVER`. Only `count(*)` takes `*`:
 * elsewhere QuestDB reads it as the multiplication operator without operands.
 */
export function call(name: Name, args: CallArgs | null, nulls: Token | null, over: WindowSpec | null): Call {
  if (args?.star === true && name.name.toLowerCase() !== 'count') {
    throw new SqlError(SqlState.SYNTAX_ERROR, "too few arguments for '*' [found=0,expected=2]", args.starPos ?? name.pos)
  }
  return {
    kind: 'call', pos: name.pos, name: name.name,
    args: args?.args ?? [], distinct: args?.distinct ?? false, star: args?.star ?? false,
    ...(nulls === null ? {} : { ignoreNulls: nulls.type === 'IGNORE' }),
    ...(over === null ? {} : { over }),
  }
}

/** `CAST(x AS t)` or `x::t`. */
export function cast(pos: number, expr: Expr, type: Name, shorthand: boolean): Expr {
  return { kind: 'cast', pos, expr, type: type.name, typePos: type.pos, shorthand }
}

/** `DATE '...'` / `TIMESTAMP '...'` as a cast of the string (named `cast`); null for any other name. */
export function typedLiteral(type: Name, text: Token): Expr | null {
  const t = type.name.toLowerCase()
  if (t !== 'date' && t !== 'timestamp') return null
  const value: Expr = { kind: 'literal', pos: text.offset, type: 'string', value: unquoteString(text.text) }
  return { kind: 'cast', pos: type.pos, expr: value, type: t, typePos: type.pos, shorthand: true }
}

/** CASE in both forms. */
export function caseExpr(tok: Token, operand: Expr | null, whens: [Token, Expr, Token, Expr][], elseExpr: Expr | null): Case {
  return {
    kind: 'case', pos: tok.offset,
    ...(operand === null ? {} : { operand }),
    whens: whens.map((w) => ({ when: w[1], then: w[3] })),
    ...(elseExpr === null ? {} : { else: elseExpr }),
  }
}

/** `x [NOT] IN (...)`. */
export function inList(expr: Expr, not: Token | null, inTok: Token, list: readonly Expr[] | Query): Expr {
  return { kind: 'in', pos: not?.offset ?? inTok.offset, expr, list, not: not !== null }
}

/** `x [NOT] BETWEEN a AND b`. */
export function between(expr: Expr, not: Token | null, tok: Token, low: Expr, high: Expr): Expr {
  return { kind: 'between', pos: not?.offset ?? tok.offset, expr, low, high, not: not !== null }
}

/** `x [NOT] LIKE|ILIKE p`. */
export function like(expr: Expr, not: Token | null, tok: Token, pattern: Expr): Expr {
  return { kind: 'like', pos: not?.offset ?? tok.offset, expr, pattern, caseInsensitive: tok.type === 'ILIKE', not: not !== null }
}

/** `x IS [NOT] NULL`. */
export function isNull(expr: Expr, tok: Token, not: Token | null): Expr {
  return { kind: 'isnull', pos: tok.offset, expr, not: not !== null }
}

/** An ORDER BY item. */
export function orderItem(expr: Expr, dir: Token | null, nulls: Token | null): OrderItem {
  return {
    expr, desc: dir?.type === 'DESC',
    ...(nulls === null ? {} : { nulls: nulls.type === 'FIRST' ? 'first' as const : 'last' as const }),
  }
}

/** The inside of `OVER (...)` / `WINDOW w AS (...)`. */
export function windowSpec(pos: number, base: Name | null, partitionBy: readonly Expr[] | null, orderBy: readonly OrderItem[] | null, frame: WindowFrame | null): WindowSpec {
  return {
    pos, ...(base === null ? {} : { base: base.name }),
    partitionBy: partitionBy ?? [], orderBy: orderBy ?? [],
    ...(frame === null ? {} : { frame }),
  }
}

/** A frame bound with an offset: `n [unit] PRECEDING|FOLLOWING`. */
export function offsetBound(offset: Expr, unit: Name | null, dir: Token): FrameBound {
  const kind = dir.type === 'PRECEDING' ? 'preceding' as const : 'following' as const
  return unit === null ? { kind, offset } : { kind, offset, unit: unit.name.toLowerCase() }
}

/** A frame; `EXCLUDE CURRENT ROW` / `EXCLUDE NO OTHERS` from the exclude tokens. */
export function frame(units: Token, start: FrameBound, end: FrameBound, exclude: Token[] | null): WindowFrame {
  const u = units.type === 'ROWS' ? 'rows' as const : units.type === 'RANGE' ? 'range' as const : 'groups' as const
  const ex = exclude === null ? {} : { exclude: exclude[1]?.type === 'CURRENT' ? 'current row' as const : 'no others' as const }
  return { units: u, start, end, ...ex }
}

/** `g WITHIN (p1, ...)` as the call `within(g, p1, ...)`. */
export function within(expr: Expr, word: Token, list: Seq<Expr>): Expr {
  return { kind: 'call', pos: word.offset, name: 'within', args: [expr, ...toArray(list)], distinct: false, star: false }
}
