/**
 * `sum(x)`: sum(int|short|byte) → LONG and sum(long) → LONG (exact, wrapping like Java's long,
 * no overflow check), sum(float) → FLOAT, sum(double) → DOUBLE; nulls are skipped and a group
 * with no non-null value gives null. `avg(x)` → DOUBLE.
 */
import type { FunctionDef } from '../registry-types.js'
import { aggregate } from './agg-util.js'
import { DoubleSumKernel } from './double-sum.js'
import { LongSumKernel } from './long-sum.js'

const sum = aggregate({
  name: 'sum',
  signatures: [
    { args: ['INT'], returns: 'LONG' },
    { args: ['LONG'], returns: 'LONG' },
    { args: ['FLOAT'], returns: 'FLOAT' },
    { args: ['DOUBLE'], returns: 'DOUBLE' },
  ],
  description: 'Sum of the non-null values; integers sum to LONG (exact, wrapping on overflow), FLOAT to FLOAT, DOUBLE to DOUBLE.',
  example: 'SELECT sum(x) FROM long_sequence(10)',
  create: (site) => {
    const t = site.argTypes[0]
    if (t === 'FLOAT') return new DoubleSumKernel('sum', 'FLOAT')
    if (t === 'DOUBLE') return new DoubleSumKernel('sum', 'DOUBLE')
    return new LongSumKernel()
  },
})

const avg = aggregate({
  name: 'avg',
  signatures: [{ args: ['DOUBLE'], returns: 'DOUBLE' }],
  description: 'Arithmetic mean of the non-null values, as DOUBLE.',
  example: 'SELECT avg(x) FROM long_sequence(10)',
  create: () => new DoubleSumKernel('avg'),
})

/** sum and avg. */
export const SUM_FUNCTIONS: readonly FunctionDef[] = [sum, avg]
