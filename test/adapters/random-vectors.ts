/**
 * Random result vectors of every column type, for the property tests that compare the fast
 * result writers (pgwire DataRows, REST JSON and CSV) with the per-value reference encoders.
 * Seeded, so a failure names a reproducible seed. Values lean on the edges: nulls, NaN,
 * ±Infinity, -0, tiny and huge doubles, 64-bit integers past 2^53 (BigInt64Array vectors),
 * timestamps before 1970 and past 9999, text with quotes, backslashes, control characters,
 * non-ASCII and lone surrogates, DECIMALs narrow and wide, DOUBLE arrays of 1 and 2 dimensions,
 * and constant vectors.
 */
import { type Vector, allocate, vectorOf } from '../../lib/types/vector.js'
import type { ColumnType } from '../../lib/types/column-type.js'
import { DoubleArray } from '../../lib/types/array.js'
import { arrOf } from '../../lib/types/array-vector.js'
import { arrayType } from '../../lib/types/array-type.js'

/** A small deterministic generator (mulberry32). */
export class Rng {
  constructor(private s: number) {}
  next(): number {
    let t = (this.s = (this.s + 0x6d2b79f5) | 0)
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  int(n: number): number { return Math.floor(this.next() * n) }
  pick<T>(xs: readonly T[]): T { return xs[this.int(xs.length)]! }
}

const TEXTS = ['', 'a', 'host_1', 'with "quotes"', 'back\\slash', 'tab\there', 'line\nbreak', 'cr\r', '\u0001ctl', 'caf\u00e9', '\u65e5\u672c', '\ud83d\ude00 emoji',
  'lone \ud800 surrogate', 'end \udc00', 'comma,semi;', '\u007fdel', '\u2028sep', 'x'.repeat(100), '\u00e9'.repeat(40)]

function randomDouble(r: Rng): number {
  switch (r.int(12)) {
    case 0: return r.pick([NaN, Infinity, -Infinity, 0, -0, 1, -1, 1e7, 1e-3, 9999999.999999998, 0.001, 1e21, 5e-324, 1.7976931348623157e308])
    case 1: return (r.next() - 0.5) * 10 ** (r.int(40) - 20)
    case 2: return Math.round(r.next() * 10000) / 100
    case 3: return -Math.round(r.next() * 1e6) / 1e3
    case 4: return r.int(10_000_000) * (r.next() < 0.5 ? -1 : 1)
    case 5: return Number((r.next() * 1e4).toPrecision(1 + r.int(17)))
    case 6: return 1 / (1 + r.int(1000))
    case 7: return r.next() * 1e-3
    default: return (r.next() - 0.5) * 200
  }
}

function randomMicros(r: Rng): number {
  switch (r.int(6)) {
    case 0: return r.pick([0, -1, 1, 86_400_000_000 - 1, -86_400_000_000, 253402300799999999, 253402300800000000, -62135596800000000, -62135596800000001])
    case 1: return Math.round((r.next() - 0.5) * 2 ** 53)
    case 2: return -r.int(2 ** 31) * 1_000_000 - r.int(1_000_000)
    default: return 1_451_606_400_000_000 + r.int(2 ** 31) * 1000 + r.int(1000)
  }
}

/** One random vector of `type`, `n` rows, about one value in eight null. */
export function randomVector(r: Rng, type: ColumnType, n: number): Vector {
  const nulls = (): boolean => r.int(8) === 0
  const v = allocate(type, n)
  switch (v.kind) {
    case 'bool': for (let i = 0; i < n; i++) v.data[i] = r.int(2); break
    case 'i8': for (let i = 0; i < n; i++) v.data[i] = r.int(256) - 128; break
    case 'i16': for (let i = 0; i < n; i++) v.data[i] = r.int(65536) - 32768; break
    case 'u16': for (let i = 0; i < n; i++) v.data[i] = nulls() ? 0 : r.pick([65, 34, 92, 10, 233, 0x65e5, 0xd800, 1]); break
    case 'i32': for (let i = 0; i < n; i++) v.data[i] = nulls() ? (type === 'IPV4' ? 0 : -2147483648) : (r.next() * 2 ** 32) | 0; break
    case 'f32': for (let i = 0; i < n; i++) v.data[i] = randomDouble(r); break
    case 'f64': for (let i = 0; i < n; i++) v.data[i] = randomDouble(r); break
    case 'i64': {
      for (let i = 0; i < n; i++) {
        v.data[i] = nulls() ? -9223372036854775808
          : type === 'TIMESTAMP' ? randomMicros(r)
            : type === 'DATE' ? Math.round(randomMicros(r) / 1000)
              : r.pick([0, -1, 1, 2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 31, -(2 ** 31) - 1, 1e15]) * (r.int(3) === 0 ? 1 : 0) + (r.int(3) === 0 ? 0 : Math.round((r.next() - 0.5) * 10 ** r.int(16)))
      }
      break
    }
    case 'sym': for (let i = 0; i < n; i++) v.data[i] = nulls() ? -1 : v.dict.intern(r.pick(TEXTS)); break
    case 'str': for (let i = 0; i < n; i++) v.data[i] = nulls() ? null : strValue(r, type); break
    case 'bin': for (let i = 0; i < n; i++) v.data[i] = nulls() ? null : Uint8Array.from({ length: r.int(40) }, () => r.int(256)); break
    case 'arr': {
      const dims = type === arrayType(1) ? 1 : 2
      const rows: (DoubleArray | null)[] = []
      for (let i = 0; i < n; i++) {
        if (nulls()) { rows.push(null); continue }
        const shape = dims === 1 ? [r.int(5)] : [1 + r.int(3), 1 + r.int(3)]
        const len = shape.reduce((a, b) => a * b, 1)
        rows.push(new DoubleArray(shape, Float64Array.from({ length: len }, () => randomDouble(r))))
      }
      return arrOf(type, rows)
    }
    case 'null': break
  }
  return v
}

function strValue(r: Rng, type: ColumnType): string {
  switch (type) {
    case 'UUID': return Array.from({ length: 32 }, () => r.int(16).toString(16)).join('').replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-')
    case 'LONG256': return '0x' + Array.from({ length: 1 + r.int(64) }, () => r.int(16).toString(16)).join('')
    case 'INTERVAL': return `('2024-01-01T00:00:00.000Z', '2024-01-02T00:00:00.000Z')`
    case 'INTERVAL_NS': return `('2024-01-01T00:00:00.000000001Z', '2024-01-02T00:00:00.000000000Z')`
    default:
      if (type.startsWith('DECIMAL(')) {
        const s = Number(/,(\d+)\)/.exec(type)![1])
        const int = String(r.int(10 ** 6)) + (r.int(2) === 0 ? '123456789012' : '')
        const frac = Array.from({ length: s }, () => r.int(10)).join('')
        return (r.int(3) === 0 ? '-' : '') + int + (s > 0 ? '.' + frac : '')
      }
      return r.pick(TEXTS)
  }
}

/** A BigInt64Array vector of a 64-bit integer type (values past 2^53, as `rnd_long()` makes). */
export function bigIntVector(r: Rng, type: ColumnType, n: number): Vector {
  const d = new BigInt64Array(n)
  for (let i = 0; i < n; i++) {
    d[i] = r.int(8) === 0 ? -9223372036854775808n : r.pick([9223372036854775807n, -9223372036854775807n, 2n ** 53n + 1n, 12345n, -(2n ** 60n)])
  }
  return vectorOf(type, d, n)
}

/** A constant vector holding row 0 of `v` for `n` rows. */
export function constVector(v: Vector, n: number): Vector {
  return { ...v, length: n, isConst: true } as Vector
}

/** Every result column type the writers must handle. */
export const ALL_TYPES: readonly ColumnType[] = ['BOOLEAN', 'BYTE', 'SHORT', 'CHAR', 'INT', 'LONG', 'FLOAT', 'DOUBLE', 'DATE', 'TIMESTAMP', 'SYMBOL', 'STRING', 'VARCHAR',
  'UUID', 'LONG256', 'IPV4', 'BINARY', 'INTERVAL', 'INTERVAL_NS', 'NULL', 'DECIMAL(18,3)', 'DECIMAL(10,0)', 'DECIMAL(38,6)', arrayType(1), arrayType(2)] as ColumnType[]

/** A batch of one random vector per type of {@link ALL_TYPES} (plus BigInt and constant variants), `n` rows. */
export function randomColumns(r: Rng, n: number): { type: ColumnType; vector: Vector; label: string }[] {
  const out: { type: ColumnType; vector: Vector; label: string }[] = ALL_TYPES.map((type) => ({ type, vector: randomVector(r, type, n), label: String(type) }))
  for (const type of ['LONG', 'TIMESTAMP', 'DATE', 'DECIMAL(18,3)'] as ColumnType[]) out.push({ type, vector: bigIntVector(r, type, n), label: `${type} (BigInt64Array)` })
  for (const type of ['DOUBLE', 'SYMBOL', 'TIMESTAMP', 'INT'] as ColumnType[]) out.push({ type, vector: constVector(randomVector(r, type, 1), n), label: `${type} (constant)` })
  return out
}
