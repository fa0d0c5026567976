// Nested-loop joins (lib/exec/operators/nested-loop-join.ts: no equi-keys, an ON condition) against
// DuckDB as the oracle: conditions of one side, both sides, OR, CASE, text, NULLs on both sides,
// empty sides, and sides whose sizes sit on the block boundaries (a right side of 32,768 rows is the
// largest a block repeats; 65,536 rows a slice; left sides of several 65,536-row batches). Then the
// split of a condition by side (join-condition-sides.ts) on hand-built expressions.
import t from 'tap'
import { DuckDBInstance } from '@duckdb/node-api'
import { Database } from '../../../../lib/index.js'
import { Rng } from '../../../adapters/random-vectors.js'
import { splitBySide } from '../../../../lib/exec/operators/join-condition-sides.js'
import type { BoundExpr } from '../../../../lib/plan/plan-node.js'
import type { ScalarFunctionDef } from '../../../../lib/functions/registry-types.js'

const KINDS = ['JOIN', 'LEFT JOIN', 'RIGHT JOIN', 'FULL JOIN']

/** Rows as sorted text lines (NULL as 'NULL'). */
function canon(rows: readonly (readonly unknown[])[]): string[] {
  return rows.map((r) => r.map((v) => (v === null || v === undefined ? 'NULL' : typeof v === 'bigint' ? String(Number(v)) : String(v))).join('|')).sort()
}

async function pair() {
  const db = await Database.open()
  const duck = await DuckDBInstance.create(':memory:')
  const con = await duck.connect()
  await con.run('SET threads = 1')
  const close = async () => { await db.close(); con.closeSync(); duck.closeSync() }
  return { db, con, close }
}

t.test('conditions x join types, NULLs on both sides, empty sides: equal to DuckDB', async (t) => {
  const { db, con, close } = await pair()
  t.teardown(close)
  const r = new Rng(7)
  for (const [name, rows] of [['a', 40], ['b', 30], ['e', 0]] as const) {
    const cols = 'k INT, v DOUBLE, s VARCHAR'
    await db.query(`CREATE TABLE ${name} (${cols})`)
    await con.run(`CREATE TABLE ${name} (${cols})`)
    if (rows === 0) continue
    const values: string[] = []
    for (let i = 0; i < rows; i++) {
      const k = r.int(6) === 0 ? 'NULL' : String(r.int(10))
      const v = r.int(7) === 0 ? 'NULL' : String(r.int(80) / 4)
      const s = r.int(5) === 0 ? 'NULL' : `'s${r.int(3)}'`
      values.push(`(${k}, ${v}, ${s})`)
    }
    const sql = `INSERT INTO ${name} VALUES ${values.join(', ')}`
    await db.query(sql)
    await con.run(sql)
  }
  // [ours, DuckDB's]: QuestDB's = and <> hold NULL equal to NULL (DuckDB: IS [NOT] DISTINCT FROM)
  const ONS: [string, string][] = [
    ['a.v < b.v', 'a.v < b.v'],
    ['a.v < b.v - 0.5', 'a.v < b.v - 0.5'],
    ['a.v + b.v > 20', 'a.v + b.v > 20'],
    ['abs(a.v - b.v) < 2', 'abs(a.v - b.v) < 2'],
    ['a.k * 2 > b.k + 3', 'a.k * 2 > b.k + 3'],
    ['a.v > 5', 'a.v > 5'],
    ['b.v > 5', 'b.v > 5'],
    ['a.v > 5 AND b.v < 10', 'a.v > 5 AND b.v < 10'],
    ['a.k = b.k OR a.v < b.v', 'a.k IS NOT DISTINCT FROM b.k OR a.v < b.v'],
    ['a.k <> b.k', 'a.k IS DISTINCT FROM b.k'],
    ['a.s < b.s', 'a.s < b.s'],
    ['a.k < b.k AND a.s = b.s', 'a.k < b.k AND a.s IS NOT DISTINCT FROM b.s'],
    ['CASE WHEN a.v > 10 THEN b.v ELSE a.v END > 8', 'CASE WHEN a.v > 10 THEN b.v ELSE a.v END > 8'],
    ['a.v IS NULL', 'a.v IS NULL'],
  ]
  let checked = 0, total = 0
  for (const [l, rt] of [['a', 'b'], ['e', 'b'], ['a', 'e'], ['e', 'e']]) {
    for (const kind of KINDS) {
      for (const [ours, theirs] of ONS) {
        const q = (cond: string) => `SELECT a.k, a.v, a.s, b.k, b.v, b.s FROM ${l} a ${kind} ${rt} b ON ${cond}`
        total++
        const a = canon((await db.query(q(ours))).rows)
        const b = canon((await con.runAndReadAll(q(theirs))).getRows() as unknown[][])
        if (JSON.stringify(a) !== JSON.stringify(b)) t.same(a, b, q(ours))
        else checked++
      }
    }
  }
  t.equal(checked, total, `all ${total} queries equal`)
})

t.test('sides on the block and batch boundaries: equal to DuckDB', { timeout: 240_000 }, async (t) => {
  const { db, con, close } = await pair()
  t.teardown(close)
  // l: id, v = id * 37 mod 1000 (every 17th NULL); r: id, w = id * 53 mod 1000 (every 19th NULL)
  const make = async (name: string, col: string, rows: number, mul: number, nullEvery: number) => {
    await db.query(`CREATE TABLE ${name} (id INT, ${col} INT)`)
    const id = new Int32Array(rows), v: (number | null)[] = []
    for (let i = 0; i < rows; i++) { id[i] = i; v.push(i % nullEvery === 3 ? null : (i * mul) % 1000) }
    await db.append(name, { id, [col]: v })
    await con.run(`CREATE TABLE ${name} AS SELECT i::INT id, (CASE WHEN i % ${nullEvery} = 3 THEN NULL ELSE (i * ${mul}) % 1000 END)::INT ${col} FROM range(0, ${rows}) t(i) ORDER BY i`)
  }
  const SIZES: [number, number][] = [[140_000, 3], [20, 32_768], [20, 32_769], [5, 65_536], [5, 65_537], [3, 140_001]]
  for (const nl of new Set(SIZES.map((x) => x[0]))) await make(`l${nl}`, 'v', nl, 37, 17)
  for (const nr of new Set(SIZES.map((x) => x[1]))) await make(`r${nr}`, 'w', nr, 53, 19)
  for (const [nl, nr] of SIZES) {
    const l = `l${nl}`, r = `r${nr}`
    for (const kind of KINDS) {
      for (const on of [`${l}.v + 500 < ${r}.w`, `${l}.v < ${r}.w OR ${r}.w IS NULL`]) {
        const sql = `SELECT count(*), count(${l}.v), count(${r}.w), sum(${l}.v), sum(${r}.w), ` +
          `sum(coalesce(${l}.id, -1)::LONG * 1000003 + coalesce(${r}.id, -1)), sum(coalesce(${l}.v, 0)::LONG * coalesce(${r}.w, 0)) ` +
          `FROM ${l} ${kind} ${r} ON ${on}`
        const ours = (await db.query(sql)).rows.map((row) => row.map((x) => (x === null ? null : Number(x))))
        const theirs = (await con.runAndReadAll(sql)).getRows().map((row) => row.map((x) => (x === null ? null : Number(x))))
        t.same(ours, theirs, `${nl} x ${nr}: ${sql}`)
      }
    }
  }
  // pairs in left-row order, and for one left row in right-row order; a LEFT join's left row
  // without a pair in place
  const rows = (await db.query('SELECT l5.id, r65537.id FROM l5 LEFT JOIN r65537 ON l5.v + 960 < r65537.w')).rows
  const expected: [number, number | null][] = []
  const lv = (i: number) => (i % 17 === 3 ? null : (i * 37) % 1000), rw = (i: number) => (i % 19 === 3 ? null : (i * 53) % 1000)
  for (let i = 0; i < 5; i++) {
    let any = false
    for (let j = 0; j < 65_537; j++) { const a = lv(i), b = rw(j); if (a !== null && b !== null && a + 960 < b) { expected.push([i, j]); any = true } }
    if (!any) expected.push([i, null])
  }
  t.same(rows.map((row) => [Number(row[0]), row[1] === null ? null : Number(row[1])]), expected, 'left-row order, right-row order within a left row, unmatched left rows in place')
})

t.test('a condition split by side: one-side parts become columns, CASE and volatile calls stay per pair', async (t) => {
  const fn = (name: string, deterministic?: boolean) => ({ kind: 'scalar', name, deterministic } as unknown as ScalarFunctionDef)
  const col = (index: number): BoundExpr => ({ kind: 'column', type: 'DOUBLE', index })
  const call = (name: string, args: BoundExpr[], deterministic?: boolean): BoundExpr => ({ kind: 'call', type: 'DOUBLE', def: fn(name, deterministic), site: {} as never, args })
  const num = (value: number): BoundExpr => ({ kind: 'const', type: 'DOUBLE', value })
  // 2 left columns (0, 1), 3 right columns (2, 3, 4)
  const lt = call('<', [col(0), call('-', [col(3), num(0.5)])])
  const s1 = splitBySide(lt, 2, 3)
  t.same(s1.sides.map((x) => [x.side, x.index]), [['right', 5]], 'b.v - 0.5 is a right column')
  t.same(s1.sides[0]!.expr, call('-', [col(1), num(0.5)]), 'over the right input (index 3 -> 1)')
  t.same(s1.expr, call('<', [col(0), col(5)]), 'the condition reads it as column 5')
  const both = call('and', [call('>', [call('+', [col(0), col(1)]), num(1)]), call('<', [col(0), col(4)])])
  const s2 = splitBySide(both, 2, 3)
  t.same(s2.sides.map((x) => [x.side, x.index]), [['left', 5]], 'a left-only conjunct is one left column; a bare column stays')
  t.same(s2.expr, call('and', [col(5), call('<', [col(0), col(4)])]))
  const rnd = call('<', [col(0), call('+', [col(2), call('rnd_double', [], false)])])
  t.same(splitBySide(rnd, 2, 3).sides, [], 'a volatile call pins its expression per pair')
  const cs: BoundExpr = { kind: 'case', type: 'DOUBLE', whens: [{ when: call('>', [col(0), num(1)]), then: call('-', [col(2), num(1)]) }], else: col(1) }
  const s3 = splitBySide(call('>', [cs, num(8)]), 2, 3)
  t.same(s3.sides, [], 'a CASE over both sides stays whole')
})
