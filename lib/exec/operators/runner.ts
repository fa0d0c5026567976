/**
 * Runs a plan node as an async stream of batches, dispatching on the node kind. The table of
 * handlers is exhaustive: a new plan node kind without an operator does not compile.
 */
import type { Batch } from '../../types/vector.js'
import type { PlanNode } from '../../plan/plan-node.js'
import type { ExecContext } from '../context.js'
import { runFilter, runProject, runScan, runTableFunction, runValues } from './basic.js'
import { runAggregate } from './hash-aggregate.js'
import { runSort } from './sort.js'
import { runLimit } from './limit.js'
import { runDistinct, runSetOp } from './set-ops.js'
import { runJoin } from './hash-join.js'
import { runLateralJoin } from './lateral-join.js'
import { runWindowJoin } from './window-join.js'
import { runHorizonJoin } from './horizon-join.js'
import { runLatestOn, runSampleBy, runTimeJoin, runWindow } from './time-series.js'
import { runParallelAggregate } from '../parallel/parallel-aggregate.js'
import { runParallelFilter } from '../parallel/parallel-filter.js'
import { isIndexedFilter, runIndexedFilter } from './indexed-filter.js'

/** Runs a node. */
export type Runner = (node: PlanNode, ctx: ExecContext) => AsyncGenerator<Batch>

type Handlers = { [K in PlanNode['kind']]: (node: Extract<PlanNode, { kind: K }>, ctx: ExecContext, run: Runner) => AsyncGenerator<Batch> }

const HANDLERS: Handlers = {
  scan: (n, ctx) => runScan(n, ctx),
  table_function: (n, ctx) => runTableFunction(n, ctx),
  values: (n, ctx) => runValues(n, ctx),
  filter: (n, ctx, run) => (isIndexedFilter(n) ? runIndexedFilter(n, ctx) : runFilter(n, ctx, run)),
  project: runProject,
  aggregate: runAggregate,
  sort: runSort,
  limit: runLimit,
  distinct: runDistinct,
  setop: runSetOp,
  join: runJoin,
  sample_by: runSampleBy,
  latest_on: runLatestOn,
  time_join: runTimeJoin,
  window: runWindow,
  lateral_join: runLateralJoin,
  window_join: runWindowJoin,
  horizon_join: runHorizonJoin,
  parallel_aggregate: runParallelAggregate,
  parallel_filter: runParallelFilter,
}

/** Runs `node` and its inputs. */
export const runPlan: Runner = (node, ctx) => (HANDLERS[node.kind] as (n: PlanNode, c: ExecContext, r: Runner) => AsyncGenerator<Batch>)(node, ctx, runPlan)
