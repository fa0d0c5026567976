/**
 * Hostile array input fails with a SqlError and a position, never a crash or a hang: text nested
 * far past the dimension limit (no stack overflow), a literal nested past 32 dimensions, ragged
 * text, a huge index, a subscript of a non-array, malformed pgwire binary arrays, and a
 * broadcast whose result would pass QuestDB's element cap (refused before anything is allocated).
 */
import t, { type Test } from 'tap'
import { Database, SqlError } from '../../lib/index.js'
import { decodeArrayBinary, float8ArrayParam } from '../../adapters/pgwire/encode-array.js'

const db = await Database.open()
t.teardown(() => db.close())

async function fails(t: Test, sql: string, code: string, message: RegExp): Promise<void> {
  const e = await db.query(sql).then(() => undefined, (err: unknown) => err)
  t.ok(e instanceof SqlError, `${sql.slice(0, 60)}: a SqlError`)
  t.equal((e as SqlError).code, code)
  t.match((e as SqlError).message, message)
  t.ok((e as SqlError).position >= 0, 'with a position')
}

t.test('text nested 100,000 deep', async (t) => {
  const started = Date.now()
  await fails(t, `select '${'{'.repeat(100_000)}1${'}'.repeat(100_000)}'::double[]`, '22P02', /more than 32 dimensions/)
  t.ok(Date.now() - started < 30_000, 'did not freeze')
})

t.test('a literal of 33 dimensions', async (t) => {
  await fails(t, `select ${'ARRAY['.repeat(33)}1${']'.repeat(33)}`, '42804', /too many array dimensions/)
})

t.test('ragged text, huge and zero indexes, subscripts of scalars', async (t) => {
  await fails(t, "select '{{1,2},{3}}'::double[][]", '22P02', /ragged/)
  await fails(t, "select '{1,two}'::double[]", '22P02', /not a number/)
  const r = await db.query('select ARRAY[1.0, 2.0][2147483647] a')
  t.same(r.rows, [[null]], 'an index past the end is null')
  await fails(t, 'select ARRAY[1.0][0]', '22003', /must be positive/)
  await fails(t, 'select (1.5)[1]', '42804', /no subscript for DOUBLE/)
})

t.test('a broadcast past the element cap', async (t) => {
  const started = Date.now()
  // [20000,1] + [20000] broadcasts to [20000,20000]: 4e8 elements, 3.2 GB of doubles
  await fails(t, 'select transpose(ARRAY[array_build(1, 20000, 0)]) + array_build(1, 20000, 0) x', '54000',
    /array element count exceeds max \[max=268435455, shape=\[20000,20000\]\]/)
  t.ok(Date.now() - started < 30_000, 'did not freeze')
  const r = await db.query('select array_count(transpose(ARRAY[array_build(1, 3000, 1)]) * array_build(1, 3000, 2)) n')
  t.same(r.rows, [[9_000_000]], 'a large broadcast under the cap runs')
})

t.test('malformed binary float8[] parameters', async (t) => {
  const b = Buffer.alloc(12)
  b.writeInt32BE(99, 0)
  t.throws(() => decodeArrayBinary(b), RangeError, 'a dimension count past 32')
  t.throws(() => float8ArrayParam(Buffer.alloc(3), 1, 0), /invalid float8\[\] for parameter \$1/, 'truncated bytes')
})
