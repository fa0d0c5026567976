/** Test helpers: parse and narrow, catch syntax errors. */
import { SqlError } from '../../../lib/errors.js'
import type { Expr, Select, Statement } from '../../../lib/sql/ast.js'
import { parseStatement } from '../../../lib/sql/parse.js'

/** Parses a statement that must be a SELECT block. */
export function sel(sql: string): Select {
  const s = parseStatement(sql)
  if (s.kind !== 'select') throw new Error(`expected a select, got ${s.kind}`)
  return s
}

/** The first select-list expression of `select <expr>`. */
export function ex(expr: string): Expr {
  return (sel(`select ${expr}`).columns[0] as { expr: Expr }).expr
}

/** A compact infix rendering of an expression, to assert precedence. */
export function show(e: Expr): string {
  switch (e.kind) {
    case 'binary': return `(${show(e.left)} ${e.op} ${show(e.right)})`
    case 'unary': return `(${e.op} ${show(e.operand)})`
    case 'column': return e.table === undefined ? e.name : `${e.table}.${e.name}`
    case 'literal': return 'text' in e ? e.text : 'value' in e ? JSON.stringify(e.value) : 'null'
    case 'cast': return `${show(e.expr)}::${e.type}`
    case 'in': return `(${show(e.expr)} ${e.not ? 'not in' : 'in'} ${Array.isArray(e.list) ? `[${(e.list as Expr[]).map(show).join(', ')}]` : 'query'})`
    case 'between': return `(${show(e.expr)} ${e.not ? 'not between' : 'between'} ${show(e.low)} and ${show(e.high)})`
    case 'like': return `(${show(e.expr)} ${e.not ? 'not ' : ''}${e.caseInsensitive ? 'ilike' : 'like'} ${show(e.pattern)})`
    case 'isnull': return `(${show(e.expr)} is ${e.not ? 'not ' : ''}null)`
    case 'call': return `${e.name}(${e.star ? '*' : e.args.map(show).join(', ')})`
    default: return e.kind
  }
}

/** The SqlError thrown by parsing `sql`. */
export function syntaxErrorOf(sql: string): SqlError {
  try {
    parseStatement(sql)
  } catch (e) {
    if (e instanceof SqlError) return e
    throw e
  }
  throw new Error(`no error for: ${sql}`)
}

/** Parses any statement. */
export function stmt(sql: string): Statement {
  return parseStatement(sql)
}
