// RIGHT [OUTER] and FULL [OUTER] joins (lib/exec/operators/outer-join.ts) against DuckDB as the
// oracle: the same tables (NULL keys, duplicate keys, keys only one side has) in both engines, a
// grid of join forms (equality keys, keys plus an ON condition on either side or both, no keys at
// all, OR, a subquery side, chains of joins) under several WHERE clauses, rows compared as sorted
// text. Then what is ours alone: no designated timestamp on the result, EXPLAIN, the memory limit
// on a huge nested loop, cancellation.
import t from 'tap'
import { DuckDBInstance } from '@duckdb/node-api'
import { Database } from '../../../../lib/index.js'
import { Rng } from '../../../adapters/random-vectors.js'

const TABLES = {
  a: { cols: 'ka INT, va DOUBLE, sa VARCHAR', rows: 40, keys: 9 },
  b: { cols: 'kb INT, vb DOUBLE, sb VARCHAR', rows: 30, keys: 12 },
  c: { cols: 'kc INT, vc DOUBLE', rows: 15, keys: 7 },
}

/** INSERT statements for seeded random rows: keys 0..keys-1 (so each side has keys the other lacks), 1 in 6 NULL. */
function inserts(seed: number): string[] {
  const r = new Rng(seed)
  const out: string[] = []
  for (const [name, spec] of Object.entries(TABLES)) {
    const rows: string[] = []
    for (let i = 0; i < spec.rows; i++) {
      const k = r.int(6) === 0 ? 'NULL' : String(r.int(spec.keys))
      const v = r.int(7) === 0 ? 'NULL' : String(r.int(80) / 4)
      const s = r.int(5) === 0 ? 'NULL' : `'s${r.int(3)}'`
      rows.push(name === 'c' ? `(${k}, ${v})` : `(${k}, ${v}, ${s})`)
    }
    out.push(`INSERT INTO ${name} VALUES ${rows.join(', ')}`)
  }
  return out
}

const KINDS = ['RIGHT JOIN', 'FULL OUTER JOIN', 'LEFT JOIN', 'JOIN']
/**
 * ON conditions, ours and DuckDB's. Equality conjuncts between the sides are hash keys; QuestDB's
 * `=` / `<>` hold NULL equal to NULL there as everywhere (a NULL key matches NULL keys), which
 * DuckDB spells IS [NOT] DISTINCT FROM ({@link nullSafe} rewrites every `=` of DuckDB's query).
 */
const ONS: [string, string][] = [
  ['a.ka = b.kb', 'a.ka = b.kb'],
  ['b.kb = a.ka', 'b.kb = a.ka'],
  ['a.ka = b.kb AND b.vb > 5', 'a.ka = b.kb AND b.vb > 5'],
  ['a.ka = b.kb AND a.va > 5', 'a.ka = b.kb AND a.va > 5'],
  ['a.ka = b.kb AND a.sa = b.sb', 'a.ka = b.kb AND a.sa = b.sb'],
  ['a.ka = b.kb AND a.va < b.vb', 'a.ka = b.kb AND a.va < b.vb'],
  ['a.ka < b.kb', 'a.ka < b.kb'],
  ['a.ka = b.kb OR a.va = b.vb', 'a.ka IS NOT DISTINCT FROM b.kb OR a.va IS NOT DISTINCT FROM b.vb'],
  ['a.ka + 1 = b.kb', 'a.ka + 1 = b.kb'],
  ['a.sa = b.sb AND a.ka <> b.kb', 'a.sa = b.sb AND a.ka IS DISTINCT FROM b.kb'],
  ['true', 'true'],
  ['false', 'false'],
]
const WHERES = ['', 'WHERE a.ka IS NULL', 'WHERE b.kb IS NULL', 'WHERE a.va > 3 AND b.vb > 3', 'WHERE a.va IS NULL OR b.sb = \'s1\'']
const COLS = 'a.ka, a.va, a.sa, b.kb, b.vb, b.sb'

/** Rows as sorted text lines (NULL as 'NULL', numbers as JS prints them). */
function canon(rows: readonly (readonly unknown[])[]): string[] {
  return rows.map((r) => r.map((v) => (v === null || v === undefined ? 'NULL' : typeof v === 'bigint' ? String(Number(v)) : String(v))).join('|')).sort()
}

/**
 * DuckDB's spelling of QuestDB's `=` between two expressions: NULL = NULL is true in QuestDB, so
 * NULL join keys match NULL keys; DuckDB says IS NOT DISTINCT FROM (a comparison with a literal
 * is left as it is).
 */
function nullSafe(sql: string): string {
  return sql.replace(/ = (?!'|\d)/g, ' IS NOT DISTINCT FROM ')
}

async function engines(seed: number) {
  const db = await Database.open()
  const duck = await DuckDBInstance.create(':memory:')
  const con = await duck.connect()
  for (const [name, spec] of Object.entries(TABLES)) {
    await db.query(`CREATE TABLE ${name} (${spec.cols})`)
    await con.run(`CREATE TABLE ${name} (${spec.cols})`)
  }
  for (const sql of inserts(seed)) { await db.query(sql); await con.run(sql) }
  const ours = async (sql: string) => canon((await db.query(sql)).rows)
  const theirs = async (sql: string) => canon((await con.runAndReadAll(nullSafe(sql))).getRows() as unknown[][])
  const close = async () => { await db.close(); con.closeSync(); duck.closeSync() }
  return { db, ours, theirs, close }
}

t.test('two tables: every join form x ON x WHERE equals DuckDB', async (t) => {
  for (const seed of [11]) {
    const e = await engines(seed)
    let checked = 0
    for (const kind of KINDS) {
      for (const on of ONS) {
        for (const where of WHERES) {
          const sql = `SELECT ${COLS} FROM a ${kind} b ON ${on[0]} ${where}`
          const [ours, theirs] = [await e.ours(sql), await e.theirs(`SELECT ${COLS} FROM a ${kind} b ON ${on[1]} ${where}`)]
          if (JSON.stringify(ours) !== JSON.stringify(theirs)) t.same(ours, theirs, `seed ${seed}: ${sql}`)
          else checked++
        }
      }
    }
    t.equal(checked, KINDS.length * ONS.length * WHERES.length, `seed ${seed}: every query equal`)
    await e.close()
  }
})

t.test('the right side can be a subquery; aggregates over the join', async (t) => {
  const e = await engines(13)
  for (const sql of [
    'SELECT a.ka, a.va, x.kb, x.n FROM a RIGHT JOIN (SELECT kb, count(*) n FROM b GROUP BY kb) x ON a.ka = x.kb',
    'SELECT a.ka, a.va, x.kb, x.n FROM a FULL JOIN (SELECT kb, count(*) n FROM b GROUP BY kb) x ON a.ka = x.kb AND x.n > 1',
    'SELECT x.ka, b.kb, b.vb FROM (SELECT ka FROM a WHERE va > 5) x FULL OUTER JOIN b ON x.ka = b.kb',
    'SELECT b.kb, count(a.ka), sum(a.va) FROM a RIGHT JOIN b ON a.ka = b.kb GROUP BY b.kb',
    'SELECT count(*), count(a.ka), count(b.kb) FROM a FULL JOIN b ON a.ka = b.kb',
    'SELECT count(*) FROM a FULL JOIN b ON a.ka < b.kb WHERE a.ka IS NULL OR b.kb IS NULL',
  ]) t.same(await e.ours(sql), await e.theirs(sql), sql)
  await e.close()
})

t.test('sides of several batches (more left rows than a batch, more pairs than a pair buffer) equal DuckDB', async (t) => {
  // l: 100,000 rows over keys 0..19,999 (every 11th NULL), r: 40,000 rows over even keys 0..39,998, most twice (every
  // 13th the odd key 39,999, which no left row has). Only the left side has NULL keys: NULL keys match NULL keys
  // (null-keys.test), and NULLs on both sides would make 28M pairs of this test's point (batches, pair buffers)
  const db = await Database.open()
  const duck = await DuckDBInstance.create(':memory:')
  const con = await duck.connect()
  t.teardown(async () => { await db.close(); con.closeSync(); duck.closeSync() })
  const NL = 100_000, NR = 40_000
  const lk = Array.from({ length: NL }, (_, i) => (i % 11 === 5 ? null : (i * 7) % 20_000))
  const lv = Array.from({ length: NL }, (_, i) => (i * 13) % 1000)
  const rk = Array.from({ length: NR }, (_, i) => (i % 13 === 4 ? 39_999 : ((i * 2 * 7919) % 40_000)))
  const rv = Array.from({ length: NR }, (_, i) => (i * 17) % 1000)
  await db.query('CREATE TABLE l (k INT, v INT)')
  await db.query('CREATE TABLE r (k INT, w INT)')
  await db.append('l', { k: lk, v: lv })
  await db.append('r', { k: rk, w: rv })
  await con.run(`CREATE TABLE l AS SELECT (CASE WHEN i % 11 = 5 THEN NULL ELSE (i * 7) % 20000 END)::INT k, ((i * 13) % 1000)::INT v FROM range(0, ${NL}) t(i) ORDER BY i`)
  await con.run(`CREATE TABLE r AS SELECT (CASE WHEN i % 13 = 4 THEN 39999 ELSE (i * 2 * 7919) % 40000 END)::INT k, ((i * 17) % 1000)::INT w FROM range(0, ${NR}) t(i) ORDER BY i`)
  for (const kind of ['FULL JOIN', 'LEFT JOIN', 'RIGHT JOIN', 'JOIN']) {
    for (const on of ['l.k = r.k', 'l.k = r.k AND l.v < r.w']) {
      // the last sum (of products of a left and a right value) tells pairings apart
      const sql = `SELECT count(*), count(l.k), count(r.k), sum(l.v), sum(r.w), sum(l.v * 1000 + coalesce(r.w, 7)), ` +
        `sum(coalesce(l.v, 0)::LONG * coalesce(r.w, 0) + coalesce(l.k, 0)::LONG * coalesce(r.k, 0)) FROM l ${kind} r ON ${on}`
      const ours = (await db.query(sql)).rows.map((r) => r.map(Number))
      const theirs = (await con.runAndReadAll(sql)).getRows().map((r) => r.map(Number))
      t.same(ours, theirs, sql)
    }
  }
})

t.test('a pair buffer that fills in the middle of a key\'s chain of build rows resumes there', async (t) => {
  // 70,000 left rows of one key against 3 right rows of it: 210,000 pairs, and 65,536 = 3 x 21,845 + 1
  const db = await Database.open()
  t.teardown(() => db.close())
  await db.query('CREATE TABLE l2 AS (SELECT 1::INT k, x v FROM long_sequence(70000))')
  await db.query('CREATE TABLE r2 AS (SELECT 1::INT k, x w FROM long_sequence(3))')
  await db.query('INSERT INTO r2 VALUES (2, 10)')
  const sumV = 70_000 * 70_001 / 2
  for (const kind of ['JOIN', 'LEFT JOIN', 'RIGHT JOIN', 'FULL JOIN']) {
    const r = (await db.query(`SELECT count(*), sum(l2.v * r2.w), count(l2.v), count(r2.w) FROM l2 ${kind} r2 ON l2.k = r2.k`)).rows[0]!.map(Number)
    const extra = kind === 'RIGHT JOIN' || kind === 'FULL JOIN' ? 1 : 0
    t.same(r, [210_000 + extra, 6 * sumV, 210_000, 210_000 + extra], kind)
  }
})

t.test('chains of joins (left-deep, as written) equal DuckDB', async (t) => {
  const e = await engines(14)
  const chains = [
    'a RIGHT JOIN b ON a.ka = b.kb RIGHT JOIN c ON b.kb = c.kc',
    'a FULL JOIN b ON a.ka = b.kb FULL JOIN c ON a.ka = c.kc',
    'a FULL JOIN b ON a.ka = b.kb FULL JOIN c ON coalesce(a.ka, b.kb) = c.kc',
    'a JOIN b ON a.ka = b.kb RIGHT JOIN c ON b.kb = c.kc AND a.va > 2',
    'a LEFT JOIN b ON a.ka = b.kb FULL JOIN c ON b.kb < c.kc',
    'a RIGHT JOIN b ON a.ka = b.kb LEFT JOIN c ON a.ka = c.kc',
    'a CROSS JOIN c RIGHT JOIN b ON a.ka = b.kb AND c.kc = b.kb',
    'a FULL JOIN b ON a.ka = b.kb JOIN c ON b.kb = c.kc',
    // a comma binds looser than JOIN: c crosses the result of the RIGHT / FULL join
    'c, a RIGHT JOIN b ON a.ka = b.kb',
    'c, a FULL JOIN b ON a.ka = b.kb AND a.va > 3',
    'c, a LEFT JOIN b ON a.ka = b.kb RIGHT JOIN (SELECT 1 k) z ON b.kb = z.k',
  ]
  for (const from of chains) {
    for (const where of ['', 'WHERE c.kc IS NULL', 'WHERE a.ka IS NOT NULL AND c.vc > 4']) {
      const sql = `SELECT ${COLS}, c.kc, c.vc FROM ${from} ${where}`
      t.same(await e.ours(sql), await e.theirs(sql), sql)
    }
  }
  await e.close()
})

t.test('empty sides', async (t) => {
  const e = await engines(15)
  for (const sql of [
    `SELECT ${COLS} FROM a RIGHT JOIN b ON a.ka = b.kb AND a.ka > 100`,
    `SELECT ${COLS} FROM (SELECT * FROM a WHERE ka > 100) a FULL JOIN b ON a.ka = b.kb`,
    `SELECT ${COLS} FROM a FULL JOIN (SELECT * FROM b WHERE kb > 100) b ON a.ka = b.kb`,
    `SELECT ${COLS} FROM (SELECT * FROM a WHERE ka > 100) a FULL JOIN (SELECT * FROM b WHERE kb > 100) b ON a.ka < b.kb`,
    `SELECT ${COLS} FROM a RIGHT JOIN (SELECT * FROM b WHERE kb > 100) b ON true`,
  ]) t.same(await e.ours(sql), await e.theirs(sql), sql)
  await e.close()
})

t.test('no designated timestamp on the result; the join types in EXPLAIN', async (t) => {
  const db = await Database.open()
  await db.query('CREATE TABLE x (ts TIMESTAMP, k INT) TIMESTAMP(ts) PARTITION BY DAY')
  await db.query('CREATE TABLE y (ts TIMESTAMP, k INT) TIMESTAMP(ts) PARTITION BY DAY')
  await db.query("INSERT INTO x VALUES ('2024-01-01T00:00:01', 1), ('2024-01-01T00:00:03', 2)")
  await db.query("INSERT INTO y VALUES ('2024-01-01T00:00:02', 2), ('2024-01-01T00:00:04', 3)")
  // an INNER / LEFT join keeps the left side's timestamp: SAMPLE BY works on it
  t.same((await db.query('SELECT x.ts, count() FROM x LEFT JOIN y ON x.k = y.k SAMPLE BY 1d')).rows.length, 1, 'left join: SAMPLE BY')
  for (const kind of ['RIGHT', 'FULL']) {
    await t.rejects(db.query(`SELECT x.ts, count() FROM x ${kind} JOIN y ON x.k = y.k SAMPLE BY 1d`), { code: /^\w{5}$/ }, `${kind}: SAMPLE BY needs a designated timestamp`)
    await t.rejects(db.query(`SELECT * FROM x ${kind} JOIN y ON x.k = y.k ASOF JOIN x z`), { code: /^\w{5}$/ }, `${kind}: ASOF JOIN after it needs a designated timestamp`)
  }
  const plan = async (sql: string) => (await db.query(`EXPLAIN ${sql}`)).rows.map((r) => String(r[0]).trim())[0]
  t.equal(await plan('SELECT * FROM x RIGHT JOIN y ON x.k = y.k'), 'Hash Right Outer Join')
  t.equal(await plan('SELECT * FROM x FULL OUTER JOIN y ON x.k = y.k'), 'Hash Full Outer Join')
  t.equal(await plan('SELECT * FROM x RIGHT OUTER JOIN y ON x.k < y.k'), 'Nested Loop Right Join')
  t.equal(await plan('SELECT * FROM x FULL JOIN y ON x.k < y.k OR x.k IS NULL'), 'Nested Loop Full Join')
  t.equal(await plan('SELECT * FROM x LEFT JOIN y ON x.k = y.k'), 'Hash Outer Join', 'LEFT unchanged')
  await db.close()
})

t.test('a huge nested loop: the memory limit gives a clear error, cancellation stops it, the database stays up', async (t) => {
  const db = await Database.open({ queryMemoryLimit: 8 * 1024 * 1024 })
  await db.query('CREATE TABLE big AS (SELECT x k, rnd_double() v FROM long_sequence(100000))')
  // collecting the right side (100k rows of two columns) fits; sorting the 1e10-pair product does not
  const err = await db.query('SELECT * FROM big l FULL JOIN big r ON l.v < r.v ORDER BY l.v').then(() => undefined, (e: unknown) => e)
  t.match(err, { code: '53200', message: /query memory limit exceeded/ }, 'ORDER BY over the product: 53200 query memory limit')
  // a right side that alone is over the limit
  const err2 = await db.query('SELECT count() FROM long_sequence(10) l RIGHT JOIN (SELECT x, x * 2.0 d, x * 3.0 e FROM long_sequence(1000000)) r ON l.x < r.x').then(() => undefined, (e: unknown) => e)
  t.match(err2, { code: '53200', message: /nested loop join right side/ }, 'the collected right side counts against the limit')
  // a streamed product is cancellable (and bounded by the statement timeout in the adapters)
  const signal = { cancelled: false }
  const run = db.query('SELECT count() FROM big l RIGHT JOIN big r ON l.v + r.v < -1', [], { signal }).then(() => undefined, (e: unknown) => e)
  setTimeout(() => { signal.cancelled = true }, 200)
  t.match(await run, { code: '57014' }, 'cancelled')
  t.same((await db.query('SELECT count() FROM big')).rows, [[100000]], 'the database still answers')
  await db.close()
})

t.test('LEFT JOIN with keys and a residual: pairs in left-row order, a left row with no kept pair in place, across pair buffers', async (t) => {
  // l: 3,000 rows, k = id mod 7 (every 13th NULL, which no right row has), v = id mod 100; r: 300 rows, k = id mod 5,
  // w = id mod 100. Keys 0..4 have 60 right rows each: 180,000 candidate pairs, so a row's candidates straddle the
  // 65,536-pair buffers; v = 99 keeps no pair (w <= 99), keys 5 and 6 have no candidates
  const db = await Database.open()
  t.teardown(() => db.close())
  const NL = 3000, NR = 300
  const lk = Array.from({ length: NL }, (_, i) => (i % 13 === 6 ? null : i % 7)), lv = Array.from({ length: NL }, (_, i) => i % 100)
  const rk = Array.from({ length: NR }, (_, j) => j % 5), rw = Array.from({ length: NR }, (_, j) => j % 100)
  await db.query('CREATE TABLE l (id INT, k INT, v INT)')
  await db.query('CREATE TABLE r (id INT, k INT, w INT)')
  await db.append('l', { id: Array.from({ length: NL }, (_, i) => i), k: lk, v: lv })
  await db.append('r', { id: Array.from({ length: NR }, (_, j) => j), k: rk, w: rw })
  const expected: string[] = []
  for (let i = 0; i < NL; i++) {
    let any = false
    for (let j = 0; j < NR; j++) if (lk[i] !== null && lk[i] === rk[j] && lv[i]! < rw[j]!) { expected.push(`${i} ${j}`); any = true }
    if (!any) expected.push(`${i} NULL`)
  }
  const rows = (await db.query('SELECT l.id, r.id FROM l LEFT JOIN r ON l.k = r.k AND l.v < r.w')).rows.map((x) => `${x[0]} ${x[1] ?? 'NULL'}`)
  t.equal(rows.length, expected.length, 'row count')
  t.ok(rows.every((x, n) => x === expected[n]), 'every row in order (first difference: ' + String(rows.findIndex((x, n) => x !== expected[n])) + ')')
})
