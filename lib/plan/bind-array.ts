/**
 * Binds the array forms of expressions: `ARRAY[...]` literals, subscripts (`arr[i]`,
 * `arr[i, lo:hi]`, `arr[2:]`) and the element-wise operators (`arr * 2`, `a + b`, `a = b`).
 * The parser builds them as calls named `array`, `[]` and `:` (sql/build/array.ts); they bind to
 * calls of definitions made here, so the evaluator needs nothing new. Calls whose arguments are
 * all constants are folded now, so a ragged literal fails at bind time with its position.
 */
import { SqlError, SqlState } from '../errors.js'
import type { Call, Expr } from '../sql/ast.js'
import { ARRAY_CALL, RANGE_CALL, SUBSCRIPT_CALL } from '../sql/build/array.js'
import { type ColumnType, isNumeric, typeName } from '../types/column-type.js'
import { ARRAY_MAX_DIMS, arrayDims, arrayType } from '../types/array-type.js'
import { DoubleArray } from '../types/array.js'
import type { ArrVector } from '../types/array-vector.js'
import { constVector, getScalar, type Vector } from '../types/vector.js'
import type { CallSite, ScalarFunctionDef, VectorKernel } from '../functions/registry-types.js'
import { buildFromArrays, buildFromScalars, type Selector, subscript } from '../functions/scalar/array-access.js'
import { type ArrayArith, arrayArith, arrayEquals } from '../functions/scalar/array-ops.js'
import type { BoundExpr } from './plan-node.js'
import type { ExprEnv } from './bind-expr.js'
import { castTo } from './bind-expr.js'

/** True for the call names the parser gives array literals, subscripts and ranges. */
export function isArraySyntax(name: string): boolean {
  return name === ARRAY_CALL || name === SUBSCRIPT_CALL || name === RANGE_CALL
}

/** Binds an `array`/`[]`/`:` call (see {@link isArraySyntax}). */
export function bindArraySyntax(e: Call, env: ExprEnv, bind: (e: Expr, env: ExprEnv) => BoundExpr): BoundExpr {
  if (e.name === RANGE_CALL) throw new SqlError(SqlState.SYNTAX_ERROR, 'a range selector is allowed only inside an array subscript', e.pos)
  if (e.name === ARRAY_CALL) return bindLiteral(e, env, bind)
  return bindSubscript(e, env, bind)
}

function bindLiteral(e: Call, env: ExprEnv, bind: (e: Expr, env: ExprEnv) => BoundExpr): BoundExpr {
  if (e.args.length === 0) return { kind: 'const', type: 'DOUBLE[]', value: DoubleArray.empty(1) }
  const items = e.args.map((a) => bind(a, env))
  const positions = e.args.map((a) => a.pos)
  let dims = -1
  items.forEach((b, k) => {
    const d = b.type === 'NULL' ? -1 : arrayDims(b.type)
    if (d === 0 && !isNumeric(b.type)) throw new SqlError(SqlState.DATATYPE_MISMATCH, `array elements must be numbers or arrays, found ${typeName(b.type)}`, positions[k]!)
    if (d === -1) return
    if (dims === -1) dims = d
    else if (dims !== d) throw new SqlError(SqlState.DATATYPE_MISMATCH, dims === 0 || d === 0 ? 'mixed array and non-array elements' : `sub-arrays have different dimension counts (${dims} and ${d})`, positions[k]!)
  })
  if (dims === -1) dims = 0
  if (dims + 1 > ARRAY_MAX_DIMS) throw new SqlError(SqlState.DATATYPE_MISMATCH, `too many array dimensions (the limit is ${ARRAY_MAX_DIMS})`, e.pos)
  const type = arrayType(dims + 1)
  if (dims === 0) {
    const args = items.map((b, k) => castTo(b, 'DOUBLE', positions[k]!, false, env.onInfer))
    return made('array', type, args, positions, e.pos, (v, n) => buildFromScalars(type, v, n))
  }
  const sub = arrayType(dims)
  const args = items.map((b, k) => castTo(b, sub, positions[k]!, false, env.onInfer))
  return made('array', type, args, positions, e.pos, (v, n) => buildFromArrays(type, v as ArrVector[], n, positions))
}

function bindSubscript(e: Call, env: ExprEnv, bind: (e: Expr, env: ExprEnv) => BoundExpr): BoundExpr {
  const base = bind(e.args[0]!, env)
  const dims = arrayDims(base.type)
  if (dims === 0) throw new SqlError(SqlState.DATATYPE_MISMATCH, `there is no subscript for ${typeName(base.type)}`, e.pos)
  const selExprs = e.args.slice(1)
  if (selExprs.length > dims) throw new SqlError(SqlState.DATATYPE_MISMATCH, `too many array indexes: ${typeName(base.type)} has ${dims} dimension(s)`, selExprs[dims]!.pos)
  const sels: Selector[] = []
  const args: BoundExpr[] = [base]
  const positions = [e.args[0]!.pos]
  for (const s of selExprs) {
    const isRange = s.kind === 'call' && s.name === RANGE_CALL
    const parts = isRange ? (s as Call).args : [s]
    sels.push(isRange ? { kind: 'range', pos: s.pos, open: parts.length === 1 } : { kind: 'index', pos: s.pos })
    for (const p of parts) {
      const b = bind(p, env)
      if (!isNumeric(b.type) && b.type !== 'NULL' && !(b.kind === 'param' && b.untyped === true)) throw new SqlError(SqlState.DATATYPE_MISMATCH, `array index must be an integer, found ${typeName(b.type)}`, p.pos)
      const c = castTo(b, b.type === 'DOUBLE' || b.type === 'FLOAT' ? b.type : 'INT', p.pos, false, env.onInfer)
      if (c.kind === 'const' && c.value !== null && Number(c.value) < 1) throw new SqlError(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, `array index must be positive [index=${String(c.value)}]`, p.pos)
      args.push(c)
      positions.push(p.pos)
    }
  }
  const kept = dims - sels.filter((s) => s.kind === 'index').length
  const type: ColumnType = kept === 0 ? 'DOUBLE' : arrayType(kept)
  return made('[]', type, args, positions, e.pos, (v, n) => subscript(type, v[0] as ArrVector, sels, v.slice(1), n))
}

/** Operators with array forms; with an array argument any other operator fails with 42883. */
const ARRAY_OPERATORS = new Set(['+', '-', '*', '/', '=', '!=', '<', '<=', '>', '>=', '%', 'neg'])

/**
 * Binds an operator whose arguments include an array: `+ - * /` with a number or an array
 * (broadcast), `=` and `!=` between arrays. Undefined when no argument is an array.
 */
export function bindArrayOperator(name: string, bound: readonly BoundExpr[], positions: readonly number[], pos: number, env: ExprEnv): BoundExpr | undefined {
  if (!ARRAY_OPERATORS.has(name) || !bound.some((b) => arrayDims(b.type) > 0)) return undefined
  const [l, r] = bound
  const ld = l === undefined ? 0 : arrayDims(l.type)
  const rd = r === undefined ? 0 : arrayDims(r.type)
  const mismatch = () => new SqlError(SqlState.UNDEFINED_FUNCTION, `there is no matching operator for ${typeName(l!.type)} ${name} ${typeName(r!.type)}`, pos)
  if (bound.length !== 2) return undefined
  // an untyped `$n` (or NULL) beside an array takes the array's type: `arr * $1`, `arr = $1`
  const untyped = (b: BoundExpr) => (b.kind === 'param' && b.untyped === true) || b.type === 'NULL'
  if (ld > 0 && untyped(r!)) return bindArrayOperator(name, [l!, castTo(r!, l!.type, positions[1]!, false, env.onInfer)], positions, pos, env)
  if (rd > 0 && untyped(l!)) return bindArrayOperator(name, [castTo(l!, r!.type, positions[0]!, false, env.onInfer), r!], positions, pos, env)
  if (name === '+' || name === '-' || name === '*' || name === '/') {
    const other = ld > 0 ? r! : l!
    if ((ld === 0 || rd === 0) && !isNumeric(other.type) && other.type !== 'NULL' && !(other.kind === 'param' && other.untyped === true)) throw mismatch()
    // two arrays broadcast (QuestDB 9): the result has the larger dimension count
    const type = ld >= rd ? l!.type : r!.type
    const args = [ld > 0 ? l! : castTo(l!, 'DOUBLE', positions[0]!, false, env.onInfer), rd > 0 ? r! : castTo(r!, 'DOUBLE', positions[1]!, false, env.onInfer)]
    return made(name, type, args, [...positions], pos, (v, n) => arrayArith(name as ArrayArith, type, v[0]!, v[1]!, n, pos, positions[0]))
  }
  if (name === '=' || name === '!=') {
    // arrays of different dimension counts are unequal, as QuestDB compares them
    if (ld === 0 || rd === 0) throw mismatch()
    return made(name, 'BOOLEAN', [l!, r!], [...positions], pos, (v, n) => arrayEquals(v[0] as ArrVector, v[1] as ArrVector, n, name === '!='))
  }
  throw mismatch()
}

/** A call of a definition made for this site; folded when every argument is a constant. */
function made(name: string, type: ColumnType, args: BoundExpr[], positions: readonly number[], pos: number, kernel: (args: readonly Vector[], length: number) => Vector): BoundExpr {
  const vector: VectorKernel = (v, n) => kernel(v, n)
  const def: ScalarFunctionDef = { kind: 'scalar', name, signatures: [], description: '', example: '', family: 'array', vector }
  const site: CallSite = { argTypes: args.map((a) => a.type), constants: args.map((a) => (a.kind === 'const' ? a.value : undefined)), returns: type, argPositions: positions, pos }
  if (args.every((a) => a.kind === 'const')) {
    const v = kernel(args.map((a) => constVector(a.type, (a as Extract<BoundExpr, { kind: 'const' }>).value, 1)), 1)
    return { kind: 'const', type, value: getScalar(v, 0) }
  }
  return { kind: 'call', type, def, site, args }
}
