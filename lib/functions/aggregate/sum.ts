/**
 * `sum(x)`: sum(int|short|byte) → LONG and sum(long) → LONG (exact, wrapping like Java's long,
 * no overflow check), sum(float) → FLOAT, sum(double) → DOUBLE; nulls are skipped and a group
 * with no non-null value gives null. `avg(x)` → DOUBLE.
 */
import type { FunctionDef } from '../registry-types.js'
import { aggregate } from './agg-util.js'
import { DoubleSumKernel } from './double-sum.js'
import { LongSumKernel } from './long-sum.js'
import { decimalAggregateKernel } from './decimal-aggregates.js'
import { DECIMAL_AVG_SIGNATURE, DECIMAL_SUM_SIGNATURE } from './decimal-signatures.js'

const sum = aggregate({
  name: 'sum',
  signatures: [
    { args: ['INT'], returns: 'LONG' },
    { args: ['LONG'], returns: 'LONG' },
    { args: ['FLOAT'], returns: 'FLOAT' },
    { args: ['DOUBLE'], returns: 'DOUBLE' },
    DECIMAL_SUM_SIGNATURE,
  ],
  description: 'Sum of the non-null values; integers sum to LONG (exact, wrapping on overflow), FLOAT to FLOAT, DOUBLE to DOUBLE.',
  example: 'SELECT sum(x) FROM long_sequence(10)',
  create: (site) => {
    const t = site.argTypes[0]
    const dec = decimalAggregateKernel('sum', site)
    if (dec !== undefined) return dec
    if (t === 'FLOAT') return new DoubleSumKernel('sum', 'FLOAT')
    if (t === 'DOUBLE') return new DoubleSumKernel('sum', 'DOUBLE')
    return new LongSumKernel()
  },
})

const avg = aggregate({
  name: 'avg',
  // INT and LONG read as they are (no DOUBLE copy per batch), summed as the doubles a cast gives
  signatures: [{ args: ['INT'], returns: 'DOUBLE' }, { args: ['LONG'], returns: 'DOUBLE' }, { args: ['DOUBLE'], returns: 'DOUBLE' }, DECIMAL_AVG_SIGNATURE],
  description: 'Arithmetic mean of the non-null values, as DOUBLE (DECIMAL input: DECIMAL of its type).',
  example: 'SELECT avg(x) FROM long_sequence(10)',
  create: (site) => decimalAggregateKernel('avg', site) ??
    new DoubleSumKernel('avg', 'DOUBLE', site.argTypes[0] === 'INT' || site.argTypes[0] === 'LONG'),
})

/** sum and avg. */
export const SUM_FUNCTIONS: readonly FunctionDef[] = [sum, avg]
