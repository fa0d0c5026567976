/**
 * Shared plumbing of the `rnd_*` family: a builder that turns a "draw one value" function into a
 * {@link ScalarFunctionDef} with a row kernel (QuestDB evaluates the columns of a row left to
 * right, so the engine calls rnd row kernels row by row when several appear in one projection)
 * and an optional vector kernel for the single-column case, plus helpers that read and check
 * constant arguments the way QuestDB's factories do.
 */
import { SqlError, SqlState } from '../../errors.js'
import type { ColumnType } from '../../types/column-type.js'
import { allocate, type Scalar, type Vector } from '../../types/vector.js'
import type { CallSite, FunctionContext, ScalarFunctionDef, Signature } from '../registry-types.js'
import type { Rnd } from './rnd.js'

/** What one rnd function needs to say; {@link rndFunction} builds the definition from it. */
export interface RndSpec {
  readonly name: string
  readonly signatures: readonly Signature[]
  readonly description: string
  readonly example: string
  /** checks the constant arguments and prepares the per-call draw (runs once per execution) */
  readonly prepare: (site: CallSite, ctx: FunctionContext) => RndDraw
}

/** The per-call state of an rnd function: draws one value, and optionally fills a whole vector. */
export interface RndDraw {
  /** draws the next value */
  readonly next: (rnd: Rnd) => Scalar
  /** the result type */
  readonly type: ColumnType
  /** fills `out` (allocated with {@link RndDraw.type}) for `length` rows; falls back to `next` when absent */
  readonly fill?: (rnd: Rnd, out: Vector, length: number) => void
}

/** Builds the definition of an rnd function (family `rnd`, non-deterministic, not null-strict). */
export function rndFunction(spec: RndSpec): ScalarFunctionDef {
  return {
    kind: 'scalar',
    name: spec.name,
    signatures: spec.signatures,
    description: spec.description,
    example: spec.example,
    family: 'rnd',
    deterministic: false,
    nullStrict: false,
    init: (site, ctx) => spec.prepare(site, ctx),
    row: (_args, ctx, state) => (state as RndDraw).next(ctx.rnd),
    vector: (_args, length, ctx, state) => {
      const draw = state as RndDraw
      const out = allocate(draw.type, length)
      if (draw.fill !== undefined) {
        draw.fill(ctx.rnd, out, length)
        return out
      }
      return fillByRow(draw, ctx.rnd, out, length)
    },
  }
}

function fillByRow(draw: RndDraw, rnd: Rnd, out: Vector, length: number): Vector {
  switch (out.kind) {
    case 'str': case 'bin': {
      const data = out.data as unknown[]
      for (let i = 0; i < length; i++) data[i] = draw.next(rnd)
      return out
    }
    case 'sym': {
      const data = out.data
      const dict = out.dict
      for (let i = 0; i < length; i++) {
        const v = draw.next(rnd)
        data[i] = v === null ? -1 : dict.intern(String(v))
      }
      return out
    }
    case 'i64': {
      let data: Float64Array | BigInt64Array = out.data
      for (let i = 0; i < length; i++) {
        const v = draw.next(rnd) as number | bigint | null
        if (v === null) data[i] = data instanceof Float64Array ? -9223372036854775808 : -9223372036854775808n
        else if (typeof v === 'bigint' && data instanceof Float64Array) {
          const big = new BigInt64Array(length)
          for (let k = 0; k < i; k++) big[k] = BigInt(data[k]!)
          data = big
          data[i] = v
        } else data[i] = (data instanceof BigInt64Array ? BigInt(v) : v) as never
      }
      return { ...out, data }
    }
    default:
      throw new SqlError(SqlState.INTERNAL_ERROR, `internal error: no vector fill for ${draw.type}`)
  }
}

/** A constant argument as a finite integer (the binder guarantees constness for `constant` indexes). */
export function constInt(site: CallSite, i: number): number {
  const v = site.constants[i]
  if (v === null || v === undefined) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'constant expected', site.argPositions[i] ?? site.pos)
  if (typeof v === 'bigint') return Number(v)
  if (typeof v === 'boolean') return v ? 1 : 0
  return Number(v)
}

/** A constant i64 argument, exact (bigint only when not a safe integer). */
export function constLong(site: CallSite, i: number): number | bigint {
  const v = site.constants[i]
  if (v === null || v === undefined) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'constant expected', site.argPositions[i] ?? site.pos)
  if (typeof v === 'bigint') return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v
  return Number(v)
}

/** Checks a null-rate argument (>= 0), QuestDB's message `invalid NaN rate` at its position. */
export function checkRate(site: CallSite, i: number, message = 'invalid NaN rate'): number {
  const r = constInt(site, i)
  if (r < 0) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, message, site.argPositions[i] ?? site.pos)
  return r
}

/** The `invalid range` error, at the call position as in QuestDB. */
export function invalidRange(site: CallSite): SqlError {
  return new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'invalid range', site.pos)
}

/** An exact i64 as a {@link Scalar}: a number when safe, a bigint otherwise. */
export function longScalar(v: bigint): number | bigint {
  return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v
}
