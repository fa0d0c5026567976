import t from 'tap'
import { fromBase64, toBase64 } from '../../../../lib/functions/scalar/binary.js'
import { Database } from '../../../../lib/index.js'

t.test('base64 round trips and matches the standard encoding', async (t) => {
  const enc = new TextEncoder()
  for (const [text, b64] of [['', ''], ['f', 'Zg=='], ['fo', 'Zm8='], ['foo', 'Zm9v'], ['1234', 'MTIzNA=='], ['5678', 'NTY3OA==']] as const) {
    t.equal(toBase64(enc.encode(text)), b64)
    t.same(Array.from(fromBase64(b64)!), Array.from(enc.encode(text)))
  }
  t.equal(fromBase64('@@@@'), null)
  t.equal(fromBase64('A'), null)
})

t.test('base64/from_base64 and wait_wal_table in SQL', async (t) => {
  const db = await Database.open()
  t.same((await db.query("select base64(from_base64('MTIzNA=='), 2)")).rows, [['MTI=']])
  await db.query('create table x (b binary, ts timestamp) timestamp(ts) partition by day')
  await db.query("insert into x values (from_base64('MTIzNA=='), '2024-01-01')")
  t.same((await db.query("select wait_wal_table('x')")).rows, [[true]])
  t.same((await db.query('select base64(b, 100) from x')).rows, [['MTIzNA==']])
  await t.rejects(db.query("select wait_wal_table('nope')"), { code: '42P01', position: 22 })
})
