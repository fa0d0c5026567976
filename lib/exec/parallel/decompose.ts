/**
 * The algebra of splitting aggregates across threads: which aggregates decompose into partials
 * and how partials merge (count -> sum of counts, avg -> sum / count, min -> min of mins), plus
 * the small plan pieces the merge steps use.
 */
import { internalError } from '../../errors.js'
import type { ColumnType } from '../../types/column-type.js'
import { type Batch, type Vector, sliceVector } from '../../types/vector.js'
import type { AggregateFunctionDef, CallSite, ScalarFunctionDef } from '../../functions/registry-types.js'
import type { BoundAggregate, BoundExpr, OutputColumn, ScanNode } from '../../plan/plan-node.js'
import { resolveOverload } from '../../plan/resolve-function.js'
import { functionsNamed } from '../../functions/registry.js'
import { castTo } from '../../plan/bind-expr.js'
import type { Table } from '../../storage/table.js'
import { memorySnapshotPart } from '../../storage/table-parts.js'

/** Tables smaller than this aggregate on one thread (the hand-off costs more than it saves). */
export const PARALLEL_MIN_ROWS = 1_000_000

/** Counters for tests and diagnostics. */
export const PARALLEL_STATS = { runs: 0 }

/** How each aggregate splits into partials and how partials merge. */
export const DECOMPOSE: Record<string, { partial: string[]; merge: string[] }> = {
  count: { partial: ['count'], merge: ['sum'] },
  sum: { partial: ['sum'], merge: ['sum'] },
  ksum: { partial: ['ksum'], merge: ['ksum'] },
  nsum: { partial: ['nsum'], merge: ['nsum'] },
  min: { partial: ['min'], merge: ['min'] },
  max: { partial: ['max'], merge: ['max'] },
  avg: { partial: ['sum', 'count'], merge: ['sum', 'sum'] },
}

function aggregateDef(name: string): AggregateFunctionDef {
  const d = functionsNamed(name).find((x) => x.kind === 'aggregate')
  if (d === undefined) throw internalError(`aggregate ${name} is missing`)
  return d as AggregateFunctionDef
}

/** Binds aggregate `name` over `args` (exact-typed casts inserted). */
export function aggregateOf(name: string, args: BoundExpr[]): BoundAggregate {
  const def = aggregateDef(name)
  const res = resolveOverload([def], args.map((a) => a.type), args.map(() => false))
  if (res === undefined) throw internalError(`no overload of ${name}(${args.map((a) => a.type).join(',')})`)
  const cast = args.map((a, i) => {
    const d = res.declared[i]!
    return d === 'ANY' || d === 'NUMERIC' || d === 'TEXT' || d === 'TEMPORAL' || d === 'ARRAY' ? a : castTo(a, d, -1, false)
  })
  const argTypes = cast.map((a) => a.type)
  const returns = typeof res.signature.returns === 'function' ? res.signature.returns(argTypes) : res.signature.returns
  const site: CallSite = { argTypes, constants: cast.map(() => undefined), returns, argPositions: cast.map(() => -1), pos: -1 }
  return { def, site, args: cast }
}

/** Adds the input column indexes `e` reads to `out`. */
export function columnsUsed(e: BoundExpr, out: Set<number>): void {
  switch (e.kind) {
    case 'column': out.add(e.index); return
    case 'call': e.args.forEach((a) => columnsUsed(a, out)); return
    case 'cast': case 'isnull': case 'in': case 'in_intervals': case 'in_query': columnsUsed(e.expr, out); return
    case 'case': e.whens.forEach((w) => { columnsUsed(w.when, out); columnsUsed(w.then, out) }); columnsUsed(e.else, out); return
    default: return
  }
}

/** A scan node over an in-memory batch (the merge step's input). */
export function batchNode(b: Batch, output: readonly OutputColumn[]): ScanNode {
  const columns = b.vectors.map((v) => ({ view: (s: number, e: number): Vector => sliceVector(v, s, e) }))
  const table = { snapshot: () => ({ rowCount: b.length, parts: [memorySnapshotPart(columns, b.length, 0, -1)] }) } as unknown as Table
  return { kind: 'scan', table, columns: output.map((_, i) => i), output, timestampIndex: -1 }
}

/** DOUBLE division of two bound expressions (the final step of a split avg). */
export function divide(a: BoundExpr, b: BoundExpr): BoundExpr {
  const defs = functionsNamed('/').filter((d) => d.kind === 'scalar') as ScalarFunctionDef[]
  const types: ColumnType[] = ['DOUBLE', 'DOUBLE']
  const res = resolveOverload(defs, types, [false, false])
  if (res === undefined) throw internalError('operator / is missing')
  const args = [castTo(a, 'DOUBLE', -1, true), castTo(b, 'DOUBLE', -1, true)]
  return { kind: 'call', type: 'DOUBLE', def: res.def as ScalarFunctionDef, site: { argTypes: types, constants: [undefined, undefined], returns: 'DOUBLE', argPositions: [-1, -1], pos: -1 }, args }
}
