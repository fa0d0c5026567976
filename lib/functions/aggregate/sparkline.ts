/**
 * `sparkline(value)` and `sparkline(value, min, max, width)` (QuestDB's visualization page): the
 * group's non-null values in row order drawn as a VARCHAR of block characters `▁▂▃▄▅▆▇█`, one a
 * value. A value maps to character floor((v - min) / (max - min) * 7), clamped to [min, max];
 * `min`/`max` are constants, NULL meaning the group's own minimum/maximum; when they are equal
 * every character is `█`. With `width` (a positive constant) and more values than that, the
 * values are cut into `width` equal buckets (bucket i is values [floor(i*n/w), floor((i+1)*n/w)))
 * and each bucket's mean is drawn. No value gives NULL. `min` above `max` is an error (22023), as
 * is a group of more than 349,525 values (54000: QuestDB's 1 MiB string buffer at 3 bytes a
 * character).
 *
 * As in QuestDB, the binder refuses an input sorted against its designated timestamp
 * (`plan/ordered-aggregate-args.ts`).
 */
import { SqlError, SqlState } from '../../errors.js'
import { formatDouble } from '../../types/number-format.js'
import type { Vector } from '../../types/vector.js'
import type { AggregateKernel, CallSite, FunctionDef } from '../registry-types.js'
import { aggregate, arg, growArray, sameGroup } from './agg-util.js'

const SPARK_CHARS = '▁▂▃▄▅▆▇█'
/** QuestDB's `cairo.sql.string.function.buffer.max.size` (1 MiB) over 3 UTF-8 bytes a character. */
export const MAX_VISUAL_CHARS = Math.floor(1048576 / 3)

function tooLong(pos: number): SqlError {
  return new SqlError(SqlState.PROGRAM_LIMIT_EXCEEDED, `sparkline() result exceeds max size of ${MAX_VISUAL_CHARS * 3} bytes`, pos)
}

/** Collects each group's non-null values; draws them in {@link SparklineKernel.result}. */
export class SparklineKernel implements AggregateKernel {
  values: (number[] | null)[] = []
  private held = 0

  constructor(
    readonly min: number,
    readonly max: number,
    readonly width: number,
    readonly pos: number,
  ) {}

  resize(count: number): void {
    growArray(this.values, count, null)
  }

  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    const v = arg(args, 0).data as Float64Array
    const values = this.values
    for (let i = 0; i < length; i++) {
      const x = v[i]!
      if (x !== x) continue
      const list = values[groups[i]!] ??= []
      if (list.length >= MAX_VISUAL_CHARS) throw tooLong(this.pos)
      list.push(x)
    }
    this.held += length * 8
  }

  updateOne(group: number, args: readonly Vector[], length: number): void {
    this.resize(group + 1)
    this.update(sameGroup(group, length), args, length)
  }

  merge(other: AggregateKernel, from: Int32Array, to: Int32Array, count: number): void {
    const o = other as SparklineKernel
    for (let i = 0; i < count; i++) {
      const src = o.values[from[i]!]
      if (src === null || src === undefined) continue
      const dst = this.values[to[i]!] ??= []
      for (let k = 0; k < src.length; k++) dst.push(src[k]!)
    }
    this.held += o.held
  }

  heapBytes(): number {
    return this.held + this.values.length * 8
  }

  result(count: number): Vector {
    const data = new Array<string | null>(count)
    for (let g = 0; g < count; g++) {
      const list = this.values[g]
      data[g] = list === null || list === undefined || list.length === 0 ? null : this.draw(list)
    }
    return { kind: 'str', type: 'VARCHAR', length: count, data }
  }

  private draw(list: readonly number[]): string {
    let min = this.min, max = this.max
    if (min !== min || max !== max) {
      let lo = list[0]!, hi = lo
      for (let i = 1; i < list.length; i++) {
        const x = list[i]!
        if (x < lo) lo = x
        if (x > hi) hi = x
      }
      if (min !== min) min = lo
      if (max !== max) max = hi
    }
    const n = list.length
    const width = this.width > 0 ? this.width : n
    if (Math.min(width, n) > MAX_VISUAL_CHARS) throw tooLong(this.pos)
    const range = max - min
    let out = ''
    if (width >= n) {
      for (let i = 0; i < n; i++) out += charFor(list[i]!, min, range)
      return out
    }
    const bucket = n / width
    for (let i = 0; i < width; i++) {
      const from = Math.trunc(i * bucket), to = Math.trunc((i + 1) * bucket)
      let sum = 0
      for (let j = from; j < to; j++) sum += list[j]!
      out += charFor(sum / (to - from), min, range)
    }
    return out
  }
}

function charFor(v: number, min: number, range: number): string {
  if (range === 0) return SPARK_CHARS[7]!
  const clamped = Math.max(min, Math.min(min + range, v))
  const idx = Math.trunc((clamped - min) / range * 7)
  return SPARK_CHARS[idx > 7 ? 7 : idx < 0 ? 0 : idx]!
}

function create(site: CallSite): SparklineKernel {
  if (site.argTypes.length === 1) return new SparklineKernel(NaN, NaN, 0, site.pos)
  const num = (i: number): number => {
    const c = site.constants[i]
    if (c === undefined) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'constant expected', site.argPositions[i] ?? site.pos)
    return c === null ? NaN : Number(c)
  }
  const min = num(1), max = num(2), width = num(3)
  if (min === min && max === max && min > max) {
    throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `sparkline() min must not exceed max [min=${formatDouble(min)}, max=${formatDouble(max)}]`, site.pos)
  }
  if (!(width >= 1)) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'width must be a positive integer', site.argPositions[3] ?? site.pos)
  return new SparklineKernel(min, max, width, site.pos)
}

/** sparkline. */
export const SPARKLINE_FUNCTIONS: readonly FunctionDef[] = [
  aggregate({
    name: 'sparkline',
    signatures: [
      { args: ['DOUBLE'], returns: 'VARCHAR' },
      { args: ['DOUBLE', 'DOUBLE', 'DOUBLE', 'INT'], constant: [1, 2, 3], returns: 'VARCHAR' },
    ],
    description: 'The group\'s values in row order as a chart of block characters ▁..█, scaled to [min, max] (NULL: the data\'s own), at most `width` characters (bucket means).',
    example: 'SELECT sparkline(price), sparkline(price, 0, NULL, 24) FROM trades SAMPLE BY 1h',
    create,
  }),
]
