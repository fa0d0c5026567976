/**
 * DECIMAL kernels of the aggregates (joined to `sum.ts` and `min-max.ts` by one signature and one
 * call each): `sum` / `avg` (decimal-sum-kernel.ts), `min` / `max` (decimal-min-max-kernel.ts for
 * p <= 18, compared without a BigInt per row; the bigint kernel below for wider decimals, held as
 * text). `first`/`last` over p <= 18 take decimal-first-last-kernel.ts (chosen in first-last.ts).
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { type DecimalType, isDecimal, isNarrowDecimal } from '../../types/decimal.js'
import type { Vector } from '../../types/vector.js'
import type { AggregateKernel, CallSite } from '../registry-types.js'
import { DecimalWriter, unscaledAt } from '../decimal-vectors.js'
import { arg, growArray, sameGroup } from './agg-util.js'
import { DecimalSumKernel } from './decimal-sum-kernel.js'
import { DecimalMinMaxKernel } from './decimal-min-max-kernel.js'

/** min / max of wide decimals (p > 18), compared as bigints. */
class WideMinMaxKernel implements AggregateKernel {
  best: (bigint | null)[] = []
  constructor(readonly isMax: boolean, readonly type: DecimalType) {}
  resize(count: number): void { growArray(this.best, count, null) }
  update(groups: Int32Array, args: readonly Vector[], length: number): void {
    const v = arg(args, 0)
    for (let i = 0; i < length; i++) {
      const u = unscaledAt(v, i)
      if (u === null) continue
      const g = groups[i]!
      const b = this.best[g]
      if (b === null || b === undefined || (this.isMax ? u > b : u < b)) this.best[g] = u
    }
  }
  updateOne(group: number, args: readonly Vector[], length: number): void {
    this.resize(group + 1)
    this.update(sameGroup(group, length), args, length)
  }
  merge(other: AggregateKernel, from: Int32Array, to: Int32Array, count: number): void {
    const o = other as WideMinMaxKernel
    for (let i = 0; i < count; i++) {
      const u = o.best[from[i]!] ?? null
      if (u === null) continue
      const g = to[i]!
      const b = this.best[g]
      if (b === null || b === undefined || (this.isMax ? u > b : u < b)) this.best[g] = u
    }
  }
  result(count: number): Vector {
    const w = new DecimalWriter(this.type, count)
    for (let g = 0; g < count; g++) w.set(g, this.best[g] ?? null)
    return w.finish()
  }
}

/**
 * The DECIMAL kernel of `sum`, `avg`, `min` or `max` for a call site whose result is a DECIMAL;
 * undefined otherwise (the caller's own kernel applies).
 */
export function decimalAggregateKernel(name: 'sum' | 'avg' | 'min' | 'max', site: CallSite): AggregateKernel | undefined {
  const t = site.returns
  if (!isDecimal(t)) return undefined
  switch (name) {
    case 'sum': return new DecimalSumKernel(false, t, site.pos)
    case 'avg': return new DecimalSumKernel(true, t, site.pos)
    default: return isNarrowDecimal(t) ? new DecimalMinMaxKernel(name === 'max', t) : new WideMinMaxKernel(name === 'max', t)
  }
}
