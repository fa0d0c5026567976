/**
 * Runs one share of a parallel aggregation: a scan of rows [start, end) of shared columns, an
 * optional filter and the aggregation into partial groups — the group keys and the aggregate
 * kernels' state, which the final step merges (merge.ts). The same code runs in worker threads
 * and on the statement's thread for its own share.
 */
import { SymbolTable, vectorOf, type Vector } from '../../types/vector.js'
import type { AggregateKernel } from '../../functions/registry-types.js'
import type { BoundExpr, FilterNode, OutputColumn, PlanNode, SampleByNode, ScanNode } from '../../plan/plan-node.js'
import type { Table } from '../../storage/table.js'
import { memorySnapshotPart } from '../../storage/table-parts.js'
import { ExecContext } from '../context.js'
import { runPlan } from '../operators/runner.js'
import { accumulateGroups } from '../operators/hash-aggregate.js'
import { accumulateSamples, sampleGroupKeys } from '../operators/sample-by.js'
import { type WireTask, decodeAggregate, decodeExpr, resolveFunctions } from './wire.js'

/** The partial groups of one share: keys by group id (node key order) and the kernels holding their state. */
export interface Partial {
  readonly count: number
  readonly keys: readonly Vector[]
  readonly kernels: readonly AggregateKernel[]
}

/** Column views over shared memory that quack like a table snapshot for the scan operator. */
function sharedTable(task: WireTask, dicts: (SymbolTable | undefined)[]): Table {
  const columns = task.columns.map((c, i) => ({
    view: (start: number, end: number): Vector => vectorOf(c.type, (c.data as Float64Array).subarray(task.start + start, task.start + end), end - start, dicts[i]),
  }))
  const rowCount = task.end - task.start
  return { snapshot: () => ({ rowCount, parts: [memorySnapshotPart(columns, rowCount, 0, -1)] }) } as unknown as Table
}

/** Rebuilds the dictionary of each SYMBOL column from its values. */
function dictionaries(task: WireTask): (SymbolTable | undefined)[] {
  return task.columns.map((c) => {
    if (c.dict === undefined) return undefined
    const d = new SymbolTable()
    for (const s of c.dict) d.intern(s)
    return d
  })
}

/** Runs a task; returns its partial groups. */
export async function runPartial(task: WireTask, ctx?: ExecContext): Promise<Partial> {
  const fns = resolveFunctions(task.functions)
  const dicts = dictionaries(task)
  const flag = task.cancel
  const signal = flag === undefined ? undefined : { get cancelled() { return Atomics.load(flag, 0) !== 0 } }
  const context = ctx ?? new ExecContext(task.now, () => Date.now() * 1000, task.user, { tableNames: () => [], table: () => undefined, partitions: () => undefined }, '', task.params, signal)
  if (ctx === undefined && task.deadline !== undefined) context.deadline = task.deadline
  const output: OutputColumn[] = task.columns.map((c, i) => (dicts[i] === undefined ? { name: `c${i}`, type: c.type } : { name: `c${i}`, type: c.type, dict: dicts[i]! }))
  const scan: ScanNode = { kind: 'scan', table: sharedTable(task, dicts), columns: task.columns.map((_, i) => i), output, timestampIndex: -1 }
  let input: PlanNode = scan
  if (task.filter !== undefined) {
    const filter: FilterNode = { kind: 'filter', input, predicate: decodeExpr(task.filter, fns), output, timestampIndex: -1 }
    input = filter
  }
  const keys = task.keys.map((k) => decodeExpr(k, fns))
  const aggregates = task.aggregates.map((a) => decodeAggregate(a, fns))
  const s = task.sample
  if (s === undefined) {
    const state = await accumulateGroups(keys, aggregates, runPlan(input, context), context)
    state.memory.close() // the caller accounts for what it keeps
    return { count: state.count, keys: keys.map((k, i) => state.index!.vector(i, { type: k.type })), kernels: state.kernels }
  }
  const text = (v: string | undefined): BoundExpr | undefined => (v === undefined ? undefined : { kind: 'const', type: 'STRING', value: v })
  const nodeOutput: OutputColumn[] = [...keys.map((k, i) => ({ name: `k${i}`, type: k.type })), ...aggregates.map((a, i) => ({ name: `a${i}`, type: a.site.returns }))]
  const node: SampleByNode = {
    kind: 'sample_by', input, keys, aggregates, output: nodeOutput, timestampIndex: s.bucketKey,
    timestampColumn: s.timestampColumn, bucketKey: s.bucketKey, stride: s.stride, unit: s.unit as SampleByNode['unit'],
    align: { kind: 'calendar', timeZone: text(s.timeZone), offset: text(s.offset) }, from: undefined, to: undefined, fill: undefined,
  }
  const state = await accumulateSamples(node, runPlan(input, context), context)
  state.memory.close()
  return { count: state.groups.count, keys: sampleGroupKeys(node, state), kernels: state.kernels }
}
