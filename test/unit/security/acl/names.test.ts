import t from 'tap'
import { Database } from '../../../../lib/index.js'

t.test('acl.entity.name.max.length bounds user, group and service-account names', async (t) => {
  const db = await Database.open({ acl: { enabled: true, entityNameMaxLength: 8 } })
  t.teardown(() => db.close())
  await db.query('create user abcdefgh')
  for (const sql of ['create user abcdefghi', 'create group "abcdefghi"', "create service account 'abcdefghi'"]) {
    await t.rejects(db.query(sql), { code: '42622', message: /entity name is too long \[name=abcdefghi, max=8\]/ }, sql)
  }
  await t.rejects(db.query("create user ' bob'"), { code: '42602' })
  t.same((await db.query('show users')).rows, [['abcdefgh'], ['admin']])
})

t.test('a user dropped and created again starts with nothing', async (t) => {
  const db = await Database.open({ acl: { enabled: true } })
  t.teardown(() => db.close())
  await db.query('create user bob')
  await db.query('create group g')
  await db.query('add user bob to g')
  await db.query('grant http to bob')
  await db.query('drop user bob')
  await db.query('create user bob')
  t.same((await db.query('show permissions bob')).rows, [])
  t.same((await db.query('show groups bob')).rows, [])
})
