// Hash joins on one LONG / TIMESTAMP / SYMBOL / IPv4 key use the typed table (lib/exec/keys/join-table.ts):
// every join form must give the rows the same join gives on the key's text (the Map path), with
// NULL keys, duplicate keys, keys one side lacks, LONG values past 2^53 (bigint vectors) and
// SYMBOL columns of two tables (two dictionaries).
import t from 'tap'
import { Database } from '../../../../lib/index.js'

const canon = (rows: readonly (readonly unknown[])[]): string[] => rows.map((r) => r.map((v) => String(v)).join('|')).sort()

t.test('typed keys give the text-key answers', async (t) => {
  const db = await Database.open()
  await db.query('CREATE TABLE a (l LONG, ts TIMESTAMP, s SYMBOL, ip IPV4, v INT)')
  await db.query('CREATE TABLE b (l LONG, ts TIMESTAMP, s SYMBOL, ip IPV4, w INT)')
  const rows = (n: number, m: number, seed: number): string => Array.from({ length: n }, (_, i) => {
    const k = (i * seed) % m
    const nul = (i + seed) % 6 === 0
    return nul ? `(NULL, NULL, NULL, NULL, ${i})` : `(${k}, ${k * 1000}::timestamp, 's${k}', '10.0.0.${k + 1}', ${i})`
  }).join(', ')
  await db.query(`INSERT INTO a VALUES ${rows(40, 9, 7)}, (9007199254740993, 1, 'x', '1.1.1.1', 99)`)
  await db.query(`INSERT INTO b VALUES ${rows(30, 12, 5)}, (9007199254740993, 1, 'y', '1.1.1.2', 98)`)
  let checked = 0
  for (const kind of ['JOIN', 'LEFT JOIN', 'RIGHT JOIN', 'FULL JOIN']) {
    for (const col of ['l', 'ts', 's', 'ip']) {
      for (const extra of ['', ' AND a.v < b.w']) {
        const typed = `SELECT a.v, b.w FROM a ${kind} b ON a.${col} = b.${col}${extra}`
        const text = `SELECT a.v, b.w FROM a ${kind} b ON a.${col}::string = b.${col}::string${extra}`
        const [x, y] = [canon((await db.query(typed)).rows), canon((await db.query(text)).rows)]
        if (JSON.stringify(x) !== JSON.stringify(y)) t.same(x, y, typed)
        else checked++
      }
    }
  }
  t.equal(checked, 32, 'every query equal')
  const n = (await db.query('SELECT count(*) FROM a JOIN b ON a.l = b.l WHERE a.l = 9007199254740993')).rows[0]![0]
  t.equal(Number(n), 1, 'a LONG past 2^53 matches itself')
  await db.close()
})
