/**
 * Hostile table and column names against a data directory: nothing is ever written outside it,
 * each name is refused with a clear error (42602 / 42622, at the name) or stored safely, and
 * the catalog is the same after close and reopen.
 */
import t from 'tap'
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Database, SqlError } from '../../lib/index.js'

/** A sandbox `<tmp>/box/a/b/root` with the data directory deep enough that `../../x` stays inside the sandbox. */
function sandbox(t: { teardown(f: () => void): void }): { box: string; root: string } {
  const box = mkdtempSync(join(tmpdir(), 'epochdb-names-'))
  t.teardown(() => rmSync(box, { recursive: true, force: true }))
  const root = join(box, 'a', 'b', 'root')
  mkdirSync(root, { recursive: true })
  return { box, root }
}

/** Every path under `dir`, relative to it. */
function tree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()
}

const quote = (name: string): string => '"' + name.replace(/"/g, '""') + '"'

const ESCAPES = ['../x', '../../escape_create', 'a/b', 'a\\b', '..', '.', '.hidden', 'trailing.', 'a..b', 'nul\u0000byte', 'ctl\u0001x', 'tab\tx', 'nl\nx', 'del\u007fx', 'x:y', 'x~1', 'x*y', ' lead', 'trail ']

t.test('names that try to escape are refused with 42602 at the name, and nothing is written outside the data directory', async (t) => {
  const { box, root } = sandbox(t)
  const db = await Database.open({ path: root })
  await db.query('create table base (x long)')
  const outside = () => tree(box).filter((p) => !p.startsWith(join('a', 'b', 'root')))
  const before = outside()
  for (const name of ESCAPES) {
    const sql = `create table ${quote(name)} (x long)`
    const e = await db.query(sql).then(() => undefined, (e: unknown) => e)
    t.ok(e instanceof SqlError, `create ${JSON.stringify(name)} refused`)
    t.match(e, { code: '42602', message: /invalid table name/, position: sql.indexOf('"') }, JSON.stringify(name))
    await t.rejects(db.query(`create table ${quote(name)} as (select 1 x from long_sequence(1))`), { code: '42602' }, `CTAS ${JSON.stringify(name)}`)
    await t.rejects(db.query(`rename table base to ${quote(name)}`), { code: '42602' }, `rename to ${JSON.stringify(name)}`)
  }
  t.same(outside(), before, 'nothing outside the data directory')
  t.same((await db.query('select table_name from tables()')).rows, [['base']])
  await db.close()
  const again = await Database.open({ path: root })
  t.same((await again.query('select table_name from tables()')).rows, [['base']], 'the same after reopen')
  await again.close()
  t.same(outside(), before)
})

t.test('column names: QuestDB rules for CREATE, CREATE AS expressions, ADD and RENAME COLUMN', async (t) => {
  const { root } = sandbox(t)
  const db = await Database.open({ path: root })
  await db.query('create table c (x long)')
  for (const name of ['../x', 'a/b', 'a.b', 'a-b', '..', 'nul\u0000', 'x"y', '']) {
    await t.rejects(db.query(`create table c2 (${quote(name)} long)`), { code: name === '' ? /42602|42601/ : '42602' }, `create column ${JSON.stringify(name)}`)
    if (name === '') continue
    await t.rejects(db.query(`alter table c add column ${quote(name)} long`), { code: '42602' }, `add ${JSON.stringify(name)}`)
    await t.rejects(db.query(`alter table c rename column x to ${quote(name)}`), { code: '42602' }, `rename ${JSON.stringify(name)}`)
  }
  // a CREATE AS column is named by its alias (or its expression): checked like any other
  await t.rejects(db.query('create table c3 as (select 1 "../up" from long_sequence(1))'), { code: '42602', message: /invalid column name/ })
  await t.rejects(db.query('create table c3 as (select 1 "a.b", 2 x from long_sequence(1))'), { code: '42602' })
  t.same((await db.query('select table_name from tables()')).rows, [['c']])
  t.same((await db.query("select column from table_columns('c')")).rows, [['x']])
  await db.close()
})

t.test('long names: 42622 past 127 characters (and 127 bytes for columns); a long Unicode table name maps to a bounded directory', async (t) => {
  const { root } = sandbox(t)
  const db = await Database.open({ path: root })
  const long = 'n'.repeat(200)
  await t.rejects(db.query(`create table ${long} (x long)`), { code: '42622', message: /table name is too long/, position: 13 })
  await t.rejects(db.query(`create table ok (${long} long)`), { code: '42622', message: /column name is too long/ })
  // 127 characters of 3 bytes each: 381 bytes, more than a file name may have; the directory keeps 64 bytes of it
  const wide = 'é'.repeat(120) + '表'.repeat(7)
  await db.query(`create table ${wide} (x long)`)
  await db.query(`insert into ${wide} values (1)`)
  await t.rejects(db.query(`create table ok (${'é'.repeat(100)} long)`), { code: '42622' }, 'a column name is a file name: its bytes count')
  const max = 'm'.repeat(127)
  await db.query(`create table ${max} (${max} long)`)
  await db.query(`insert into ${max} values (7)`)
  for (const e of readdirSync(root)) t.ok(Buffer.byteLength(e) <= 80, `directory entry ${e.slice(0, 20)}... is short`)
  await db.close()
  const again = await Database.open({ path: root })
  t.same((await again.query(`select x from ${wide}`)).rows, [[1n]])
  t.same((await again.query(`select ${max} from ${max}`)).rows, [[7n]])
  await again.close()
  const small = await Database.open({ path: join(root, '..', 'small'), maxNameLength: 8 })
  await t.rejects(small.query('create table abcdefghi (x long)'), { code: '42622' })
  await small.query('create table abcdefgh (x long)')
  await small.close()
})

t.test('_dropped_ and internal file names are ordinary table names: they survive a restart', async (t) => {
  const { root } = sandbox(t)
  let db = await Database.open({ path: root })
  const names = ['_dropped_victim', '_dropped_1', '_db', '_lock', 'wal.log', '_trash', '_meta', 'new-1', 'default']
  for (const [i, n] of names.entries()) {
    await db.query(`create table ${quote(n)} (x long)`)
    await db.query(`insert into ${quote(n)} values (${i})`)
  }
  await db.query('create table gone (x long)')
  await db.query('drop table gone')
  await db.close()
  db = await Database.open({ path: root })
  for (const [i, n] of names.entries()) t.same((await db.query(`select x from ${quote(n)}`)).rows, [[BigInt(i)]], n)
  t.same((await db.query('select table_name from tables() order by table_name')).rows.map((r) => r[0]), [...names].sort())
  // the internal files are still what they were
  t.ok(readdirSync(root).includes('_db') && readdirSync(root).includes('wal.log'))
  await db.close()
})

t.test('case and Unicode variants: one table per case-insensitive name, distinct directories for the rest', async (t) => {
  const { root } = sandbox(t)
  let db = await Database.open({ path: root })
  await db.query('create table Trades (x long)')
  await t.rejects(db.query('create table TRADES (x long)'), { code: '42P07' })
  await t.rejects(db.query('create table trades (x long)'), { code: '42P07' })
  await db.query('create table "TRADES2" (x long)')
  await t.rejects(db.query('rename table TRADES2 to tRaDeS'), { code: '42P07' })
  // NFC and NFD spellings of é: two names for the engine, two directories (the id tells them apart)
  const nfc = 'caf\u00e9'
  const nfd = 'cafe\u0301'
  await db.query(`create table ${quote(nfc)} (x long)`)
  await db.query(`create table ${quote(nfd)} (x long)`)
  await db.query(`insert into ${quote(nfc)} values (1)`)
  await db.query(`insert into ${quote(nfd)} values (2)`)
  // two column names one normalising file system would store as one file are one name
  await t.rejects(db.query(`create table cols (${quote(nfc)} long, ${quote(nfd)} long)`), { code: '42701' })
  await t.rejects(db.query('create table cols2 (A long, a long)'), { code: '42701' })
  const dirs = readdirSync(root).filter((e) => e.includes('~'))
  t.equal(new Set(dirs.map((d) => d.toLowerCase().normalize('NFC'))).size, dirs.length, 'no two directories fold to one')
  await db.close()
  db = await Database.open({ path: root })
  t.same((await db.query(`select x from ${quote(nfc)}`)).rows, [[1n]])
  t.same((await db.query(`select x from ${quote(nfd)}`)).rows, [[2n]])
  t.same((await db.query('select table_name from tables() order by table_name')).rows.length, 4)
  await db.close()
})

t.test('renamed tables keep their directory and their name after a restart', async (t) => {
  const { root } = sandbox(t)
  let db = await Database.open({ path: root })
  await db.query('create table a (x long)')
  await db.query('insert into a values (1)')
  await db.query('rename table a to "b.c"')
  await db.query('create table a (y long)')
  await db.close()
  db = await Database.open({ path: root })
  t.same((await db.query('select x from "b.c"')).rows, [[1n]])
  t.same((await db.query("select column from table_columns('a')")).rows, [['y']])
  await db.close()
})

t.test('a data directory of the previous layout opens without loss: raw-name directories kept, its _dropped_<id> trash emptied', async (t) => {
  const { root } = sandbox(t)
  let db = await Database.open({ path: root })
  await db.query('create table "my table" (x long)')
  await db.query('insert into "my table" values (1), (2)')
  await db.query('create table "_dropped_victim" (x long)')
  await db.query('insert into "_dropped_victim" values (3)')
  await db.close()
  // the previous layout: `<raw name>~<id>` directories, and `_dropped_<id>` for a drop cut short by a crash
  for (const e of readdirSync(root)) if (e.startsWith('my_table~')) renameSync(join(root, e), join(root, e.replace('my_table', 'my table')))
  mkdirSync(join(root, '_dropped_7', '2024-01-01.1'), { recursive: true })
  writeFileSync(join(root, '_dropped_7', '_meta'), 'junk')
  t.ok(readdirSync(root).some((e) => e.startsWith('my table~')))
  db = await Database.open({ path: root })
  t.same((await db.query('select x from "my table" order by x')).rows, [[1n], [2n]])
  t.same((await db.query('select x from "_dropped_victim"')).rows, [[3n]])
  t.notOk(readdirSync(root).includes('_dropped_7'), 'the old trash is gone')
  await db.query('insert into "my table" values (4)')
  await db.query('drop table "_dropped_victim"')
  await db.close()
  db = await Database.open({ path: root })
  t.same((await db.query('select count() from "my table"')).rows, [[3n]])
  t.same((await db.query('select table_name from tables()')).rows, [['my table']])
  await db.close()
})

t.test('column names equal to internal file and partition names stay apart from them', async (t) => {
  const { root } = sandbox(t)
  let db = await Database.open({ path: root })
  await db.query('create table p (_meta symbol, "default" symbol, "2024" symbol, _txn long, ts timestamp) timestamp(ts) partition by year')
  await db.query("insert into p values ('m', 'd', 'y', 1, '2024-06-01')")
  await db.query('create table q (_meta symbol, "default" symbol, x long)')
  await db.query("insert into q values ('m2', 'd2', 2)")
  await db.close()
  db = await Database.open({ path: root })
  t.same((await db.query('select _meta, "default", "2024", _txn from p')).rows, [['m', 'd', 'y', 1n]])
  t.same((await db.query('select _meta, "default", x from q')).rows, [['m2', 'd2', 2n]])
  await db.close()
})
