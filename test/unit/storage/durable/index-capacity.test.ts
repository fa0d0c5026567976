/**
 * `INDEX CAPACITY n` is table metadata: it survives close and reopen of a data directory, through
 * CREATE TABLE, ALTER TABLE ... ADD INDEX CAPACITY n and DROP INDEX, as SHOW COLUMNS and
 * table_columns() show it (`indexBlockCapacity`, QuestDB's default 256 when not given).
 */
import t from 'tap'
import { Database } from '../../../../lib/index.js'
import { afterReopen, tmpDir } from '../helpers.js'

const CAPACITIES = `SELECT "column", indexed, indexBlockCapacity FROM table_columns('t') ORDER BY "column"`

t.test('index capacities survive a reopen', async (t) => {
  const dir = tmpDir(t)
  const db = await Database.open({ path: dir })
  await db.query("CREATE TABLE t (ts TIMESTAMP, a SYMBOL INDEX CAPACITY 100, b SYMBOL, c SYMBOL INDEX CAPACITY 64, d SYMBOL), INDEX(b CAPACITY 4) TIMESTAMP(ts) PARTITION BY DAY")
  await db.query("INSERT INTO t VALUES ('2024-01-01T00:00:00Z', 'x', 'y', 'z', 'w')")
  await db.query('ALTER TABLE t ALTER COLUMN d ADD INDEX CAPACITY 1000')
  await db.query('ALTER TABLE t ALTER COLUMN c DROP INDEX')
  await db.close()
  const [capacities, show, rows, ddl] = await afterReopen(dir, CAPACITIES, 'SHOW COLUMNS FROM t', "SELECT count() FROM t WHERE d = 'w'", 'SHOW CREATE TABLE t')
  t.same(capacities, [['a', true, 128], ['b', true, 4], ['c', false, 256], ['d', true, 1024], ['ts', false, 256]])
  t.same(show!.map((r) => r[3]), [256, 128, 4, 256, 1024])
  t.same(rows, [[1n]])
  const text = String(ddl![0]![0])
  t.match(text, /\ta SYMBOL CAPACITY 256 CACHE INDEX CAPACITY 128,\n/)
  t.match(text, /\tc SYMBOL CAPACITY 256 CACHE,\n/)
  t.match(text, /\td SYMBOL CAPACITY 256 CACHE INDEX CAPACITY 1024\n\)/)
})
