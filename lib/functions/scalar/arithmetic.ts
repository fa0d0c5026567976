/**
 * Arithmetic operators `+ - * / %` and unary minus (`neg`), with QuestDB's result types:
 * same-type integer arithmetic stays in its type and wraps like Java (BYTE+BYTE=BYTE,
 * INT+INT=INT, LONG+INT=LONG via widening), FLOAT+FLOAT=FLOAT, anything with DOUBLE is DOUBLE;
 * TIMESTAMP ± LONG = TIMESTAMP (microseconds), TIMESTAMP - TIMESTAMP = LONG,
 * TIMESTAMP + DOUBLE = DOUBLE; IPv4 ± INT = IPv4, IPv4 - IPv4 = LONG.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { internalError } from '../../errors.js'
import { INT_NULL, LONG_NULL, LONG_NULL_BIG } from '../../types/column-type.js'
import type { ColumnType } from '../../types/column-type.js'
import { allocate } from '../../types/vector.js'
import type { I64Vector, Vector } from '../../types/vector.js'
import type { ScalarFunctionDef, Signature, VectorKernel } from '../registry-types.js'
import { i64FromBig, stride, toF64 } from '../kernel-helpers.js'
import { type ArithOp, doubleArith, intArith, longArith, smallArith } from './arith-kernels.js'

const NUMERIC_SIGS: readonly Signature[] = [
  { args: ['BYTE', 'BYTE'], returns: 'BYTE' },
  { args: ['SHORT', 'SHORT'], returns: 'SHORT' },
  { args: ['INT', 'INT'], returns: 'INT' },
  { args: ['LONG', 'LONG'], returns: 'LONG' },
  { args: ['FLOAT', 'FLOAT'], returns: 'FLOAT' },
  { args: ['DOUBLE', 'DOUBLE'], returns: 'DOUBLE' },
]

/** Reads an INT, IPv4 or i64 vector as an i64 vector (nulls mapped to the LONG null). */
function asI64(v: Vector): I64Vector {
  if (v.kind === 'i64') return v
  if (v.kind !== 'i32') throw internalError(`asI64: ${v.type}`)
  const n = v.isConst === true ? 1 : v.length
  const out = new Float64Array(n)
  const ip = v.type === 'IPV4'
  for (let i = 0; i < n; i++) {
    const x = v.data[i]!
    out[i] = ip ? (x === 0 ? LONG_NULL : x >>> 0) : x === INT_NULL ? LONG_NULL : x
  }
  return { kind: 'i64', type: 'LONG', length: v.length, data: out, isConst: v.isConst === true }
}

/** IPv4 ± INT -> IPv4; a null operand or a result outside 1..2^32-1 gives null (0.0.0.0). */
function ipv4Arith(op: ArithOp, a: Vector, b: Vector, n: number): Vector {
  const out = allocate('IPV4', n)
  const o = out.data as Int32Array
  const x = toF64(a), y = toF64(b)
  for (let i = 0; i < n; i++) {
    const r = op === 'sub' ? x.data[i * x.s]! - y.data[i * y.s]! : x.data[i * x.s]! + y.data[i * y.s]!
    o[i] = r >= 1 && r <= 0xffffffff ? r | 0 : 0
  }
  return out
}

/** The result type when the engine did not run `init` (direct kernel calls). */
function inferType(op: ArithOp, a: ColumnType, b: ColumnType): ColumnType {
  if (a === 'IPV4' || b === 'IPV4') return a === b ? 'LONG' : 'IPV4'
  if (a === 'TIMESTAMP' || b === 'TIMESTAMP') {
    if (a === 'DOUBLE' || b === 'DOUBLE') return 'DOUBLE'
    return op === 'sub' && a === b ? 'LONG' : 'TIMESTAMP'
  }
  const order: ColumnType[] = ['BYTE', 'SHORT', 'INT', 'LONG', 'FLOAT', 'DOUBLE']
  return order[Math.max(order.indexOf(a), order.indexOf(b))] ?? 'DOUBLE'
}

/** Applies `op` to two vectors giving `ret` (the resolved signature's result type). */
export function arith(op: ArithOp, a: Vector, b: Vector, n: number, ret: ColumnType): Vector {
  switch (ret) {
    case 'INT':
      if (a.kind === 'i32' && b.kind === 'i32') return { kind: 'i32', type: 'INT', length: n, data: intArith(op, a.data, stride(a), b.data, stride(b), n) }
      break
    case 'LONG': case 'TIMESTAMP': case 'DATE':
      return longArith(op, asI64(a), asI64(b), n, ret)
    case 'DOUBLE': case 'FLOAT': {
      const out = allocate(ret, n)
      const x = toF64(a), y = toF64(b)
      doubleArith(op, x.data, x.s, y.data, y.s, out.data as Float64Array, n)
      return out
    }
    case 'BYTE': case 'SHORT': return smallArith(op, a, b, n, ret)
    case 'IPV4': return ipv4Arith(op, a, b, n)
    default: break
  }
  throw internalError(`arithmetic ${op} cannot produce ${ret} from ${a.type}, ${b.type}`)
}

function kernel(op: ArithOp): VectorKernel {
  return (args, n, _ctx, state) => {
    const a = args[0]!, b = args[1]!
    const ret = typeof state === 'string' ? (state as ColumnType) : inferType(op, a.type, b.type)
    return arith(op, a, b, n, ret)
  }
}

function def(name: string, op: ArithOp, extra: readonly Signature[], description: string, example: string): ScalarFunctionDef {
  return {
    kind: 'scalar', name, family: 'operator', description, example,
    signatures: [...extra, ...NUMERIC_SIGS],
    init: (site) => site.returns,
    vector: kernel(op),
  }
}

const ADD = def('+', 'add', [
  { args: ['TIMESTAMP', 'LONG'], returns: 'TIMESTAMP' },
  { args: ['LONG', 'TIMESTAMP'], returns: 'TIMESTAMP' },
  { args: ['TIMESTAMP', 'DOUBLE'], returns: 'DOUBLE' },
  { args: ['DOUBLE', 'TIMESTAMP'], returns: 'DOUBLE' },
  { args: ['IPV4', 'INT'], returns: 'IPV4' },
  { args: ['INT', 'IPV4'], returns: 'IPV4' },
], 'Adds two numbers; TIMESTAMP + n adds microseconds.', "SELECT 1 + 2, now() + 1000000")

const SUB = def('-', 'sub', [
  { args: ['TIMESTAMP', 'LONG'], returns: 'TIMESTAMP' },
  { args: ['TIMESTAMP', 'TIMESTAMP'], returns: 'LONG' },
  { args: ['TIMESTAMP', 'DOUBLE'], returns: 'DOUBLE' },
  { args: ['IPV4', 'INT'], returns: 'IPV4' },
  { args: ['IPV4', 'IPV4'], returns: 'LONG' },
], 'Subtracts; TIMESTAMP - TIMESTAMP is the difference in microseconds.', "SELECT 5 - 3, now() - '2024-01-01'")

const MUL = def('*', 'mul', [], 'Multiplies two numbers (integers wrap like Java).', 'SELECT 6 * 7')
const DIV = def('/', 'div', [], 'Divides; integer division truncates, and an integer division by zero is null.', 'SELECT 7 / 2, 7.0 / 2')
const REM = def('%', 'rem', [], 'Remainder with the sign of the dividend; modulo zero is null for integers.', 'SELECT 7 % 3, -7 % 3')

/** Unary minus of each numeric type (null stays null; integers wrap). */
function negKernel(args: readonly Vector[], n: number): Vector {
  const a = args[0]!
  const m = a.isConst === true ? 1 : n
  const out = allocate(a.type, m)
  switch (a.kind) {
    case 'i8': case 'i16': case 'f32': case 'f64': {
      const o = out.data as Float64Array, d = a.data
      for (let i = 0; i < m; i++) o[i] = -d[i]!
      break
    }
    case 'i32': {
      const o = out.data as Int32Array, d = a.data
      for (let i = 0; i < m; i++) { const x = d[i]!; o[i] = x === INT_NULL ? INT_NULL : -x | 0 }
      break
    }
    case 'i64': {
      const d = a.data
      if (d instanceof Float64Array) {
        const o = out.data as Float64Array
        for (let i = 0; i < m; i++) { const x = d[i]!; o[i] = x === LONG_NULL ? LONG_NULL : x === 0 ? 0 : -x }
      } else {
        const o = new BigInt64Array(m)
        for (let i = 0; i < m; i++) { const x = d[i]!; o[i] = x === LONG_NULL_BIG ? x : BigInt.asIntN(64, -x) }
        return { ...i64FromBig(a.type, o), length: n, isConst: a.isConst === true }
      }
      break
    }
    default: throw internalError(`neg: ${a.type}`)
  }
  return { ...out, length: n, isConst: a.isConst === true } as Vector
}

const NEG: ScalarFunctionDef = {
  kind: 'scalar', name: 'neg', family: 'operator',
  description: 'Unary minus.', example: 'SELECT -x FROM long_sequence(3)',
  signatures: [
    { args: ['BYTE'], returns: 'BYTE' }, { args: ['SHORT'], returns: 'SHORT' }, { args: ['INT'], returns: 'INT' },
    { args: ['LONG'], returns: 'LONG' }, { args: ['FLOAT'], returns: 'FLOAT' }, { args: ['DOUBLE'], returns: 'DOUBLE' },
  ],
  vector: negKernel,
}

/** The arithmetic operator definitions. */
export const ARITHMETIC_OPERATORS: readonly ScalarFunctionDef[] = [ADD, SUB, MUL, DIV, REM, NEG]
