/**
 * pgwire's named OIDs come from the engine's pg_type table (lib/types/pg-types.ts), so the two
 * cannot drift apart; they are PostgreSQL's well-known numbers.
 */
import t from 'tap'
import { Oid } from '../../../adapters/pgwire/pg-types.js'
import { pgType } from '../../../lib/internal.js'

t.test("each named OID is PostgreSQL's and is listed in the engine's pg_type", async (t) => {
  t.same(
    [Oid.BOOL, Oid.BYTEA, Oid.INT8, Oid.INT2, Oid.INT4, Oid.TEXT, Oid.FLOAT4, Oid.FLOAT8, Oid.VARCHAR, Oid.TIMESTAMP, Oid.TIMESTAMPTZ, Oid.UUID, Oid.TEXT_ARRAY, Oid.INT8_ARRAY],
    [16, 17, 20, 21, 23, 25, 700, 701, 1043, 1114, 1184, 2950, 1009, 1016])
  for (const [name, oid] of Object.entries(Oid)) {
    if (name === 'UNKNOWN') { t.equal(oid, 705, 'unknown: on the wire only'); continue }
    const type = pgType(oid)
    t.ok(type !== undefined && type.name.replace(/^_/, '').toUpperCase() === name.replace(/_ARRAY$/, ''), `${name} = ${oid} (${type?.name})`)
  }
})
