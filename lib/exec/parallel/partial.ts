/**
 * Runs one share of a parallel aggregation: a scan of rows [start, end) of shared columns, an
 * optional filter and a (partial) GROUP BY. The same code runs in worker threads and on the
 * main thread for its own share.
 */
import { type Batch, SymbolTable, concatVectors, vectorOf, type Vector } from '../../types/vector.js'
import type { AggregateNode, BoundExpr, FilterNode, OutputColumn, PlanNode, SampleByNode, ScanNode } from '../../plan/plan-node.js'
import type { Table } from '../../storage/table.js'
import { memorySnapshotPart } from '../../storage/table-parts.js'
import { ExecContext } from '../context.js'
import { runPlan } from '../operators/runner.js'
import { type WireTask, decodeAggregate, decodeExpr, resolveFunctions } from './wire.js'

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

/** Runs a task; returns the partial groups as one batch (keys, then aggregate results). */
export async function runPartial(task: WireTask, ctx?: ExecContext): Promise<Batch> {
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
  const nodeOutput: OutputColumn[] = [
    ...keys.map((k, i) => (k.kind === 'column' && dicts[k.index] !== undefined ? { name: `k${i}`, type: k.type, dict: dicts[k.index]! } : { name: `k${i}`, type: k.type })),
    ...aggregates.map((a, i) => ({ name: `a${i}`, type: a.site.returns })),
  ]
  const s = task.sample
  const text = (v: string | undefined): BoundExpr | undefined => (v === undefined ? undefined : { kind: 'const', type: 'STRING', value: v })
  const node: AggregateNode | SampleByNode = s === undefined
    ? { kind: 'aggregate', input, keys, aggregates, timestampIndex: -1, output: nodeOutput }
    : {
        kind: 'sample_by', input, keys, aggregates, output: nodeOutput, timestampIndex: s.bucketKey,
        timestampColumn: s.timestampColumn, bucketKey: s.bucketKey, stride: s.stride, unit: s.unit as SampleByNode['unit'],
        align: { kind: 'calendar', timeZone: text(s.timeZone), offset: text(s.offset) }, from: undefined, to: undefined, fill: undefined,
      }
  const parts: Batch[] = []
  for await (const b of runPlan(node, context)) parts.push(b)
  if (parts.length === 1) return parts[0]!
  let length = 0
  for (const p of parts) length += p.length
  return { length, vectors: node.output.map((c, i) => concatVectors(c.type, parts.map((p) => p.vectors[i]!))) }
}
