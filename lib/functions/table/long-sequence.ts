/**
 * `long_sequence(n [, seedLo, seedHi])`: one LONG column `x` with 1..n, in batches of
 * BATCH_SIZE. With seeds, the statement's random generator (`ctx.rnd`) is re-seeded when the
 * table function is opened — before any row is produced, and before the engine initializes the
 * projection's rnd functions (which may draw at init, e.g. rnd_symbol's dictionary).
 */
import { SqlError, SqlState } from '../../errors.js'
import { BATCH_SIZE, type Batch } from '../../types/vector.js'
import type { CallSite, FunctionDef } from '../registry-types.js'

/** A constant integer argument of a table function (number, or bigint kept for seeds). */
export function tableArg(site: CallSite, i: number): number | bigint {
  const v = site.constants[i]
  if (v === undefined) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'constant expected', site.argPositions[i] ?? site.pos)
  if (v === null) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'argument must not be null', site.argPositions[i] ?? site.pos)
  if (typeof v === 'bigint' || typeof v === 'number') return v
  throw new SqlError(SqlState.DATATYPE_MISMATCH, 'numeric constant expected', site.argPositions[i] ?? site.pos)
}

function* sequence(n: number): Generator<Batch> {
  for (let start = 0; start < n; start += BATCH_SIZE) {
    const len = Math.min(BATCH_SIZE, n - start)
    const data = new Float64Array(len)
    for (let i = 0; i < len; i++) data[i] = start + i + 1
    yield { length: len, vectors: [{ kind: 'i64', type: 'LONG', length: len, data }] }
  }
}

/** long_sequence. */
export const LONG_SEQUENCE: FunctionDef = {
  kind: 'table',
  name: 'long_sequence',
  family: 'table',
  signatures: [
    { args: ['LONG'], constant: [0], returns: 'LONG' },
    { args: ['LONG', 'LONG', 'LONG'], constant: [0, 1, 2], returns: 'LONG' },
  ],
  description: 'Rows 1..n in one LONG column x; with seedLo and seedHi, re-seeds the random generator used by rnd_* functions.',
  example: 'SELECT x, rnd_double() FROM long_sequence(2, 128349234, 4327897)',
  columns: () => [{ name: 'x', type: 'LONG' }],
  timestampIndex: () => -1,
  open: (site, ctx) => {
    const n = Math.max(0, Number(tableArg(site, 0)))
    if (site.argTypes.length === 3) ctx.rnd.reset(tableArg(site, 1), tableArg(site, 2))
    return { [Symbol.iterator]: () => sequence(n) }
  },
}
