/**
 * The engine's side of access control: every statement is authorized from its cached
 * StatementInfo before it does any work, and catalog listings (tables(), SHOW TABLES / COLUMNS,
 * table_columns(), pg_catalog through them) show only the tables `canSee` allows.
 *
 * The AccessControl here is the database's own, with `authorize` and `canSee` replaced by a small
 * policy (hide table `secret`, refuse INSERT into `t`): what is under test is the engine calling
 * them, not the grant model (test/unit/security/acl/ tests that).
 */
import t from 'tap'
import { Database, SqlError, type Principal, type RequiredPermission } from '../../../lib/index.js'

interface Policy {
  authorize(principal: Principal, required: readonly RequiredPermission[]): void
  canSee(principal: Principal, table: string): boolean
}

async function openWithPolicy(): Promise<{ db: Database; calls: (readonly RequiredPermission[])[] }> {
  const db = await Database.open({ acl: { enabled: true } })
  await db.query('create table t (ts timestamp, a int) timestamp(ts) partition by day')
  await db.query('create table secret (ts timestamp, pin int) timestamp(ts) partition by day')
  const calls: (readonly RequiredPermission[])[] = []
  const acl = (db as unknown as { acl: Policy }).acl
  acl.authorize = (p, required) => {
    calls.push(required)
    if (p.name !== 'admin' && required.some((r) => r.permission === 'INSERT' && r.table === 't')) {
      throw new SqlError('42501', `Access denied for ${p.name} [INSERT on t]`)
    }
  }
  acl.canSee = (p, table) => p.name === 'admin' || table !== 'secret'
  return { db, calls }
}

const bob: Principal = { name: 'bob', groups: [], admin: false, kind: 'user' }

t.test('authorize gets the statement\'s permissions, the same cached list each time, before any work', async (t) => {
  const { db, calls } = await openWithPolicy()
  const session = db.session(bob)
  calls.length = 0
  await db.query('select a from t', [], { session })
  await db.query('select a from t', [], { session })
  t.equal(calls.length, 2, 'once per execution')
  t.same(calls[0], [{ permission: 'SELECT', table: 't', columns: ['a'] }])
  t.equal(calls[1], calls[0], 'the same cached permission list, not worked out again')
  await t.rejects(db.query("insert into t values ('2024-01-01', 1)", [], { session }), { code: '42501', message: 'Access denied for bob [INSERT on t]' })
  t.same((await db.query('select count() from t')).rows, [[0n]], 'the denied INSERT wrote nothing')
  // a prepared statement is checked at each run, from its info
  const ps = db.prepare('insert into t values ($1, $2)')
  await t.rejects(ps.query(['2024-01-01', 1], { session }), { code: '42501' })
  t.same(ps.info.permissions, [{ permission: 'INSERT', table: 't' }])
})

t.test('acl off: authorize is not called', async (t) => {
  const db = await Database.open()
  let called = 0
  ;(db as unknown as { acl: Policy }).acl.authorize = () => { called++ }
  await db.query('select 1')
  t.equal(called, 0)
})

t.test('a table the principal may not see is not listed and does not exist for metadata', async (t) => {
  const { db } = await openWithPolicy()
  const session = db.session(bob)
  const names = async (sql: string, s = session) => (await db.query(sql, [], { session: s })).rows.map((r) => r[0])
  t.same(await names('select table_name from tables() order by table_name'), ['t'])
  t.same(await names('show tables'), ['t'])
  t.same(await names('select table_name from tables() order by table_name', db.session()), ['secret', 't'], 'the admin sees both')
  t.same(await names('show tables', db.session()), ['secret', 't'])
  const missing = { code: '42P01', message: 'table does not exist [table=secret]' }
  await t.rejects(db.query('show columns from secret', [], { session }), missing)
  await t.rejects(db.query('show create table secret', [], { session }), missing)
  await t.rejects(db.query('show partitions from secret', [], { session }), missing)
  await t.rejects(db.query("select * from table_columns('secret')", [], { session }), missing)
  await t.rejects(db.query("select * from table_partitions('secret')", [], { session }), missing)
  t.same(await names("select \"column\" from table_columns('t')"), ['ts', 'a'])
  t.same(await names("select \"column\" from table_columns('secret')", db.session()), ['ts', 'pin'])
})

t.test('one session\'s catalog view follows GRANT and REVOKE at the next statement (the view is kept per principal)', async (t) => {
  const db = await Database.open({ acl: { enabled: true, passwordHashIterations: 1 } })
  t.teardown(() => db.close())
  await db.query('create table t (ts timestamp, a int) timestamp(ts) partition by day')
  await db.query('create table u (ts timestamp, b int) timestamp(ts) partition by day')
  await db.query("create user bob with password 'pw'")
  await db.query('grant select on u to bob')
  const bob = db.session((await db.authenticate('bob', 'pw'))!)
  const listed = async (): Promise<string[]> => (await db.query('select table_name from tables() order by 1', [], { session: bob })).rows.map((r) => String(r[0]))
  const shown = async (): Promise<string[]> => (await db.query('show tables', [], { session: bob })).rows.map((r) => String(r[0])).sort()
  t.same(await listed(), ['u'])
  t.same(await shown(), ['u'])
  await db.query('grant select on t to bob')
  t.same(await listed(), ['t', 'u'], 'tables(): the grant shows at the next statement of the same session')
  t.same(await shown(), ['t', 'u'], 'SHOW TABLES too')
  await db.query('revoke select on t from bob')
  t.same(await listed(), ['u'], 'and the revoke hides it again')
  await db.query('alter user bob disable')
  await t.rejects(db.query('select 1', [], { session: bob }), { code: '42501' }, 'a disabled user is refused at the next statement')
})
