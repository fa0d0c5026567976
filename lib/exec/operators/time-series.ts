/**
 * Operators of the time-series extensions (SAMPLE BY, LATEST ON, ASOF/LT/SPLICE JOIN, window
 * functions). Each lives in its own file; this module only routes to them.
 */
import { internalError } from '../../errors.js'
import type { Batch } from '../../types/vector.js'
import type { WindowNode } from '../../plan/plan-node.js'
import type { ExecContext } from '../context.js'
import type { Runner } from './runner.js'

export { runSampleBy } from './sample-by.js'

export { runLatestOn } from './latest-on.js'

export { runTimeJoin } from './time-join.js'

export async function* runWindow(node: WindowNode, ctx: ExecContext, run: Runner): AsyncGenerator<Batch> {
  void node; void ctx; void run
  throw internalError('window operator missing')
}
