/**
 * `bit_and`, `bit_or`, `bit_xor` (QuestDB's aggregation page): the bitwise AND / OR / XOR of the
 * non-null values of a BYTE, SHORT, INT or LONG column, of the argument's type. A group without
 * a value is NULL (0 for BYTE and SHORT, which have no NULL). A LONG is folded as two 32-bit
 * halves in Int32Arrays, so the common (Float64Array) storage needs no BigInt; a BigInt-stored
 * batch (values beyond 2^53) is split per value.
 */
import { INT_NULL, LONG_NULL, LONG_NULL_BIG } from '../../types/column-type.js'
import type { ColumnType } from '../../types/column-type.js'
import type { Vector } from '../../types/vector.js'
import type { AggregateKernel, FunctionDef } from '../registry-types.js'
import { aggregate, arg, grow, sameGroup } from './agg-util.js'

type BitOp = 'and' | 'or' | 'xor'

const TWO_32 = 4294967296

function fold(op: BitOp, a: number, b: number): number {
  return op === 'and' ? a & b : op === 'or' ? a | b : a ^ b
}

/** Per group: the high and low 32 bits folded so far, and whether a value was seen. */
export class BitAggKernel implements AggregateKernel {
  hi = new Int32Array(0)
  lo = new Int32Array(0)
  seen = new Uint8Array(0)

  constructor(readonly op: BitOp, readonly type: ColumnType) {}

  resize(count: number): void {
    this.hi = grow(this.hi, count)
    this.lo = grow(this.lo, count)
    this.seen = grow(this.seen, count)
  }

  private add(g: number, h: number, l: number): void {
    if (this.seen[g] === 0) { this.seen[g] = 1; this.hi[g] = h; this.lo[g] = l; return }
    this.hi[g] = fold(this.op, this.hi[g]!, h)
    this.lo[g] = fold(this.op, this.lo[g]!, l)
  }

  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    const v = arg(args, 0)
    switch (v.kind) {
      case 'i8': case 'i16': for (let i = 0; i < length; i++) { const x = v.data[i]!; this.add(groups[i]!, x < 0 ? -1 : 0, x) } return
      case 'i32': for (let i = 0; i < length; i++) { const x = v.data[i]!; if (x !== INT_NULL) this.add(groups[i]!, x < 0 ? -1 : 0, x) } return
      case 'i64': {
        const d = v.data
        if (d instanceof Float64Array) {
          for (let i = 0; i < length; i++) {
            const x = d[i]!
            if (x === LONG_NULL) continue
            const h = Math.floor(x / TWO_32)
            this.add(groups[i]!, h | 0, (x - h * TWO_32) | 0)
          }
        } else {
          for (let i = 0; i < length; i++) {
            const x = d[i]!
            if (x === LONG_NULL_BIG) continue
            this.add(groups[i]!, Number(BigInt.asIntN(32, x >> 32n)), Number(BigInt.asIntN(32, x)))
          }
        }
        return
      }
      default: return
    }
  }

  updateOne(group: number, args: readonly Vector[], length: number): void {
    this.resize(group + 1)
    this.update(sameGroup(group, length), args, length)
  }

  merge(other: AggregateKernel, from: Int32Array, to: Int32Array, count: number): void {
    const o = other as BitAggKernel
    for (let i = 0; i < count; i++) {
      const f = from[i]!
      if (o.seen[f] === 1) this.add(to[i]!, o.hi[f]!, o.lo[f]!)
    }
  }

  result(count: number): Vector {
    const type = this.type
    switch (type) {
      case 'BYTE': { const data = new Int8Array(count); for (let g = 0; g < count; g++) data[g] = this.lo[g]!; return { kind: 'i8', type, length: count, data } }
      case 'SHORT': { const data = new Int16Array(count); for (let g = 0; g < count; g++) data[g] = this.lo[g]!; return { kind: 'i16', type, length: count, data } }
      case 'INT': { const data = new Int32Array(count); for (let g = 0; g < count; g++) data[g] = this.seen[g] === 1 ? this.lo[g]! : INT_NULL; return { kind: 'i32', type, length: count, data } }
      default: {
        const data = new Float64Array(count)
        let safe = true
        for (let g = 0; g < count; g++) {
          const x = this.seen[g] === 1 ? this.hi[g]! * TWO_32 + (this.lo[g]! >>> 0) : LONG_NULL
          if (this.seen[g] === 1 && !Number.isSafeInteger(x)) safe = false
          data[g] = x
        }
        if (safe) return { kind: 'i64', type: 'LONG', length: count, data }
        const big = new BigInt64Array(count)
        for (let g = 0; g < count; g++) big[g] = this.seen[g] === 1 ? (BigInt(this.hi[g]!) << 32n) | BigInt(this.lo[g]! >>> 0) : LONG_NULL_BIG
        return { kind: 'i64', type: 'LONG', length: count, data: big }
      }
    }
  }
}

function bitAgg(op: BitOp): FunctionDef {
  const name = `bit_${op}`
  return aggregate({
    name,
    signatures: (['BYTE', 'SHORT', 'INT', 'LONG'] as const).map((t) => ({ args: [t], returns: t })),
    description: `Bitwise ${op.toUpperCase()} of the non-null values (BYTE, SHORT, INT or LONG), of the argument's type; NULL for a group without a value.`,
    example: `SELECT ${name}(x) FROM long_sequence(10)`,
    create: (site) => new BitAggKernel(op, site.returns as ColumnType),
  })
}

/** bit_and, bit_or, bit_xor. */
export const BIT_AGG_FUNCTIONS: readonly FunctionDef[] = [bitAgg('and'), bitAgg('or'), bitAgg('xor')]
