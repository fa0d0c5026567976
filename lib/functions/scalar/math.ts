/**
 * Numeric functions (QuestDB's numeric.md): abs, sign, ceil/ceiling, floor, round, round_down,
 * round_up, round_half_even, sqrt, power, exp, ln, log (base 10), greatest, least,
 * size_pretty and the trigonometric functions. Results that are not real numbers
 * (sqrt(-1), ln(0)) are null.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { internalError } from '../../errors.js'
import { INT_NULL, LONG_NULL, LONG_NULL_BIG } from '../../types/column-type.js'
import type { ColumnType } from '../../types/column-type.js'
import { VectorWriter, allocate, getScalar } from '../../types/vector.js'
import type { Vector } from '../../types/vector.js'
import type { ScalarFunctionDef, Signature } from '../registry-types.js'
import { i64FromBig, isBigI64, stride, toF64 } from '../kernel-helpers.js'
import { type RoundMode, roundScaled } from './math-rounding.js'

/** Applies `f` to every row of a numeric vector read as doubles, giving DOUBLE (or FLOAT). */
function mapDouble(v: Vector, n: number, f: (x: number) => number, ret: ColumnType = 'DOUBLE'): Vector {
  const x = toF64(v)
  const m = x.s === 0 ? 1 : n
  const out = allocate(ret, m)
  const o = out.data as Float64Array, d = x.data
  for (let i = 0; i < m; i++) o[i] = f(d[i]!)
  return x.s === 0 ? ({ ...out, length: n, isConst: true } as Vector) : out
}

function unaryDouble(name: string, f: (x: number) => number, description: string, example: string, aliases?: string[]): ScalarFunctionDef {
  return {
    kind: 'scalar', name, family: 'math', description, example, ...(aliases === undefined ? {} : { aliases }),
    signatures: [{ args: ['DOUBLE'], returns: 'DOUBLE' }],
    vector: (args, n) => mapDouble(args[0]!, n, f),
  }
}

/** ceil/floor: FLOAT stays FLOAT, integers and DOUBLE give DOUBLE. */
function ceilFloor(name: string, f: (x: number) => number, description: string, example: string, aliases?: string[]): ScalarFunctionDef {
  return {
    kind: 'scalar', name, family: 'math', description, example, ...(aliases === undefined ? {} : { aliases }),
    signatures: [{ args: ['DOUBLE'], returns: 'DOUBLE' }, { args: ['FLOAT'], returns: 'FLOAT' }, { args: ['LONG'], returns: 'DOUBLE' }],
    vector: (args, n) => mapDouble(args[0]!, n, f, args[0]!.type === 'FLOAT' ? 'FLOAT' : 'DOUBLE'),
  }
}

/** abs and sign keep the argument's type. */
function sameTypeInt(which: 'abs' | 'sign') {
  const fd = which === 'abs' ? Math.abs : (x: number) => (x > 0 ? 1 : x < 0 ? -1 : x)
  return (args: readonly Vector[], n: number): Vector => {
    const a = args[0]!
    const m = a.isConst === true ? 1 : n
    const out = allocate(a.type, m)
    switch (a.kind) {
      case 'i8': case 'i16': case 'f32': case 'f64': {
        const o = out.data as Float64Array, d = a.data
        for (let i = 0; i < m; i++) o[i] = fd(d[i]!)
        break
      }
      case 'i32': {
        const o = out.data as Int32Array, d = a.data
        for (let i = 0; i < m; i++) { const x = d[i]!; o[i] = x === INT_NULL ? INT_NULL : fd(x) }
        break
      }
      case 'i64': {
        const d = a.data
        if (d instanceof Float64Array) {
          const o = out.data as Float64Array
          for (let i = 0; i < m; i++) { const x = d[i]!; o[i] = x === LONG_NULL ? LONG_NULL : fd(x) }
        } else {
          const o = new BigInt64Array(m)
          for (let i = 0; i < m; i++) {
            const x = d[i]!
            o[i] = x === LONG_NULL_BIG ? x : which === 'abs' ? (x < 0n ? -x : x) : x > 0n ? 1n : x < 0n ? -1n : 0n
          }
          return { ...i64FromBig(a.type, o), length: n, isConst: a.isConst === true }
        }
        break
      }
      default: throw internalError(`${which}: ${a.type}`)
    }
    return { ...out, length: n, isConst: a.isConst === true } as Vector
  }
}

const SAME_TYPE_SIGS: readonly Signature[] = (['BYTE', 'SHORT', 'INT', 'LONG', 'FLOAT', 'DOUBLE'] as const).map((t) => ({ args: [t], returns: t }))

function rounding(name: string, mode: RoundMode, description: string, example: string): ScalarFunctionDef {
  return {
    kind: 'scalar', name, family: 'math', description, example,
    signatures: [{ args: ['DOUBLE', 'INT'], returns: 'DOUBLE' }, { args: ['DOUBLE'], returns: 'DOUBLE' }],
    vector: (args, n) => {
      if (args.length === 1) return mapDouble(args[0]!, n, (x) => roundScaled(x, 0, mode))
      const x = toF64(args[0]!), s = args[1]!
      const out = allocate('DOUBLE', n), o = out.data as Float64Array
      if (s.kind !== 'i32') throw internalError(`${name}: scale ${s.type}`)
      const sd = s.data, ss = stride(s)
      for (let i = 0; i < n; i++) { const k = sd[i * ss]!; o[i] = k === INT_NULL ? NaN : roundScaled(x.data[i * x.s]!, k, mode) }
      return out
    },
  }
}

/**
 * greatest / least over LONGs, TIMESTAMPs, TIMESTAMP_NSs or DOUBLEs, skipping nulls (null only
 * when every argument is null). Timestamps keep their type (QuestDB's
 * GreatestNumericFunctionFactory: a TIMESTAMP_NS among them makes the result one); 64-bit values
 * past 2^53 compare exactly, as integers.
 */
function extreme(name: string, greatest: boolean, description: string): ScalarFunctionDef {
  return {
    kind: 'scalar', name, family: 'math', description, example: `SELECT ${name}(11, 3, 8, 15)`,
    signatures: [
      { args: ['LONG'], variadic: 'LONG', returns: 'LONG' }, { args: ['DOUBLE'], variadic: 'DOUBLE', returns: 'DOUBLE' },
      { args: ['TIMESTAMP'], variadic: 'TIMESTAMP', returns: 'TIMESTAMP' }, { args: ['TIMESTAMP_NS'], variadic: 'TIMESTAMP_NS', returns: 'TIMESTAMP_NS' },
    ],
    vector: (args, n) => {
      const ret: ColumnType = args.every((a) => a.kind === 'i64') ? (args[0]!.type === 'TIMESTAMP' || args[0]!.type === 'TIMESTAMP_NS' ? args[0]!.type : 'LONG') : 'DOUBLE'
      if (ret !== 'DOUBLE' && args.some(isBigI64)) return extremeBig(args, n, greatest, ret)
      const views = args.map(toF64)
      const out = new Float64Array(n).fill(NaN)
      for (const v of views) {
        const d = v.data, s = v.s
        for (let i = 0; i < n; i++) {
          const x = d[i * s]!
          if (x !== x) continue
          const cur = out[i]!
          if (cur !== cur || (greatest ? x > cur : x < cur)) out[i] = x
        }
      }
      if (ret === 'DOUBLE') return { kind: 'f64', type: 'DOUBLE', length: n, data: out }
      for (let i = 0; i < n; i++) if (out[i] !== out[i]) out[i] = LONG_NULL
      return { kind: 'i64', type: ret, length: n, data: out }
    },
  }
}

/** {@link extreme} over 64-bit vectors some of which hold values past 2^53: exact, as bigints. */
function extremeBig(args: readonly Vector[], n: number, greatest: boolean, ret: ColumnType): Vector {
  const w = new VectorWriter(ret, n)
  for (let i = 0; i < n; i++) {
    let best: bigint | undefined
    for (const a of args) {
      const x = getScalar(a, i)
      if (x === null) continue
      const b = BigInt(x as number | bigint)
      if (best === undefined || (greatest ? b > best : b < best)) best = b
    }
    w.set(i, best === undefined ? null : best >= -9007199254740991n && best <= 9007199254740991n ? Number(best) : best)
  }
  return w.finish()
}

const SIZE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB']

/** `size_pretty(400032)` = `390.7 KiB`: one decimal, base-1024 units. */
export function sizePretty(bytes: number): string {
  let v = bytes
  let u = 0
  while (Math.abs(v) >= 1024 && u < SIZE_UNITS.length - 1) { v /= 1024; u++ }
  return `${(Math.round(v * 10) / 10).toFixed(1)} ${SIZE_UNITS[u]}`
}

/** The numeric functions. */
export const MATH_FUNCTIONS: readonly ScalarFunctionDef[] = [
  { kind: 'scalar', name: 'abs', family: 'math', description: 'Absolute value, of the argument\'s type.', example: 'SELECT abs(x - 2) FROM long_sequence(3)', signatures: SAME_TYPE_SIGS, vector: sameTypeInt('abs') },
  { kind: 'scalar', name: 'sign', family: 'math', description: 'Sign of the argument: -1, 0 or 1, of the argument\'s type.', example: 'SELECT sign(x - 3) FROM long_sequence(5)', signatures: SAME_TYPE_SIGS, vector: sameTypeInt('sign') },
  ceilFloor('ceil', Math.ceil, 'Smallest integer not less than the value.', 'SELECT ceil(15.75)', ['ceiling']),
  ceilFloor('floor', Math.floor, 'Largest integer not greater than the value.', 'SELECT floor(15.75)'),
  rounding('round', 'half_up', 'Rounds to `scale` decimals (default 0), halves away from zero.', 'SELECT round(376.3807766, 2)'),
  rounding('round_down', 'down', 'Rounds toward zero at `scale` decimals.', 'SELECT round_down(-64.75487334, 1)'),
  rounding('round_up', 'up', 'Rounds away from zero at `scale` decimals.', 'SELECT round_up(4.003627053, 1)'),
  rounding('round_half_even', 'half_even', 'Rounds to `scale` decimals, halves to the even neighbour.', 'SELECT round_half_even(5.65, 1)'),
  unaryDouble('sqrt', Math.sqrt, 'Square root.', 'SELECT sqrt(4000.32)'),
  unaryDouble('exp', Math.exp, 'e raised to the value.', 'SELECT exp(2)'),
  unaryDouble('ln', Math.log, 'Natural logarithm.', 'SELECT ln(4.123)'),
  unaryDouble('log', Math.log10, 'Base-10 logarithm (as PostgreSQL; ln is the natural one).', 'SELECT log(100)', ['log10']),
  {
    kind: 'scalar', name: 'power', family: 'math', description: 'base raised to exponent.', example: 'SELECT power(2, 3)',
    signatures: [{ args: ['DOUBLE', 'DOUBLE'], returns: 'DOUBLE' }],
    vector: (args, n) => {
      const a = toF64(args[0]!), b = toF64(args[1]!)
      const out = allocate('DOUBLE', n), o = out.data as Float64Array
      for (let i = 0; i < n; i++) o[i] = a.data[i * a.s]! ** b.data[i * b.s]!
      return out
    },
  },
  extreme('greatest', true, 'Largest of the arguments, skipping nulls.'),
  extreme('least', false, 'Smallest of the arguments, skipping nulls.'),
  {
    kind: 'scalar', name: 'size_pretty', family: 'math', description: 'A byte count as text in base-1024 units.', example: 'SELECT size_pretty(400032)',
    signatures: [{ args: ['LONG'], returns: 'STRING' }],
    row: (args) => sizePretty(Number(args[0])),
  },
  unaryDouble('sin', Math.sin, 'Sine (radians).', 'SELECT sin(pi() / 2)'),
  unaryDouble('cos', Math.cos, 'Cosine (radians).', 'SELECT cos(0)'),
  unaryDouble('tan', Math.tan, 'Tangent (radians).', 'SELECT tan(0)'),
  unaryDouble('cot', (x) => 1 / Math.tan(x), 'Cotangent (radians).', 'SELECT cot(1)'),
  unaryDouble('asin', Math.asin, 'Arc sine.', 'SELECT asin(1)'),
  unaryDouble('acos', Math.acos, 'Arc cosine.', 'SELECT acos(1)'),
  unaryDouble('atan', Math.atan, 'Arc tangent.', 'SELECT atan(1)'),
  unaryDouble('degrees', (x) => (x * 180) / Math.PI, 'Radians to degrees.', 'SELECT degrees(pi())'),
  unaryDouble('radians', (x) => (x * Math.PI) / 180, 'Degrees to radians.', 'SELECT radians(180)'),
  {
    kind: 'scalar', name: 'atan2', family: 'math', description: 'Arc tangent of y/x, using the signs of both.', example: 'SELECT atan2(1, 1)',
    signatures: [{ args: ['DOUBLE', 'DOUBLE'], returns: 'DOUBLE' }],
    vector: (args, n) => {
      const a = toF64(args[0]!), b = toF64(args[1]!)
      const out = allocate('DOUBLE', n), o = out.data as Float64Array
      for (let i = 0; i < n; i++) o[i] = Math.atan2(a.data[i * a.s]!, b.data[i * b.s]!)
      return out
    },
  },
  {
    kind: 'scalar', name: 'pi', family: 'math', description: 'The constant pi.', example: 'SELECT pi()',
    signatures: [{ args: [], returns: 'DOUBLE' }],
    row: () => Math.PI,
  },
]
