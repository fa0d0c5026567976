import t from 'tap'
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Database } from '../../../../lib/index.js'
import { injectFault } from '../../../../lib/storage/durable/io.js'

const acl = { enabled: true, passwordHashIterations: 8 }

function tempDir(t: { teardown: (f: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-acl-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

t.test('the catalog lives in the data directory and survives a reopen', async (t) => {
  const dir = tempDir(t)
  let db = await Database.open({ path: dir, acl })
  await db.query('create table trades (ts timestamp, price double) timestamp(ts)')
  await db.query("create user bob with password 'pw'")
  await db.query("create group g with external alias 'ext'")
  await db.query('add user bob to g')
  await db.query('grant select on trades(price) to g with grant option')
  await db.query('create service account sa owned by g')
  const token = String((await db.query("alter user bob create token type rest with ttl '1d'")).rows[0]![1])
  await db.close()
  t.ok(existsSync(join(dir, '_acl')))
  db = await Database.open({ path: dir, acl })
  t.teardown(() => db.close())
  t.match(await db.authenticate('bob', 'pw'), { name: 'bob' })
  t.match(await db.authenticateToken(token), { name: 'bob' })
  t.same((await db.query('show groups bob')).rows, [['g']])
  t.same((await db.query('show permissions g')).rows, [['SELECT', 'trades', 'price', true, 'G'], ['SELECT', 'trades', 'ts', false, 'I']])
  t.same((await db.query('show service accounts g')).rows, [['sa', true]])
  // the alias survived: a grant to g reaches an external user of group 'ext'
  t.throws(() => db.checkEndpoint(db.externalPrincipal('x', ['ext']), 'HTTP'), { code: '42501' })
  await db.query('grant http to g')
  t.doesNotThrow(() => db.checkEndpoint(db.externalPrincipal('x', ['ext']), 'HTTP'))
})

t.test('a failed write changes nothing: the statement fails, memory and disk keep the old catalog', async (t) => {
  const dir = tempDir(t)
  let db = await Database.open({ path: dir, acl })
  await db.query('create user bob')
  const restore = injectFault(['renameSync', 'writeSync'], 'ENOSPC', (p) => typeof p !== 'string' || p.includes('_acl'))
  try {
    await t.rejects(db.query('create user carol'), { code: '53100' })
    await t.rejects(db.query('grant http to bob'), { code: '53100' })
  } finally { restore() }
  t.same((await db.query('show users')).rows, [['admin'], ['bob']])
  t.same((await db.query('show permissions bob')).rows, [])
  await db.query('create user dave')
  await db.close()
  db = await Database.open({ path: dir, acl })
  t.same((await db.query('show users')).rows, [['admin'], ['bob'], ['dave']])
  await db.close()
})

t.test('an unreadable catalog fails the open with XX001 instead of opening without users', async (t) => {
  const dir = tempDir(t)
  const db = await Database.open({ path: dir, acl })
  await db.query('create user bob')
  await db.close()
  writeFileSync(join(dir, '_acl'), Buffer.from([0xc1, 0x00, 0x01]))
  await t.rejects(Database.open({ path: dir, acl }), { code: 'XX001' })
  // the directory's lock was released: after repair it opens
  rmSync(join(dir, '_acl'))
  const again = await Database.open({ path: dir, acl })
  await again.close()
})

t.test('the built-in admin can be disabled only once another user holds DATABASE ADMIN', async (t) => {
  const dir = tempDir(t)
  await t.rejects(Database.open({ path: dir, acl: { ...acl, admin: { enabled: false } } }), { code: '22023', message: /another enabled user holding DATABASE ADMIN/ })
  let db = await Database.open({ path: dir, acl })
  await db.query("create user root2 with password 'pw'")
  await db.query('grant database admin to root2 with grant option')
  await db.close()
  db = await Database.open({ path: dir, acl: { ...acl, admin: { enabled: false } } })
  t.equal(await db.authenticate('admin', 'quest'), null, 'the disabled admin cannot log in')
  const root2 = await db.authenticate('root2', 'pw')
  t.ok(root2)
  await db.query('create user x', [], { session: db.session(root2!) })
  await t.rejects(db.query('select 1'), { code: '42501', message: 'Access denied for admin [user is disabled]' })
  await db.close()
})
