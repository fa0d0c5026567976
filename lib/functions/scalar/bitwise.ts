/**
 * Bitwise operators `&`, `|`, `^` and `bitnot` (unary `~`) on INT, LONG and IPv4. A null
 * operand gives null. LONG works on doubles without BigInt by splitting each safe integer into
 * a signed high part and an unsigned low 32-bit word.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { internalError } from '../../errors.js'
import { INT_NULL, LONG_NULL, LONG_NULL_BIG } from '../../types/column-type.js'
import { allocate } from '../../types/vector.js'
import type { Vector } from '../../types/vector.js'
import type { ScalarFunctionDef } from '../registry-types.js'
import { bigAt, i64FromBig, stride } from '../kernel-helpers.js'

/** The binary bitwise operations. */
export type BitOp = 'and' | 'or' | 'xor'

const TWO32 = 4294967296

function bit32(op: BitOp, x: number, y: number): number {
  return op === 'and' ? x & y : op === 'or' ? x | y : x ^ y
}

/** A 64-bit bitwise operation on two safe integers (|x|,|y| <= 2^53), exact; the result is safe too. */
export function bit64(op: BitOp, x: number, y: number): number {
  const xh = Math.floor(x / TWO32), yh = Math.floor(y / TWO32)
  const xl = x - xh * TWO32, yl = y - yh * TWO32
  return bit32(op, xh, yh) * TWO32 + (bit32(op, xl | 0, yl | 0) >>> 0)
}

function bitKernel(op: BitOp) {
  return (args: readonly Vector[], n: number): Vector => {
    const a = args[0]!, b = args[1]!
    if (a.kind === 'i32' && b.kind === 'i32') {
      const ip = a.type === 'IPV4'
      const N = ip ? 0 : INT_NULL
      const out = allocate(a.type, n), o = out.data as Int32Array
      const x = a.data, y = b.data, sa = stride(a), sb = stride(b)
      for (let i = 0; i < n; i++) { const p = x[i * sa]!, q = y[i * sb]!; o[i] = p === N || q === N ? N : bit32(op, p, q) }
      return out
    }
    if (a.kind === 'i64' && b.kind === 'i64') {
      if (a.data instanceof Float64Array && b.data instanceof Float64Array) {
        const out = new Float64Array(n), x = a.data, y = b.data, sa = stride(a), sb = stride(b)
        for (let i = 0; i < n; i++) { const p = x[i * sa]!, q = y[i * sb]!; out[i] = p === LONG_NULL || q === LONG_NULL ? LONG_NULL : bit64(op, p, q) }
        return { kind: 'i64', type: 'LONG', length: n, data: out }
      }
      const out = new BigInt64Array(n)
      for (let i = 0; i < n; i++) {
        const p = bigAt(a, i), q = bigAt(b, i)
        out[i] = p === LONG_NULL_BIG || q === LONG_NULL_BIG ? LONG_NULL_BIG : op === 'and' ? p & q : op === 'or' ? p | q : p ^ q
      }
      return i64FromBig('LONG', out)
    }
    throw internalError(`bitwise ${op} on ${a.type}, ${b.type}`)
  }
}

function bitNot(args: readonly Vector[], n: number): Vector {
  const a = args[0]!
  if (a.kind === 'i32') {
    const N = a.type === 'IPV4' ? 0 : INT_NULL
    const out = allocate(a.type, n), o = out.data as Int32Array, x = a.data, s = stride(a)
    for (let i = 0; i < n; i++) { const p = x[i * s]!; o[i] = p === N ? N : ~p }
    return out
  }
  if (a.kind === 'i64') {
    if (a.data instanceof Float64Array) {
      const out = new Float64Array(n), x = a.data, s = stride(a)
      // ~x == -x - 1, exact for safe integers
      for (let i = 0; i < n; i++) { const p = x[i * s]!; out[i] = p === LONG_NULL ? LONG_NULL : -p - 1 }
      return { kind: 'i64', type: 'LONG', length: n, data: out }
    }
    const out = new BigInt64Array(n)
    for (let i = 0; i < n; i++) { const p = bigAt(a, i); out[i] = p === LONG_NULL_BIG ? p : ~p }
    return i64FromBig('LONG', out)
  }
  throw internalError(`bitnot on ${a.type}`)
}

function def(name: string, op: BitOp, description: string): ScalarFunctionDef {
  return {
    kind: 'scalar', name, family: 'operator', description, example: `SELECT 12 ${name} 10`,
    signatures: [
      { args: ['INT', 'INT'], returns: 'INT' },
      { args: ['LONG', 'LONG'], returns: 'LONG' },
      ...(op === 'xor' ? [] : [{ args: ['IPV4', 'IPV4'], returns: 'IPV4' } as const]),
    ],
    vector: bitKernel(op),
  }
}

/** The bitwise operator definitions. */
export const BITWISE_OPERATORS: readonly ScalarFunctionDef[] = [
  def('&', 'and', 'Bitwise AND (IPv4 & IPv4 masks an address).'),
  def('|', 'or', 'Bitwise OR.'),
  def('^', 'xor', 'Bitwise XOR.'),
  {
    kind: 'scalar', name: 'bitnot', family: 'operator',
    description: 'Bitwise NOT (unary ~).', example: 'SELECT ~5',
    signatures: [{ args: ['INT'], returns: 'INT' }, { args: ['LONG'], returns: 'LONG' }, { args: ['IPV4'], returns: 'IPV4' }],
    vector: bitNot,
  },
]
