/**
 * A long IN list of literals (plan/literal-list.ts) is converted when it runs, not while it binds:
 * it must answer and fail exactly as a short list does.
 */
import t from 'tap'
import { Database } from '../../../lib/index.js'
import { LITERAL_LIST_MIN_ITEMS } from '../../../lib/plan/literal-list.js'

const db = await Database.open()
t.teardown(() => db.close())
await db.query("create table t (s symbol, x long, d double, ts timestamp) timestamp(ts)")
await db.query("insert into t values ('a', 1, 1.5, '2024-01-01T00:00:00.000000Z'), ('b', -2, null, '2024-01-01T00:00:01.000000Z'), (null, null, 3.0, '2024-01-01T00:00:02.000000Z'), ('c', 9007199254740993, -4.5, '2024-01-01T00:00:03.000000Z')")

/** `items` padded with `filler` to a long list (past the threshold), or kept short. */
function list(items: readonly string[], long: boolean, filler: string): string {
  const pad = long ? Array.from({ length: LITERAL_LIST_MIN_ITEMS }, () => filler) : []
  return [...items, ...pad].join(', ')
}

for (const [what, column, items, filler] of [
  ['symbols and null', 's', ["'a'", 'null', "'zz'"], "'nope'"],
  ['negative and huge longs', 'x', ['-2', '9007199254740993', '5'], '123456'],
  ['doubles and ints', 'd', ['1.5', '-4.5', '3'], '0.25'],
  ['timestamps as text', 'ts', ["'2024-01-01T00:00:01.000000Z'", "'2024-01-01T00:00:03.000000Z'"], "'2023-01-01T00:00:00.000000Z'"],
] as const) {
  t.test(`${what}: a long list answers as a short one`, async (t) => {
    for (const not of ['', 'not ']) {
      const q = (long: boolean): string => `select ts from t where ${column} ${not}in (${list(items, long, filler)}) order by ts`
      const short = (await db.query(q(false))).rows
      t.same((await db.query(q(true))).rows, short, `${not}in: ${short.length} rows either way`)
    }
  })
}

t.test('a bad item fails with the same error and position in a long list', async (t) => {
  for (const long of [false, true]) {
    const sql = `select x from t where x in (1, 'abc', ${list(['2'], long, '3')})`
    const err = await db.query(sql).then(() => undefined, (e: { code: string; position: number; message: string }) => e)
    t.equal(err?.code, '22P02', `${long ? 'long' : 'short'} list: ${err?.message}`)
    t.equal(err?.position, sql.indexOf("'abc'"), 'at the bad item')
  }
})

t.test('a list with a non-literal item is bound as before', async (t) => {
  const sql = `select count() from t where x in (x, ${list([], true, '7')})`
  t.equal(Number((await db.query(sql)).rows[0]![0]), 4, 'x = x holds for every x (null = null in QuestDB)')
})
