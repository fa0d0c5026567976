/**
 * Runs one share of a parallel aggregation: a scan of rows [start, end) of shared columns, an
 * optional filter and the aggregation into partial groups — the group keys and the aggregate
 * kernels' state, which the final step merges (merge.ts) — or, for a parallel filter, just the
 * row numbers the filter keeps. The same code runs in worker threads
 * and on the statement's thread for its own share.
 */
import { BATCH_SIZE, SymbolTable, concatVectors, gather, materialize, vectorOf, type Batch, type Vector } from '../../types/vector.js'
import { internalError } from '../../errors.js'
import type { AggregateKernel, FunctionDef } from '../../functions/registry-types.js'
import type { BoundExpr, FilterNode, OutputColumn, PlanNode, SampleByNode, ScanNode } from '../../plan/plan-node.js'
import type { Table } from '../../storage/table.js'
import { memorySnapshotPart } from '../../storage/table-parts.js'
import { ExecContext } from '../context.js'
import { runPlan } from '../operators/runner.js'
import { filterSelector } from '../operators/basic.js'
import { accumulateGroups } from '../operators/hash-aggregate.js'
import { accumulateSamples, sampleGroupKeys } from '../operators/sample-by.js'
import { type WireColumn, type WireSelected, type WireTask, decodeAggregate, decodeExpr, resolveFunctions } from './wire.js'

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

/** The dictionaries rebuilt for a task's columns: the pieces of one task share them (and key ids remap per dictionary). */
const rebuilt = new WeakMap<readonly WireColumn[], (SymbolTable | undefined)[]>()

/** Rebuilds the dictionary of each SYMBOL column from its values (once per task's columns). */
function dictionaries(task: WireTask): (SymbolTable | undefined)[] {
  let dicts = rebuilt.get(task.columns)
  if (dicts === undefined) { dicts = rebuildDictionaries(task); rebuilt.set(task.columns, dicts) }
  return dicts
}

function rebuildDictionaries(task: WireTask): (SymbolTable | undefined)[] {
  return task.columns.map((c) => {
    if (c.dict === undefined) return undefined
    const d = new SymbolTable()
    for (const s of c.dict) d.intern(s)
    return d
  })
}

/** The task's context (the caller's on this thread), its function table and its input: the shared rows under its filter. */
function taskInput(task: WireTask, ctx: ExecContext | undefined): { context: ExecContext; fns: FunctionDef[]; input: PlanNode; table: Table } {
  const fns = resolveFunctions(task.functions)
  const flag = task.cancel
  const signal = flag === undefined ? undefined : { get cancelled() { return Atomics.load(flag, 0) !== 0 } }
  const context = ctx ?? new ExecContext(task.now, () => Date.now() * 1000, task.user, { tableNames: () => [], table: () => undefined, partitions: () => undefined }, '', task.params, signal)
  if (ctx === undefined && task.deadline !== undefined) context.deadline = task.deadline
  if (ctx === undefined) context.nowSub = task.nowSub ?? 0
  if (ctx === undefined && task.startedAt !== undefined) context.startedAt = task.startedAt
  return { context, fns, ...rowsInput(task, fns) }
}

/** The plan of a task's rows [start, end): the shared columns' scan under the task's filter. */
function rowsInput(task: WireTask, fns: FunctionDef[]): { input: PlanNode; table: Table } {
  const dicts = dictionaries(task)
  const table = sharedTable(task, dicts)
  const output: OutputColumn[] = task.columns.map((c, i) => (dicts[i] === undefined ? { name: `c${i}`, type: c.type } : { name: `c${i}`, type: c.type, dict: dicts[i]! }))
  const scan: ScanNode = { kind: 'scan', table, columns: task.columns.map((_, i) => i), output, timestampIndex: -1 }
  let input: PlanNode = scan
  if (task.filter !== undefined) {
    const filter: FilterNode = { kind: 'filter', input, predicate: decodeExpr(task.filter, fns), output, timestampIndex: -1 }
    input = filter
  }
  return { input, table }
}

/**
 * Runs a `select` task: the rows (of the part) in [start, end) its filter keeps, ascending, and
 * the kept values of its `gather` columns.
 */
export async function runSelect(task: WireTask, ctx?: ExecContext): Promise<WireSelected> {
  if (task.filter === undefined) throw internalError('a select share without a filter')
  const { context, fns, table } = taskInput({ ...task, filter: undefined }, ctx)
  const keep = filterSelector(decodeExpr(task.filter, fns), context)
  const gathered = task.gather ?? []
  const total = task.end - task.start
  const rows = new Int32Array(total)
  const parts: Vector[][] = gathered.map(() => [])
  let count = 0
  const k = task.columns.length
  const reader = table.snapshot().parts[0]!.open(task.columns.map((_, i) => i))
  for (let from = 0; from < total; from += BATCH_SIZE) {
    const to = Math.min(from + BATCH_SIZE, total)
    const vectors: Vector[] = new Array(k)
    for (let c = 0; c < k; c++) vectors[c] = reader.view(c, from, to)
    const { sel, count: n } = keep({ length: to - from, vectors })
    const base = task.start + from
    for (let i = 0; i < n; i++) rows[count++] = base + sel[i]!
    if (n > 0) gathered.forEach((c, j) => parts[j]!.push(gather(materialize(vectors[c]!), sel, n)))
    await context.maybeYield()
  }
  const columns = gathered.map((c, j) => concatVectors(task.columns[c]!.type, parts[j]!).data as ArrayBufferView)
  return { rows: rows.slice(0, count), columns }
}

/**
 * The rows [from, to) of a task's shared columns as batches of views (no copy), made
 * synchronously: without a filter a share reads them so, not through a scan operator's async
 * generator, which costs a promise and generator resumptions per batch (and, on a worker whose
 * code V8 optimized late or deoptimized, tens of µs of a ~60 µs batch).
 */
function* sharedBatches(task: WireTask, from: number, to: number): Generator<Batch> {
  const dicts = dictionaries(task)
  const columns = task.columns
  const k = columns.length
  for (let start = from; start < to; start += BATCH_SIZE) {
    const end = Math.min(start + BATCH_SIZE, to)
    const vectors: Vector[] = new Array(k)
    for (let c = 0; c < k; c++) vectors[c] = vectorOf(columns[c]!.type, (columns[c]!.data as Float64Array).subarray(start, end), end - start, dicts[c])
    yield { length: end - start, vectors }
  }
}

/** Runs a task; returns its partial groups. */
export async function runPartial(task: WireTask, ctx?: ExecContext): Promise<Partial> {
  const { context, fns, input } = taskInput(task, ctx)
  const keys = task.keys.map((k) => decodeExpr(k, fns))
  const aggregates = task.aggregates.map((a) => decodeAggregate(a, fns))
  const s = task.sample
  if (s === undefined) {
    const rows = task.filter === undefined ? sharedBatches(task, task.start, task.end) : runPlan(input, context)
    const state = await accumulateGroups(keys, aggregates, rows, context)
    state.memory.close() // the caller accounts for what it keeps
    return { count: state.count, keys: keys.map((k, i) => state.index!.vector(i, { type: k.type })), kernels: state.kernels }
  }
  const text = (v: string | undefined): BoundExpr | undefined => (v === undefined ? undefined : { kind: 'const', type: 'STRING', value: v })
  const nodeOutput: OutputColumn[] = [...keys.map((k, i) => ({ name: `k${i}`, type: k.type })), ...aggregates.map((a, i) => ({ name: `a${i}`, type: a.site.returns }))]
  const node: SampleByNode = {
    kind: 'sample_by', input, keys, aggregates, output: nodeOutput, timestampIndex: s.bucketKey,
    timestampColumn: s.timestampColumn, bucketKey: s.bucketKey, stride: s.stride, unit: s.unit as SampleByNode['unit'],
    align: s.anchor === undefined ? { kind: 'calendar', timeZone: text(s.timeZone), offset: text(s.offset) } : { kind: 'first observation' },
    from: undefined, to: undefined, fill: undefined,
  }
  const state = await accumulateSamples(node, runPlan(input, context), context, s.anchor)
  state.memory.close()
  return { count: state.groups.count, keys: sampleGroupKeys(node, state), kernels: state.kernels }
}

/**
 * Runs a GROUP BY task over every piece this thread takes (`take`: the next piece's ordinal, or
 * -1 when none is left), all folded into one partial: for an order-free aggregation (pieces.ts
 * {@link streamedShare}) the pieces' rows need not be contiguous nor in order. Returns the
 * ordinals taken and the partial (undefined when none was taken).
 */
export async function runStreamed(task: WireTask, take: () => number, ctx?: ExecContext): Promise<{ ordinals: number[]; partial: Partial | undefined }> {
  const ordinals: number[] = []
  const firstPiece = take()
  if (firstPiece < 0) return { ordinals, partial: undefined }
  const bounds = task.pieces!.bounds
  const { context, fns } = taskInput({ ...task, start: 0, end: 0 }, ctx)
  const keys = task.keys.map((k) => decodeExpr(k, fns))
  const aggregates = task.aggregates.map((a) => decodeAggregate(a, fns))
  async function* filtered(): AsyncGenerator<Batch> {
    for (let i = firstPiece; i >= 0; i = take()) {
      ordinals.push(i)
      yield* runPlan(rowsInput({ ...task, start: bounds[2 * i]!, end: bounds[2 * i + 1]! }, fns).input, context)
    }
  }
  function* plain(): Generator<Batch> {
    for (let i = firstPiece; i >= 0; i = take()) {
      ordinals.push(i)
      yield* sharedBatches(task, bounds[2 * i]!, bounds[2 * i + 1]!)
    }
  }
  const state = await accumulateGroups(keys, aggregates, task.filter === undefined ? plain() : filtered(), context)
  state.memory.close() // the caller accounts for what it keeps
  return { ordinals, partial: { count: state.count, keys: keys.map((k, i) => state.index!.vector(i, { type: k.type })), kernels: state.kernels } }
}
