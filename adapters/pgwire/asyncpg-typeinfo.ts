/**
 * asyncpg's type introspection (`WITH RECURSIVE typeinfo_tree(...) ... WHERE ti.oid =
 * any($1::oid[])`), which it runs before it first decodes or encodes a type it has no built-in
 * codec for — every array type, so the first `float8[]` column or parameter. The query uses
 * PostgreSQL syntax the engine does not parse; the adapter answers it from the built-in type
 * table: one row per requested OID it knows (element types are asyncpg's built-ins, so the
 * recursion adds nothing). `$1` is described as oid[], for which asyncpg has a built-in codec.
 */
import { pgType } from '../../lib/internal.js'
import { OID_ARRAY } from './params.js'
import type { Prepared } from './prepared.js'
import { type SyntheticColumn, resultExecution } from './synthetic.js'

const COLUMNS: readonly SyntheticColumn[] = [
  { name: 'oid', type: 'INT' }, { name: 'ns', type: 'STRING' }, { name: 'name', type: 'STRING' }, { name: 'kind', type: 'STRING' },
  { name: 'basetype', type: 'INT' }, { name: 'elemtype', type: 'INT' }, { name: 'elemdelim', type: 'STRING' },
  { name: 'range_subtype', type: 'INT' }, { name: 'attrtypoids', type: 'STRING' }, { name: 'attrnames', type: 'STRING' },
  { name: 'depth', type: 'INT' }, { name: 'basetype_name', type: 'STRING' }, { name: 'elemtype_name', type: 'STRING' },
  { name: 'range_subtype_name', type: 'STRING' },
]

/** The answer to asyncpg's introspection query, or undefined for any other text. */
export function asyncpgTypeInfo(sql: string): Prepared | undefined {
  if (!/typeinfo_tree/.test(sql) || !/any\(\$1::oid\[\]\)/.test(sql)) return undefined
  return {
    paramCount: 1, paramOids: [OID_ARRAY], returnsRows: true, empty: false, statement: undefined,
    start: (params) => {
      const oids = Array.isArray(params[0]) ? (params[0] as unknown[]).map(Number) : []
      const rows = oids.flatMap((oid) => {
        const t = pgType(oid)
        if (t === undefined) return []
        const elem = t.elementOid === 0 ? undefined : pgType(t.elementOid)
        return [[oid, 'pg_catalog', t.name, 'b', null, elem === undefined ? 0 : elem.oid, ',', null, null, null, 0, null, elem?.formatName ?? null, null]]
      })
      return Promise.resolve(resultExecution(COLUMNS, rows))
    },
    tag: (n) => `SELECT ${n}`,
  }
}
