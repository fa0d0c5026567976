/**
 * read_parquet's own page decoding (lib/parquet/page-decode.ts, used by flat-chunk.ts): the RLE /
 * bit-packed hybrid at every bit width, and DuckDB files whose INT32 and dictionary-encoded
 * string columns now go through it (v1 pages, nulls, several pages), giving DuckDB's answers.
 */
import './resolve-hook.js'
import t from 'tap'
import { join } from 'node:path'
import { Database } from '../../../lib/index.js'
import { decodeHybrid } from '../../../lib/parquet/page-decode.js'
import { duckRows, tmpDir } from './helpers.js'

/** The hybrid encoding of `values`: a bit-packed run of the first 8k, then one RLE run of `tail`. */
function encode(values: number[], width: number, tail: { value: number; count: number }): Uint8Array {
  const out: number[] = []
  const groups = values.length / 8
  out.push(((groups << 1) | 1) & 0x7f | (groups >= 64 ? 0x80 : 0))
  if (groups >= 64) out.push(groups >> 6)
  let acc = 0n
  let bits = 0n
  for (const v of values) { acc |= BigInt(v) << bits; bits += BigInt(width) }
  for (let i = 0n; i < bits; i += 8n) out.push(Number((acc >> i) & 0xffn))
  let h = tail.count << 1
  while (h > 0x7f) { out.push((h & 0x7f) | 0x80); h >>>= 7 }
  out.push(h)
  for (let k = 0; k < (width + 7) >> 3; k++) out.push(Number((BigInt(tail.value) >> BigInt(8 * k)) & 0xffn))
  return Uint8Array.from(out)
}

t.test('the RLE / bit-packed hybrid decodes at every bit width', async (t) => {
  for (let width = 1; width <= 32; width++) {
    const max = 2 ** width
    const values = Array.from({ length: 16 }, (_, i) => Math.floor(((i * 2654435761) % 4294967296) / 4294967296 * max))
    const tail = { value: max - 1, count: 300 }
    const bytes = encode(values, width, tail)
    const out = new Int32Array(16 + 300)
    const end = decodeHybrid(bytes, 0, bytes.length, width, out.length, out)
    t.equal(end, bytes.length, `width ${width}: every byte read`)
    const want = [...values, ...new Array<number>(300).fill(tail.value)].map((v) => v | 0)
    t.same(Array.from(out), want, `width ${width}`)
  }
  t.throws(() => decodeHybrid(Uint8Array.of(5), 0, 1, 3, 8, new Int32Array(8)), { code: 'XX001' }, 'a truncated bit-packed run')
})

t.test('DuckDB files: INT32 and dictionary strings through the own decoder, nulls and many pages', async (t) => {
  const dir = tmpDir(t)
  const db = await Database.open({ copyRoot: dir })
  t.teardown(() => db.close())
  const file = join(dir, 'duck.parquet')
  await duckRows(`COPY (SELECT CASE WHEN r % 5 = 0 THEN NULL ELSE (r * 7919) % 100003 - 50000 END::INTEGER AS i,
    CASE WHEN r % 7 = 0 THEN NULL ELSE 'name ' || (r % 300) END AS s, r::DOUBLE AS d FROM range(20000) t(r)) TO '${file}' (FORMAT PARQUET, ROW_GROUP_SIZE 8192)`)
  const meta = await duckRows(`SELECT DISTINCT path_in_schema, encodings FROM parquet_metadata('${file}') WHERE path_in_schema = 's'`)
  t.match(String(meta[0]![1]), /DICTIONARY/, 'DuckDB dictionary-encoded the strings')
  const want = (await duckRows(`SELECT count(i), sum(i)::VARCHAR, min(i), max(i), count(s), count(DISTINCT s), min(s), max(s) FROM read_parquet('${file}')`))[0]!
  const got = (await db.query(`SELECT count(i), sum(i), min(i), max(i), count(s), count_distinct(s), min(s), max(s) FROM read_parquet('duck.parquet')`)).rows[0]!
  t.same(got.map((v) => (typeof v === 'bigint' ? String(v) : v)), want.map((v) => (typeof v === 'bigint' ? String(v) : v)))
  const rows = (await db.query(`SELECT i, s FROM read_parquet('duck.parquet') LIMIT 8`)).rows
  t.same(rows, (await duckRows(`SELECT i, s FROM read_parquet('${file}') LIMIT 8`)))
})
