/**
 * Parameter type inference for a Parse that leaves `$n` types unspecified (OID 0): the engine's
 * own binder says what type each parameter's use needs (`Database.describe`). Anything it cannot
 * tell stays unknown, which Describe reports as varchar (QuestDB's answer).
 */
import type { RunContext } from './prepared.js'
import type { ColumnType } from '../../lib/index.js'
import { Oid, PG_TYPES } from './pg-types.js'
import { type Statement, inListParams } from './statement-info.js'

/** The OID of engine type `type` on the wire (as in RowDescription; DATE is a timestamp there). */
export function oidOfEngineType(type: string): number {
  const t = type.toUpperCase()
  // DECIMAL(p,s) is numeric, so asyncpg and postgres.js encode a Decimal parameter as one
  return PG_TYPES[t as ColumnType]?.oid ?? (t.startsWith('DECIMAL(') ? Oid.NUMERIC : Oid.VARCHAR)
}

/**
 * Parameter OIDs of `stmt` (index 0 for `$1`) as the engine infers them from their use
 * (`Database.describe`: a parameter compared with a column, inserted into one, given to a
 * function or a LIMIT takes the type that use needs); 0 where nothing says more than text.
 * A statement that does not bind (an unknown table) reports 0s; its error comes at Execute.
 * The lone parameter of an IN over text (`sym IN ($1)`) is reported as text[].
 */
export async function inferParamOids(ctx: RunContext, stmt: Statement, count: number): Promise<number[]> {
  const out = new Array<number>(count).fill(0)
  if (count === 0) return out
  try {
    const d = ctx.db.describe(stmt as Parameters<typeof ctx.db.describe>[0])
    d.params.forEach((t, i) => { if (i < count && t !== 'STRING') out[i] = oidOfEngineType(t) })
    // the whole list of an IN over text is an array (QuestDB says varchar[]; text[] is the one
    // asyncpg decodes without catalog introspection): drivers that encode by the described type
    // (asyncpg, postgres.js) then send a list as an array, and the drivers that encode by value
    // still send a scalar
    for (const n of inListParams(stmt)) {
      if (n <= count && (out[n - 1] === 0 || out[n - 1] === Oid.VARCHAR)) out[n - 1] = Oid.TEXT_ARRAY
    }
  } catch {
    // leave the types unknown: Describe answers varchar, Execute reports the statement's error
  }
  return out
}
