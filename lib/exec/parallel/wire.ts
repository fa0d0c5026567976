/**
 * The wire form of a parallel aggregation task: plain, structured-cloneable data that a worker
 * thread turns back into plan nodes. Function definitions travel by name and kind; column memory
 * travels as SharedArrayBuffer-backed typed arrays (no copy); partial groups come back as key
 * vectors and the aggregate kernels' state.
 */
import { internalError } from '../../errors.js'
import type { ColumnType } from '../../types/column-type.js'
import type { Scalar } from '../../types/vector.js'
import type { AggregateFunctionDef, CallSite, FunctionDef, ScalarFunctionDef } from '../../functions/registry-types.js'
import type { BoundExpr } from '../../plan/plan-node.js'
import { functionsNamed } from '../../functions/registry.js'
import { INTERNAL_FUNCTIONS } from '../../functions/scalar/interval-fns.js'
import { inValues } from '../evaluate.js'
import type { WireBatch } from './batch-wire.js'

/** A bound expression without function objects. */
export type WireExpr =
  | { readonly kind: 'column'; readonly type: ColumnType; readonly index: number }
  | { readonly kind: 'const'; readonly type: ColumnType; readonly value: Scalar }
  | { readonly kind: 'call'; readonly type: ColumnType; readonly fn: number; readonly site: CallSite; readonly args: readonly WireExpr[] }
  | { readonly kind: 'cast'; readonly type: ColumnType; readonly expr: WireExpr; readonly pos: number }
  | { readonly kind: 'case'; readonly type: ColumnType; readonly whens: readonly { readonly when: WireExpr; readonly then: WireExpr }[]; readonly else: WireExpr }
  | { readonly kind: 'in'; readonly type: 'BOOLEAN'; readonly expr: WireExpr; readonly values: readonly Scalar[]; readonly not: boolean }
  | { readonly kind: 'in_intervals'; readonly type: 'BOOLEAN'; readonly expr: WireExpr; readonly intervals: Float64Array; readonly not: boolean; readonly nsIntervals?: Float64Array }
  | { readonly kind: 'isnull'; readonly type: 'BOOLEAN'; readonly expr: WireExpr; readonly not: boolean }

/** A column shared with the worker. */
export interface WireColumn {
  readonly type: ColumnType
  /** the column's typed array (on a SharedArrayBuffer) */
  readonly data: ArrayBufferView
  /** symbol dictionary values, for SYMBOL columns */
  readonly dict?: readonly string[]
}

/** What a share hands back: its groups' keys and its kernels' state (`kernelState`). */
export interface WirePartial {
  readonly count: number
  readonly keys: WireBatch
  readonly states: readonly object[]
}

/**
 * What a worker hands back for a task with `pieces`: the ordinals of the pieces it took and each
 * one's partial groups (a streamed task: one partial for all of them, none when it took none).
 */
export interface WirePieces {
  readonly ordinals: readonly number[]
  readonly partials: readonly WirePartial[]
}

/** What a `select` share hands back: the part rows its filter kept (ascending) and, per `gather` column, their values. */
export interface WireSelected {
  readonly rows: Int32Array
  readonly columns: readonly ArrayBufferView[]
}

/** One worker's share of an aggregation. */
export interface WireTask {
  readonly columns: readonly WireColumn[]
  readonly start: number
  readonly end: number
  readonly filter?: WireExpr
  readonly keys: readonly WireExpr[]
  readonly aggregates: readonly { readonly fn: number; readonly site: CallSite; readonly args: readonly WireExpr[] }[]
  /**
   * the (name, kind) of every function the task uses, indexed by `fn`; `internal`: one of the
   * definitions the binder uses that are not built-ins (`INTERNAL_FUNCTIONS`)
   */
  readonly functions: readonly { readonly name: string; readonly kind: FunctionDef['kind']; readonly internal?: boolean }[]
  readonly params: readonly Scalar[]
  readonly now: number
  /** nanoseconds of the statement's start past `now` (`now_ns()`) */
  readonly nowSub?: number
  /** when the engine's main thread started (`pg_postmaster_start_time()`) */
  readonly startedAt?: number
  readonly user: string
  /** the statement's deadline (ms since the epoch, Infinity for none): a share past it ends with 57014 */
  readonly deadline?: number
  /** one Int32 on shared memory that the main thread sets to 1 when the statement is cancelled */
  readonly cancel?: Int32Array
  /**
   * when set, the task takes pieces of rows on demand (pieces.ts) instead of [start, end):
   * `bounds` holds each piece's [start, end) pair, `next` (on shared memory) the next piece to take;
   * `stream`: every piece a thread takes folds into one partial (an order-free aggregation)
   */
  readonly pieces?: { readonly bounds: Int32Array; readonly next: Int32Array; readonly stream?: boolean }
  /** when set, the share is a SAMPLE BY (no FILL, no FROM/TO) instead of a GROUP BY */
  readonly sample?: WireSample
  /** when true, the share only filters: it answers the rows (of the part) `filter` keeps ({@link WireSelected}) */
  readonly select?: boolean
  /** for a `select` share: the columns (task column indexes, fixed-width ones) whose kept values it gathers */
  readonly gather?: readonly number[]
}

/** The SAMPLE BY parameters a worker needs (constants already evaluated). */
export interface WireSample {
  /** aligned to the first observation: its timestamp (the whole input's first row); else calendar alignment */
  readonly anchor?: number
  readonly timestampColumn: number
  readonly bucketKey: number
  readonly stride: number
  readonly unit: string
  readonly timeZone: string | undefined
  readonly offset: string | undefined
}

/**
 * Encodes expressions, collecting the functions they use. The physical planner took only
 * expressions that travel (plan/physical/shippable.ts); anything else is an invariant failure.
 */
export class WireEncoder {
  readonly functions: { name: string; kind: FunctionDef['kind']; internal?: boolean }[] = []
  private readonly index = new Map<FunctionDef, number>()

  fn(def: FunctionDef): number {
    let i = this.index.get(def)
    if (i === undefined) {
      i = this.functions.length
      this.functions.push(INTERNAL_FUNCTIONS.includes(def as ScalarFunctionDef) ? { name: def.name, kind: def.kind, internal: true } : { name: def.name, kind: def.kind })
      this.index.set(def, i)
    }
    return i
  }

  expr(e: BoundExpr): WireExpr {
    switch (e.kind) {
      case 'column': return { kind: 'column', type: e.type, index: e.index }
      case 'const': return e
      case 'call': return { kind: 'call', type: e.type, fn: this.fn(e.def), site: e.site, args: this.all(e.args) }
      case 'cast': return { kind: 'cast', type: e.type, expr: this.expr(e.expr), pos: e.pos }
      case 'case': return { kind: 'case', type: e.type, whens: e.whens.map((w) => ({ when: this.expr(w.when), then: this.expr(w.then) })), else: this.expr(e.else) }
      case 'in': return { kind: 'in', type: e.type, expr: this.expr(e.expr), values: inValues(e.values), not: e.not }
      // a TIMESTAMP_NS column's intervals travel to the nanosecond (exec/ns-intervals.ts)
      case 'in_intervals': return { kind: 'in_intervals', type: e.type, expr: this.expr(e.expr), intervals: e.intervals, not: e.not, ...(e.nsIntervals === undefined ? {} : { nsIntervals: e.nsIntervals }) }
      case 'isnull': return { kind: 'isnull', type: e.type, expr: this.expr(e.expr), not: e.not }
      case 'param': case 'subquery': case 'exists': case 'in_query': throw internalError(`a ${e.kind} cannot run on a worker thread`)
    }
  }

  all(es: readonly BoundExpr[]): WireExpr[] {
    return es.map((e) => this.expr(e))
  }
}

/** Resolves the task's function table back to definitions. */
export function resolveFunctions(fns: WireTask['functions']): FunctionDef[] {
  return fns.map((f) => {
    const def = f.internal === true ? INTERNAL_FUNCTIONS.find((d) => d.name === f.name) : functionsNamed(f.name).find((d) => d.kind === f.kind && d.name === f.name)
    if (def === undefined) throw internalError(`worker: unknown function ${f.name}`)
    return def
  })
}

/** Decodes an expression. */
export function decodeExpr(e: WireExpr, fns: readonly FunctionDef[]): BoundExpr {
  switch (e.kind) {
    case 'column': case 'const': return e
    case 'call': return { kind: 'call', type: e.type, def: fns[e.fn] as ScalarFunctionDef, site: e.site, args: e.args.map((a) => decodeExpr(a, fns)) }
    case 'cast': return { ...e, expr: decodeExpr(e.expr, fns) }
    case 'case': return { ...e, whens: e.whens.map((w) => ({ when: decodeExpr(w.when, fns), then: decodeExpr(w.then, fns) })), else: decodeExpr(e.else, fns) }
    case 'in': case 'in_intervals': case 'isnull': return { ...e, expr: decodeExpr(e.expr, fns) } as BoundExpr
  }
}

/** Decodes an aggregate. */
export function decodeAggregate(a: WireTask['aggregates'][number], fns: readonly FunctionDef[]) {
  return { def: fns[a.fn] as AggregateFunctionDef, site: a.site, args: a.args.map((x) => decodeExpr(x, fns)) }
}
