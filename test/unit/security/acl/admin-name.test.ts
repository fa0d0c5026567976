/**
 * The built-in admin is named by `acl.admin.user` everywhere: the library API's default session
 * and `db.session()` without a principal run as it (current_user(), SHOW USER), with access
 * control on or off.
 */
import t from 'tap'
import { Database } from '../../../../lib/index.js'

for (const enabled of [false, true]) {
  t.test(`acl.enabled=${enabled}: the default session's principal is acl.admin.user`, async (t) => {
    const db = await Database.open({ acl: { enabled, admin: { user: 'root', password: 'pw' }, passwordHashIterations: 1 } })
    t.teardown(() => db.close())
    t.same((await db.query('select current_user()')).rows, [['root']])
    t.same((await db.query('select current_user()', [], { session: db.session() })).rows, [['root']])
    t.equal((await db.authenticate('root', 'pw'))?.name, 'root')
    if (enabled) {
      // the default session is the built-in admin by name, so statements about it see it as such
      t.same((await db.query('show users')).rows, [['root']])
      await t.rejects(db.query('create user root'), { code: '42710', message: /built-in admin/ })
      await t.rejects(db.query('create user admin').then(() => db.query("grant select on all tables to root")), { code: '42501' })
    }
  })
}
