import './resolve-hook.js'
import t from 'tap'
import { join } from 'node:path'
import { Database } from '../../../lib/index.js'
import { duckRows, tmpDir } from './helpers.js'

// files DuckDB writes (data page v1, dictionary-encoded doubles, nulls, an INT64 past 2^53)
// read through the typed-array fast path give DuckDB's own answers
t.test('read_parquet of DuckDB files: DOUBLE and INT64 pages into typed arrays, nulls, dictionaries, the BigInt fallback', async (t) => {
  const dir = tmpDir(t)
  const db = await Database.open({ copyRoot: dir })
  t.teardown(() => db.close())
  const cases = {
    plain: `SELECT (r * 0.25)::DOUBLE AS d, r::BIGINT AS l, TIMESTAMP '2024-01-01' + to_microseconds(r) AS ts FROM range(5000) t(r)`,
    nulls: `SELECT CASE WHEN r % 7 = 0 THEN NULL ELSE (r % 5)::DOUBLE END AS d, CASE WHEN r % 3 = 0 THEN NULL ELSE -r * 1000003 END::BIGINT AS l, TIMESTAMP '2024-01-01' + to_microseconds(r) AS ts FROM range(5000) t(r)`,
    big: `SELECT r::DOUBLE AS d, CASE WHEN r = 4000 THEN 9007199254740993 ELSE r END::BIGINT AS l, TIMESTAMP '2024-01-01' + to_microseconds(r) AS ts FROM range(5000) t(r)`,
  }
  for (const [name, sql] of Object.entries(cases)) {
    const file = join(dir, `${name}.parquet`)
    await duckRows(`COPY (${sql}) TO '${file}' (FORMAT PARQUET, ROW_GROUP_SIZE 2048)`)
    const want = (await duckRows(`SELECT count(d), sum(d), count(l), sum(l)::VARCHAR, min(l)::VARCHAR, max(l)::VARCHAR, count(ts) FROM read_parquet('${file}')`))[0]!
    const got = (await db.query(`SELECT count(d), sum(d), count(l), sum(l), min(l), max(l), count(ts) FROM read_parquet('${name}.parquet')`)).rows[0]!
    t.same(got.map((v) => (typeof v === 'bigint' ? String(v) : v)), [Number(want[0]), want[1], Number(want[2]), ...want.slice(3, 6), Number(want[6])], name)
    const rows = (await db.query(`SELECT d, l FROM read_parquet('${name}.parquet') LIMIT 4`)).rows
    const duck = await duckRows(`SELECT d, l FROM read_parquet('${file}') LIMIT 4`)
    t.same(rows.map((r) => [r[0], r[1] === null ? null : String(r[1])]), duck.map((r) => [r[0], r[1] === null ? null : String(r[1])]), `${name}: first rows`)
  }
})
