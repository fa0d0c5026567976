/**
 * Whether a GROUP BY / SAMPLE BY reads or computes DECIMALs: such plans stay on one thread until
 * the parallel decomposition knows DECIMAL (avg's sum/count split would change its result type).
 */
import type { BoundAggregate, BoundExpr, ScanNode } from '../../plan/plan-node.js'
import { isDecimal } from '../../types/decimal.js'

/** True when a used scan column, an aggregate argument or an aggregate result is a DECIMAL. */
export function usesDecimal(scan: ScanNode, used: ReadonlySet<number>, aggs: readonly { readonly args: readonly BoundExpr[]; readonly site: BoundAggregate['site'] }[]): boolean {
  for (const i of used) if (isDecimal(scan.output[i]!.type)) return true
  return aggs.some((a) => isDecimal(a.site.returns) || a.args.some((x) => isDecimal(x.type)))
}
