/**
 * Comparison operators `= != < <= > >=` over numerics, TIMESTAMP/DATE, text (STRING, VARCHAR,
 * SYMBOL, CHAR), BOOLEAN, UUID, IPv4 and LONG256; `=` / `!=` also on INTERVAL values (QuestDB's
 * EqIntervalFunctionFactory: both bounds equal, NULL = NULL; one INTERVAL type's held text has one
 * form, types/interval-value.ts, so equal bounds are equal texts; a microsecond interval beside a
 * nanosecond one is widened to nanoseconds). Same-type INT, LONG and DOUBLE run in
 * dedicated typed-array loops; a SYMBOL column against a text constant looks the constant up in
 * the dictionary once and compares int keys.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { INT_NULL, LONG_NULL } from '../../types/column-type.js'
import { isGeohash } from '../../types/geohash.js'
import type { BoolVector, SymbolTable, SymVector, Vector } from '../../types/vector.js'
import type { ArgType, ScalarFunctionDef, Signature } from '../registry-types.js'
import { bigAt, boolOut, isTextKind, stride, textAt, toF64 } from '../kernel-helpers.js'
import { type CmpOp, cmpF64, cmpI32, cmpI64, cmpNullable } from './compare-kernels.js'

/** Per-call cache of a text constant's key in a symbol dictionary. */
interface SymKeyCache {
  dict: SymbolTable | undefined
  size: number
  key: number
}

function newCache(): SymKeyCache {
  return { dict: undefined, size: -1, key: -1 }
}

/** The key of `text` in `dict` (-1 for null or absent), cached while the dictionary does not grow. */
function symKey(cache: SymKeyCache, dict: SymbolTable, text: string | null): number {
  if (cache.dict !== dict || cache.size !== dict.size) {
    cache.dict = dict
    cache.size = dict.size
    cache.key = text === null ? -1 : dict.lookup(text)
  }
  return cache.key
}

/** SYMBOL column vs a text constant, `=`/`!=` only: an int-key scan. */
function symVsConst(op: 'eq' | 'ne', s: SymVector, text: string | null, n: number, cache: SymKeyCache): BoolVector {
  const out = boolOut(n)
  const o = out.data, d = s.data
  const key = symKey(cache, s.dict, text)
  if (key < 0 && text !== null) {
    // absent from the dictionary: nothing is equal
    o.fill(op === 'eq' ? 0 : 1)
    return out
  }
  const ss = stride(s)
  if (op === 'eq') for (let i = 0; i < n; i++) o[i] = d[i * ss]! === key || (key < 0 && d[i * ss]! < 0) ? 1 : 0
  else for (let i = 0; i < n; i++) o[i] = d[i * ss]! === key || (key < 0 && d[i * ss]! < 0) ? 0 : 1
  return out
}

/** Text comparison (STRING, VARCHAR, SYMBOL, CHAR, NULL vectors in any mix). */
function compareText(op: CmpOp, a: Vector, b: Vector, n: number, cache: SymKeyCache): BoolVector {
  if (op === 'eq' || op === 'ne') {
    if (a.kind === 'sym' && b.isConst === true && b.kind !== 'sym') return symVsConst(op, a, textAt(b, 0), n, cache)
    if (b.kind === 'sym' && a.isConst === true && a.kind !== 'sym') return symVsConst(op, b, textAt(a, 0), n, cache)
    if (a.kind === 'sym' && b.kind === 'sym' && a.dict === b.dict) {
      const out = boolOut(n), o = out.data, x = a.data, y = b.data, sa = stride(a), sb = stride(b)
      const hit = op === 'eq' ? 1 : 0
      for (let i = 0; i < n; i++) { const p = x[i * sa]!, q = y[i * sb]!; o[i] = p === q || (p < 0 && q < 0) ? hit : 1 - hit }
      return out
    }
  }
  const out = boolOut(n), o = out.data
  if (a.kind === 'str' && b.isConst === true) {
    const d = a.data, c = textAt(b, 0)
    for (let i = 0; i < n; i++) o[i] = cmpNullable(op, d[i]!, c) ? 1 : 0
    return out
  }
  for (let i = 0; i < n; i++) o[i] = cmpNullable(op, textAt(a, i), textAt(b, i)) ? 1 : 0
  return out
}

/** Compares two vectors row by row; `cache` carries the symbol-key lookup across batches. */
export function compareVectors(op: CmpOp, a: Vector, b: Vector, n: number, cache: SymKeyCache = newCache()): BoolVector {
  if (a.isConst === true && b.isConst === true) {
    const one = compareVectors(op, { ...a, isConst: false, length: 1 } as Vector, { ...b, isConst: false, length: 1 } as Vector, 1, cache)
    return { ...one, length: n, isConst: true }
  }
  if (a.kind === 'i32' && b.kind === 'i32' && ((a.type === 'INT' && b.type === 'INT') || (a.type === b.type && isGeohash(a.type)))) {
    const out = boolOut(n)
    cmpI32(op, a.data, stride(a), b.data, stride(b), INT_NULL, out.data, n)
    return out
  }
  if (a.kind === 'i64' && b.kind === 'i64') {
    const out = boolOut(n)
    if (a.data instanceof Float64Array && b.data instanceof Float64Array) {
      cmpI64(op, a.data, stride(a), b.data, stride(b), LONG_NULL, out.data, n)
    } else {
      const o = out.data
      for (let i = 0; i < n; i++) {
        const x = bigAt(a, i), y = bigAt(b, i)
        o[i] = cmpNullable(op, x === -9223372036854775808n ? null : x, y === -9223372036854775808n ? null : y) ? 1 : 0
      }
    }
    return out
  }
  if (isTextKind(a) && isTextKind(b) && !(a.kind === 'u16' && b.kind === 'u16') && !(a.kind === 'null' && b.kind === 'null')) {
    return compareText(op, a, b, n, cache)
  }
  if (a.kind === 'str' || b.kind === 'str') return compareText(op, a, b, n, cache)
  const out = boolOut(n)
  const x = toF64(a), y = toF64(b)
  cmpF64(op, x.data, x.s, y.data, y.s, out.data, n)
  return out
}

const EQ_TYPES: readonly ArgType[] = ['INT', 'LONG', 'DOUBLE', 'TIMESTAMP', 'DATE', 'BYTE', 'SHORT', 'FLOAT', 'BOOLEAN', 'CHAR', 'IPV4', 'UUID', 'LONG256', 'TEXT', 'INTERVAL', 'INTERVAL_NS', 'GEOHASH']
const ORDER_TYPES: readonly ArgType[] = ['INT', 'LONG', 'DOUBLE', 'TIMESTAMP', 'DATE', 'BYTE', 'SHORT', 'FLOAT', 'CHAR', 'IPV4', 'TEXT']

function sigs(types: readonly ArgType[]): Signature[] {
  return types.map((t) => ({ args: [t, t], returns: 'BOOLEAN' }))
}

function def(name: string, op: CmpOp, description: string, example: string): ScalarFunctionDef {
  const ordering = op !== 'eq' && op !== 'ne'
  return {
    kind: 'scalar', name, family: 'operator', description, example,
    signatures: sigs(ordering ? ORDER_TYPES : EQ_TYPES),
    init: () => newCache(),
    vector: (args, n, _ctx, state) => compareVectors(op, args[0]!, args[1]!, n, (state as SymKeyCache | undefined) ?? newCache()),
  }
}

/** The comparison operator definitions. */
export const COMPARISON_OPERATORS: readonly ScalarFunctionDef[] = [
  def('=', 'eq', 'Equality; NULL = NULL is true, doubles compare with a 1e-10 tolerance.', "SELECT * FROM trades WHERE symbol = 'BTC-USD'"),
  def('!=', 'ne', 'Inequality (also written <>).', 'SELECT * FROM trades WHERE side != null'),
  def('<', 'lt', 'Less than; false when exactly one side is null.', 'SELECT * FROM trades WHERE price < 100'),
  def('<=', 'le', 'Less than or equal; true when both sides are null.', 'SELECT * FROM trades WHERE price <= 100'),
  def('>', 'gt', 'Greater than; false when exactly one side is null.', 'SELECT * FROM trades WHERE price > 100'),
  def('>=', 'ge', 'Greater than or equal; true when both sides are null.', 'SELECT * FROM trades WHERE price >= 100'),
]

const OP_OF_NAME: Readonly<Record<string, CmpOp>> = { '=': 'eq', '!=': 'ne', '<': 'lt', '<=': 'le', '>': 'gt', '>=': 'ge' }
/** Argument types the registered comparison operators pass to {@link compareVectors} as they are (no DECIMAL or nanosecond kernel). */
const PLAIN_NUMBER_TYPES: ReadonlySet<string> = new Set(['BYTE', 'SHORT', 'INT', 'LONG', 'FLOAT', 'DOUBLE', 'DATE', 'TIMESTAMP'])

/**
 * The comparison a call of the registered operator `def` makes on arguments of types `argTypes`,
 * when its kernel is {@link compareVectors} for them: one of the {@link COMPARISON_OPERATORS} (the
 * registry joins their DECIMAL and nanosecond overloads to them; those kernels are others) over
 * plain numbers. Else undefined. Lets an operator call the kernel itself with a constant side
 * (a nested-loop join: one left row against many right rows).
 */
export function comparisonOf(def: ScalarFunctionDef, argTypes: readonly string[]): CmpOp | undefined {
  if (def.family !== 'operator' || !argTypes.every((t) => PLAIN_NUMBER_TYPES.has(t))) return undefined
  return Object.hasOwn(OP_OF_NAME, def.name) ? OP_OF_NAME[def.name] : undefined
}
