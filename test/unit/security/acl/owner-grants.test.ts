import t from 'tap'
import { Database } from '../../../../lib/index.js'

t.test('the creator of a table gets every table permission on it, with the grant option', async (t) => {
  const db = await Database.open({ acl: { enabled: true } })
  t.teardown(() => db.close())
  await db.query('create user bob')
  await db.query('create user carol')
  await db.query('grant create table to bob')
  const bob = db.session({ name: 'bob', groups: [], admin: false, kind: 'user' })
  await db.query('create table mine (ts timestamp, v double) timestamp(ts)', [], { session: bob })
  await db.query('create table copy (like mine)', [], { session: bob })
  const rows = (await db.query('show permissions bob')).rows
  for (const table of ['mine', 'copy']) {
    const on = rows.filter((r) => r[1] === table)
    t.ok(on.length > 20, `${on.length} permissions on ${table}`)
    t.ok(on.every((r) => r[2] === null && r[3] === true && r[4] === 'G'), 'table level, with the grant option')
    t.ok(['SELECT', 'INSERT', 'UPDATE', 'DROP TABLE', 'ADD COLUMN', 'TRUNCATE TABLE'].every((p) => on.some((r) => r[0] === p)))
  }
  // ... which lets the owner pass them on
  await db.query('grant select on mine to carol', [], { session: bob })
  t.same((await db.query('show permissions carol')).rows, [['SELECT', 'mine', null, false, 'G']])
  // the admin gets no owner grants (it holds everything); IF NOT EXISTS on an existing table grants nothing
  await db.query('create table adm (a int)')
  await db.query('grant create table to carol')
  const carol = db.session({ name: 'carol', groups: [], admin: false, kind: 'user' })
  await db.query('create table if not exists adm (a int)', [], { session: carol })
  t.same((await db.query('show permissions carol')).rows.filter((r) => r[1] === 'adm'), [])
  // owner grants last until revoked
  await db.query('revoke all on mine from bob')
  t.same((await db.query('show permissions bob')).rows.filter((r) => r[1] === 'mine'), [])
})
