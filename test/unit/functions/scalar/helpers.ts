/**
 * Test helpers for scalar kernels: build vectors from plain values, run a definition's kernel
 * (with its init) and read the result back as plain values.
 */
import type { ColumnType } from '../../../../lib/types/column-type.js'
import { type Scalar, type Vector, VectorWriter, constVector, getScalar } from '../../../../lib/types/vector.js'
import type { CallSite, FunctionContext, FunctionDef, ScalarFunctionDef } from '../../../../lib/functions/registry-types.js'
import { Rnd } from '../../../../lib/functions/rnd/rnd.js'
import { BUILTINS } from '../../../../lib/functions/builtins.js'

/** A vector of `type` holding `values`. */
export function vec(type: ColumnType, values: readonly Scalar[]): Vector {
  const w = new VectorWriter(type, values.length)
  values.forEach((v, i) => w.set(i, v))
  return w.finish()
}

/** A constant vector. */
export function cst(type: ColumnType, value: Scalar, length = 1): Vector {
  return constVector(type, value, length)
}

/** Reads every row of a vector. */
export function values(v: Vector): Scalar[] {
  const out: Scalar[] = []
  for (let i = 0; i < v.length; i++) out.push(getScalar(v, i))
  return out
}

/** 2024-01-02T03:04:05.678901Z in micros. */
export const NOW = 1704164645678901

/** A test context with a fixed clock. */
export const ctx: FunctionContext = {
  now: NOW,
  clock: () => NOW,
  rnd: new Rnd(),
  user: 'admin',
  catalog: { tableNames: () => [], table: () => undefined, partitions: () => undefined },
  version: 'EpochDB 0.1.0',
}

/** The scalar definition named `name` among the built-ins. */
export function fn(name: string): ScalarFunctionDef {
  const d = BUILTINS.find((f: FunctionDef) => f.name === name || f.aliases?.includes(name))
  if (d === undefined || d.kind !== 'scalar') throw new Error(`no scalar function ${name}`)
  return d
}

/**
 * Calls `name` on argument vectors: runs the bind-time check and init (as the binder does) with a
 * site whose constants come from constant vectors and whose return type is `returns` (or the first
 * matching signature's), then the kernel.
 */
export function call(name: string, args: readonly Vector[], returns?: ColumnType): Vector {
  const d = fn(name)
  const argTypes = args.map((a) => a.type)
  const sig = d.signatures.find((s) => s.args.length === args.length || (s.variadic !== undefined && s.args.length <= args.length))
  const ret = returns ?? (typeof sig?.returns === 'function' ? sig.returns(argTypes) : sig?.returns) ?? 'NULL'
  const site: CallSite = {
    argTypes,
    constants: args.map((a) => (a.isConst === true ? getScalar(a, 0) : undefined)),
    returns: ret,
    argPositions: args.map((_, i) => 10 + i * 5),
    pos: 7,
  }
  d.check?.(site)
  const state = d.init?.(site, ctx)
  const n = args.reduce((m, a) => Math.max(m, a.length), 1)
  if (d.vector !== undefined) return d.vector(args, n, ctx, state)
  const w = new VectorWriter(ret, n)
  for (let i = 0; i < n; i++) {
    const s = args.map((a) => getScalar(a, i))
    w.set(i, d.nullStrict !== false && s.includes(null) ? null : d.row!(s, ctx, state))
  }
  return w.finish()
}

/** call() then values(). */
export function run(name: string, args: readonly Vector[], returns?: ColumnType): Scalar[] {
  return values(call(name, args, returns))
}
