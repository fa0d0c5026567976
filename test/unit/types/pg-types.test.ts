import t from 'tap'
import { PG_ARRAY_TYPES, PG_SCALAR_TYPES, pgType } from '../../../lib/types/pg-types.js'

t.test('one entry per OID, arrays point at their elements and back', async (t) => {
  const all = [...PG_SCALAR_TYPES, ...PG_ARRAY_TYPES]
  t.equal(new Set(all.map((x) => x.oid)).size, all.length, 'OIDs are unique')
  for (const a of PG_ARRAY_TYPES) {
    const el = pgType(a.elementOid)
    t.equal(el?.arrayOid, a.oid, a.name)
    t.equal(a.formatName, `${el?.formatName}[]`)
    t.equal(a.name, `_${el?.name}`)
  }
})

t.test('the names clients read', async (t) => {
  t.same(pgType(23), { oid: 23, name: 'int4', formatName: 'integer', length: 4, category: 'N', elementOid: 0, arrayOid: 1007 })
  t.equal(pgType(1007)?.formatName, 'integer[]')
  t.equal(pgType(1184)?.formatName, 'timestamp with time zone')
  t.equal(pgType(1043)?.name, 'varchar')
  t.equal(pgType(12345), undefined)
})
