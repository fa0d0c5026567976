/**
 * Names in a join's ON, as QuestDB resolves them. An unqualified name both sides have is
 * ambiguous: the key pairs of an ON are bound one side at a time, which used to take `k` in
 * `ON k = r.k` from the left side without a word. A qualifier that names no table in scope is
 * `Invalid table name or alias`, not an invalid column. Two key columns of unrelated types are a
 * `join column type mismatch` at the right side's column (INT and LONG too). A FROM item may not repeat the name or
 * alias of one before it. Messages and positions are QuestDB's
 * (JoinTest's testJoinValidationAndMissingTimestampRecover, MultiJoinTest's comma groups); the
 * other join kinds follow the same rule. Names only one side has, and qualified names, still bind.
 */
import t from 'tap'
import { Database, SqlError } from '../../../lib/index.js'

async function errorOf(db: Database, sql: string): Promise<SqlError> {
  try { await db.query(sql) } catch (e) { if (e instanceof SqlError) return e; throw e }
  throw new Error(`no error: ${sql}`)
}

async function setup(): Promise<Database> {
  const db = await Database.open()
  await db.query('CREATE TABLE lp_join_l (id INT, k INT, lonly INT, ts TIMESTAMP) TIMESTAMP(ts)')
  await db.query('CREATE TABLE lp_join_r (id INT, k INT, ronly INT, ts TIMESTAMP) TIMESTAMP(ts)')
  await db.query("INSERT INTO lp_join_l VALUES (1, 1, 1, '2024-01-01T00:00:01Z'), (2, 2, 5, '2024-01-01T00:00:02Z')")
  await db.query("INSERT INTO lp_join_r VALUES (10, 1, 1, '2024-01-01T00:00:00Z'), (12, 2, 2, '2024-01-01T00:00:00Z')")
  for (const n of ['a', 'b', 'c']) await db.query(`CREATE TABLE ${n} (x INT)`)
  return db
}

t.test('a name both sides have, in an ON equality: QuestDB\'s error and position', async (t) => {
  const db = await setup()
  const cases: [string, number, string][] = [
    // QuestDB's own cases
    ['SELECT l.id FROM lp_join_l l JOIN lp_join_r r ON k=r.k', 49, 'Ambiguous column [name=k]'],
    ['SELECT * FROM a, b RIGHT JOIN c ON c.x = x', 41, 'Ambiguous column [name=x]'],
    ['SELECT id FROM lp_join_l l JOIN lp_join_r r ON l.k=r.k', 7, 'Ambiguous column [name=id]'],
    // either side of the '=', every join kind
    ['SELECT l.id FROM lp_join_l l JOIN lp_join_r r ON r.k=k', 53, 'Ambiguous column [name=k]'],
    ['SELECT l.id FROM lp_join_l l LEFT JOIN lp_join_r r ON k=r.k', 54, 'Ambiguous column [name=k]'],
    ['SELECT l.id FROM lp_join_l l RIGHT JOIN lp_join_r r ON k=r.k', 55, 'Ambiguous column [name=k]'],
    ['SELECT l.id FROM lp_join_l l FULL JOIN lp_join_r r ON k=r.k', 54, 'Ambiguous column [name=k]'],
    ['SELECT l.id FROM lp_join_l l JOIN lp_join_r r ON l.k=r.k AND k + 1 = r.id', 61, 'Ambiguous column [name=k]'],
    ['SELECT l.id FROM lp_join_l l ASOF JOIN lp_join_r r ON k=r.k', 54, 'Ambiguous column [name=k]'],
    ['SELECT l.id FROM lp_join_l l LT JOIN lp_join_r r ON l.k=k', 56, 'Ambiguous column [name=k]'],
    ['SELECT l.id FROM lp_join_l l SPLICE JOIN lp_join_r r ON k=r.k', 56, 'Ambiguous column [name=k]'],
    ['SELECT sum(r.k) FROM lp_join_l l WINDOW JOIN lp_join_r r ON k = r.k RANGE BETWEEN 1 second PRECEDING AND 1 second FOLLOWING', 60, 'Ambiguous column [name=k]'],
    ['SELECT sum(r.k) FROM lp_join_l l HORIZON JOIN lp_join_r r ON k = r.k LIST (0) AS h', 61, 'Ambiguous column [name=k]'],
  ]
  for (const [sql, pos, message] of cases) {
    const e = await errorOf(db, sql)
    t.equal(e.code, '42702', `${sql}: SQLSTATE`)
    t.equal(e.message, message, sql)
    t.equal(e.position, pos, `${sql}: position`)
  }
  await db.close()
})

t.test('a qualifier that names no table, a column a table lacks: QuestDB\'s errors and positions', async (t) => {
  const db = await setup()
  const cases: [string, number, string, string][] = [
    ['SELECT l.id FROM lp_join_l l JOIN lp_join_r r ON l.k=missing.k', 53, '42P01', 'Invalid table name or alias'],
    ['SELECT * FROM a, b RIGHT JOIN c ON c.x = zz.x', 41, '42P01', 'Invalid table name or alias'],
    ['SELECT l.id FROM lp_join_l l JOIN lp_join_r r ON l.missing=r.k', 49, '42703', 'Invalid column: l.missing'],
    ['SELECT * FROM a, b RIGHT JOIN c ON c.x = nope', 41, '42703', 'Invalid column: nope'],
    ['SELECT zz.x FROM a', 7, '42P01', 'Invalid table name or alias'],
  ]
  for (const [sql, pos, code, message] of cases) {
    const e = await errorOf(db, sql)
    t.equal(e.code, code, `${sql}: SQLSTATE`)
    t.equal(e.message, message, sql)
    t.equal(e.position, pos, `${sql}: position`)
  }
  await db.close()
})

t.test('two key columns of unrelated types: QuestDB\'s join column type mismatch, at the right side\'s column', async (t) => {
  const db = await setup()
  await db.query('CREATE TABLE trades (sym SYMBOL, price DOUBLE, ts TIMESTAMP) TIMESTAMP(ts)')
  await db.query('CREATE TABLE prices (sym SYMBOL, price DOUBLE, ts TIMESTAMP) TIMESTAMP(ts)')
  await db.query('CREATE TABLE kinds (i INT, l LONG, d DATE, s SYMBOL, c CHAR, v VARCHAR, ts TIMESTAMP) TIMESTAMP(ts)')
  const cases: [string, number][] = [
    // QuestDB's own cases (JoinTest, TemporalJoin / HORIZON static errors)
    ['SELECT l.id FROM lp_join_l l JOIN lp_join_r r ON l.k=r.ts', 53],
    ['SELECT avg(p.price) FROM trades t HORIZON JOIN prices p ON (t.price = p.sym) RANGE FROM 0s TO 2s STEP 1s AS h', 70],
    // the right side's column wherever it is written, every join kind
    ['SELECT l.id FROM lp_join_l l JOIN lp_join_r r ON r.ts=l.k', 49],
    ['SELECT l.id FROM lp_join_l l LEFT JOIN lp_join_r r ON l.k=r.ts', 58],
    ['SELECT l.id FROM lp_join_l l FULL JOIN lp_join_r r ON l.k=r.ts', 58],
    ['SELECT a.i FROM kinds a JOIN kinds b ON a.s = b.i', 46],
    ['SELECT a.i FROM kinds a JOIN kinds b ON a.d = b.ts', 46],
    ['SELECT a.i FROM kinds a RIGHT JOIN kinds b ON a.v = b.c', 52],
    ['SELECT a.i FROM kinds a ASOF JOIN kinds b ON b.s = a.i', 45],
    ['SELECT sum(p.price) FROM trades t WINDOW JOIN prices p ON (p.sym = t.price) RANGE BETWEEN 1 second PRECEDING AND 1 second FOLLOWING', 59],
    // numbers of two widths are refused too (HashJoinGroupByKeysTest's INT / LONG, LONG / DOUBLE)
    ['SELECT a.i FROM kinds a JOIN kinds b ON a.i = b.l', 46],
    ['SELECT a.i FROM kinds a LEFT JOIN kinds b ON b.l = a.i', 45],
    ['SELECT a.i FROM kinds a ASOF JOIN kinds b ON a.l = b.i', 51],
    ['SELECT a.i FROM kinds a JOIN kinds b ON a.l = b.l::DOUBLE AND a.l = b.i', 68],
  ]
  for (const [sql, pos] of cases) {
    const e = await errorOf(db, sql)
    t.equal(e.code, '42804', `${sql}: SQLSTATE`)
    t.equal(e.message, 'join column type mismatch', sql)
    t.equal(e.position, pos, `${sql}: position`)
  }
  // the text types key each other; a cast makes two numbers one type; an expression is widened
  for (const on of ['a.s = b.v', 'a.v = b.s', 'a.i::LONG = b.l', 'a.i::string = b.v', 'a.i + 0 = b.ts::long']) {
    t.same((await db.query(`SELECT count() FROM kinds a JOIN kinds b ON ${on}`)).rows.map((r) => Number(r[0])), [0], `ON ${on} binds`)
  }
  await db.close()
})

t.test('a FROM item whose name or alias one before it has: QuestDB\'s Duplicate table or alias', async (t) => {
  const db = await setup()
  const cases: [string, number, string][] = [
    // QuestDB's own case (JoinTest): at the alias
    ['SELECT l.id FROM lp_join_l l JOIN lp_join_r l ON l.k=l.k', 44, 'l'],
    // a table joined to itself without an alias: at its name; every join form; names ignore case
    ['SELECT * FROM a, a', 17, 'a'],
    ['SELECT * FROM a JOIN a ON (x)', 21, 'a'],
    ['SELECT * FROM lp_join_l a ASOF JOIN lp_join_r a', 46, 'a'],
    ['SELECT sum(a.k) FROM lp_join_l a WINDOW JOIN lp_join_r a ON (k) RANGE BETWEEN 1 second PRECEDING AND 1 second FOLLOWING', 55, 'a'],
    ['SELECT avg(a.k) FROM lp_join_l a HORIZON JOIN lp_join_r a ON (k) LIST (0) AS h', 56, 'a'],
    // HORIZON JOIN's offsets are a FROM item of their own: their alias may repeat neither table's (at the alias)
    ['SELECT avg(b.k) FROM lp_join_l a HORIZON JOIN lp_join_r b ON (k) LIST (0) AS a', 77, 'a'],
    ['SELECT avg(b.k) FROM lp_join_l a HORIZON JOIN lp_join_r b ON (k) RANGE FROM 0s TO 1s STEP 1s AS B', 96, 'B'],
    ['SELECT avg(lp_join_r.k) FROM lp_join_l HORIZON JOIN lp_join_r ON (k) LIST (0) AS lp_join_l', 81, 'lp_join_l'],
    // two WINDOW JOIN right tables of one name
    ['SELECT sum(b.k) FROM lp_join_l a WINDOW JOIN lp_join_r b ON (k) RANGE BETWEEN 1 second PRECEDING AND 1 second FOLLOWING WINDOW JOIN lp_join_r b ON (k) RANGE BETWEEN 1 second PRECEDING AND 1 second FOLLOWING', 142, 'b'],
    ['SELECT * FROM lp_join_l a JOIN lp_join_r b ON a.k = b.k LEFT JOIN lp_join_r B ON a.k = B.k', 76, 'B'],
  ]
  for (const [sql, pos, name] of cases) {
    const e = await errorOf(db, sql)
    t.equal(e.code, '42712', `${sql}: SQLSTATE`)
    t.equal(e.message, `Duplicate table or alias: ${name}`, sql)
    t.equal(e.position, pos, `${sql}: position`)
  }
  // aliases make a self-join; a LATERAL subquery has its own scope
  t.same((await db.query('SELECT count() FROM a JOIN a b ON (x)')).rows.map((r) => Number(r[0])), [0])
  t.same((await db.query('SELECT count() FROM a x, a y')).rows.map((r) => Number(r[0])), [0])
  t.same((await db.query('SELECT count() FROM lp_join_l a, LATERAL (SELECT * FROM lp_join_r a WHERE a.k = 1) b')).rows.map((r) => Number(r[0])), [2])
  await db.close()
})

t.test('an unaliased subquery in a join is QuestDB\'s _xQdbA<n>: its inner table names stay inside it', async (t) => {
  const db = await setup()
  const rows = async (sql: string) => (await db.query(sql)).rows.map((r) => r.map((v) => (typeof v === 'bigint' ? Number(v) : v)))
  // the subquery and the table it reads are two FROM items
  const self = await db.query('SELECT * FROM (SELECT id, k FROM lp_join_l) JOIN lp_join_l ON (k) ORDER BY id')
  t.same(self.columns.map((c) => c.name), ['id', 'k', 'id1', 'k1', 'lonly', 'ts'])
  t.same(self.rows.map((r) => [Number(r[0]), Number(r[2])]), [[1, 1], [2, 2]])
  // a qualifier names the table, not the subquery; the hidden name qualifies the subquery
  t.same(await rows('SELECT lp_join_l.lonly, _xQdbA0.id FROM (SELECT id + 10 id, k FROM lp_join_l) JOIN lp_join_l ON (k) ORDER BY 2'), [[1, 11], [5, 12]])
  t.same(await rows('SELECT _xQdbA1.id FROM (SELECT * FROM lp_join_l) JOIN (SELECT id, k FROM lp_join_r) ON (k) ORDER BY 1'), [[10], [12]])
  const inner = await errorOf(db, 'SELECT lp_join_l.id FROM (SELECT * FROM lp_join_l) JOIN lp_join_r r ON (k)')
  t.equal(inner.code, '42P01')
  t.equal(inner.message, 'Invalid table name or alias')
  t.equal(inner.position, 7)
  // an alias the user gives that a hidden name repeats (QuestDB: at 0 when the subquery comes later; here at the subquery)
  for (const [sql, pos] of [
    ['SELECT * FROM lp_join_l _xQdbA0 ASOF JOIN (SELECT * FROM lp_join_r) ON (k)', 42],
    ['SELECT * FROM (SELECT * FROM lp_join_r) JOIN lp_join_l _xqdba0 ON (k)', 55],
  ] as const) {
    const e = await errorOf(db, sql)
    t.equal(e.code, '42712', sql)
    t.match(e.message, /^Duplicate table or alias: _xQdbA0$/i, sql)
    t.equal(e.position, pos, `${sql}: position`)
  }
  // without a join a subquery's columns keep their table's name, as before
  t.same(await rows('SELECT lp_join_l.id FROM (SELECT * FROM lp_join_l) ORDER BY 1'), [[1], [2]])
  await db.close()
})

t.test('names one side has, and qualified names, still make keys', async (t) => {
  const db = await setup()
  const rows = async (sql: string) => (await db.query(sql)).rows.map((r) => r.map((v) => (typeof v === 'bigint' ? Number(v) : v)))
  t.same(await rows('SELECT l.id, r.id FROM lp_join_l l JOIN lp_join_r r ON l.k = r.k ORDER BY l.id'), [[1, 10], [2, 12]])
  t.same(await rows('SELECT l.id, r.id FROM lp_join_l l JOIN lp_join_r r ON lonly = r.k ORDER BY l.id'), [[1, 10]])
  t.same(await rows('SELECT l.id, r.id FROM lp_join_l l JOIN lp_join_r r ON l.k = ronly ORDER BY l.id'), [[1, 10], [2, 12]])
  t.same(await rows('SELECT l.id, r.id FROM lp_join_l l LEFT JOIN lp_join_r r ON lonly = ronly ORDER BY l.id'), [[1, 10], [2, null]])
  t.same(await rows('SELECT l.id, r.id FROM lp_join_l l ASOF JOIN lp_join_r r ON lonly = r.k ORDER BY l.id'), [[1, 10], [2, null]])
  t.same(await rows('SELECT l.id, r.id FROM lp_join_l l JOIN lp_join_r r ON (k) ORDER BY l.id'), [[1, 10], [2, 12]])
  await db.close()
})

t.test('CROSS JOIN with an ON: QuestDB\'s Cross joins cannot have join clauses, at the ON', async (t) => {
  const db = await setup()
  const cases: [string, number][] = [
    // QuestDB's own case (JoinTest)
    ['SELECT l.id FROM lp_join_l l CROSS JOIN lp_join_r r ON l.k=r.k AND null', 52],
    ['SELECT l.id FROM lp_join_l l CROSS JOIN lp_join_r ON (k)', 50],
    ['SELECT l.id FROM lp_join_l l CROSS JOIN (SELECT * FROM lp_join_r) AS r ON l.k = r.k', 71],
    ['SELECT * FROM a CROSS JOIN "b" ON', 31],
  ]
  for (const [sql, pos] of cases) {
    const e = await errorOf(db, sql)
    t.equal(e.code, '42601', `${sql}: SQLSTATE`)
    t.equal(e.message, 'Cross joins cannot have join clauses', sql)
    t.equal(e.position, pos, `${sql}: position`)
  }
  // an ON anywhere else is still the parser's own error
  for (const sql of ['SELECT * FROM a CROSS JOIN b WHERE x = 1 ON', 'SELECT * FROM a JOIN b ON a.x = b.x ON', 'SELECT * FROM a CROSS JOIN b, c ON']) {
    t.match((await errorOf(db, sql)).message, /^unexpected 'ON'/, sql)
  }
  await db.close()
})

t.test('JOIN ... USING (k): not QuestDB\'s dialect, a syntax error at the USING', async (t) => {
  const db = await setup()
  const cases: [string, number][] = [
    // `using` read as the table's alias with a column list (bound, then refused)
    ['SELECT * FROM lp_join_l JOIN lp_join_r USING (k)', 39],
    ['SELECT * FROM lp_join_l l LEFT JOIN (SELECT * FROM lp_join_r) USING (k, id)', 62],
    ['SELECT * FROM lp_join_l l JOIN lp_join_r USING(k)', 41],
    // after an alias the parser stops at it
    ['SELECT * FROM lp_join_l l JOIN lp_join_r r USING (k)', 43],
    ['SELECT * FROM lp_join_l AS l FULL JOIN lp_join_r AS r using (k)', 54],
    ['SELECT * FROM lp_join_l l JOIN (SELECT * FROM lp_join_r) r USING (k)', 59],
    // a table function's or a LATERAL subquery's column list would rename columns of a join without ON
    ['SELECT * FROM lp_join_l JOIN long_sequence(2) USING (x)', 46],
    ['SELECT * FROM lp_join_l l JOIN LATERAL (SELECT * FROM lp_join_r) USING (k)', 65],
    ['SELECT * FROM lp_join_l l JOIN LATERAL (SELECT * FROM lp_join_r) r USING (k)', 67],
    ['SELECT * FROM lp_join_l JOIN long_sequence(2) x USING (x)', 48],
  ]
  for (const [sql, pos] of cases) {
    const e = await errorOf(db, sql)
    t.equal(e.code, '42601', `${sql}: SQLSTATE`)
    t.match(e.message, /^'on' expected: JOIN \.\.\. USING \(k\) is not supported; join on same-named columns with ON \(k\)$/, sql)
    t.equal(e.position, pos, `${sql}: position`)
  }
  // a table function's column list and an alias named using elsewhere are unchanged
  t.match((await errorOf(db, 'SELECT * FROM lp_join_l x(a)')).message, /^column aliases are supported for table functions only/)
  t.same((await db.query('SELECT using.k FROM lp_join_l using ORDER BY k')).rows.map((r) => Number(r[0])), [1, 2])
  t.same((await db.query('SELECT l.id, r.id FROM lp_join_l l JOIN lp_join_r r ON (k) ORDER BY l.id')).rows.map((r) => r.map(Number)), [[1, 10], [2, 12]])
  await db.close()
})

t.test('a time-series join whose left side has no timestamp, a join after it: QuestDB\'s error at the join', async (t) => {
  const db = await setup()
  await db.query('CREATE TABLE lp_nots_l (id INT, k INT, ts TIMESTAMP)')
  // QuestDB's own case (SqlLogicalJoinTest's testJoinValidationAndMissingTimestampRecover): at SPLICE
  const sql = 'SELECT l.id FROM lp_nots_l l SPLICE JOIN lp_join_r r ON l.k=r.k JOIN lp_join_r x ON l.k=x.k'
  const e = await errorOf(db, sql)
  t.equal(e.message, 'left side of time series join has no timestamp')
  t.equal(e.position, 29)
  // the statement after it compiles
  t.same((await db.query('SELECT count() FROM lp_join_l l JOIN lp_join_r r ON l.k=r.k')).rows.map((r) => Number(r[0])), [2])
  await db.close()
})

t.test('literal terms of WHERE and the INNER ONs: QuestDB\'s boolean checks, at the literal', async (t) => {
  const db = await setup()
  const w = 'SELECT l.id FROM lp_join_l l JOIN lp_join_r r ON l.k=r.k WHERE '
  const bee = 'boolean expression expected'
  // QuestDB's own cases and positions (SqlLogicalJoinTest)
  const cases: [string, number, string][] = [
    [`${w}l.id<r.id AND 1`, 77, bee],
    [`${w}null AND 1`, 63, 'expression type mismatch, expected: BOOLEAN, actual: NULL'],
    [`${w}1 AND null`, 63, 'expression type mismatch, expected: BOOLEAN, actual: INT'],
    [`${w}l.id>0 AND null`, 74, bee],
    [`${w}null AND l.id>0`, 63, bee],
    [`${w}true AND null`, 72, bee],
    [`${w}null AND abs(1)>0`, 63, bee],
    [`${w}null AND $1`, 63, bee],
    ['SELECT l.id FROM lp_join_l l CROSS JOIN lp_join_r r WHERE l.id>0 AND null', 69, bee],
    ['SELECT l.id FROM lp_join_l l LEFT JOIN lp_join_r r ON l.k=r.k WHERE null AND l.id>0', 68, bee],
    ['SELECT l.id FROM lp_join_l l RIGHT JOIN lp_join_r r ON l.k=r.k WHERE true AND null', 78, bee],
    ['SELECT l.id FROM lp_join_l l FULL JOIN lp_join_r r ON l.k=r.k WHERE l.id>0 AND null', 79, bee],
    [`${w}l.id IN (1,2,3) AND null`, 83, bee],
    ['SELECT l.id FROM lp_join_l l JOIN lp_join_r r ON l.k=r.k AND null WHERE true', 61, bee],
    ['SELECT l.id FROM lp_join_l l JOIN lp_join_r r ON l.k=r.k AND true JOIN lp_join_l x ON r.k=x.k AND null', 98, bee],
    ['SELECT l.id FROM lp_join_l l JOIN lp_join_r r ON l.k=r.k AND null JOIN lp_join_l x ON r.k=x.k WHERE l.id>0', 61, bee],
  ]
  for (const [sql, pos, message] of cases) {
    const e = await errorOf(db, sql)
    t.equal(e.code, '42804', `${sql}: SQLSTATE`)
    t.equal(e.message, message, sql)
    t.equal(e.position, pos, `${sql}: position`)
  }
  // the groups QuestDB accepts
  for (const sql of [`${w}null AND true`, `${w}false AND null`, `${w}null AND true AND $1`,
    'SELECT l.id FROM lp_join_l l JOIN lp_join_r r ON l.k=r.k AND null WHERE false',
    'SELECT l.id FROM lp_join_l l JOIN lp_join_r r ON l.k=r.k AND null JOIN lp_join_l x ON r.k=x.k AND true']) {
    t.same((await db.query(sql, [true])).rows, [], sql)
  }
  // outside joins the binder decides as before: a lone NULL filters everything out
  t.same((await db.query('SELECT id FROM lp_join_l WHERE id > 0 AND null')).rows, [])
  await db.close()
})
