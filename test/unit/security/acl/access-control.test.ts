import t from 'tap'
import { Database } from '../../../../lib/index.js'
import type { Principal } from '../../../../lib/session.js'
import { AccessControl } from '../../../../lib/security/acl/access-control.js'
import { executeAcl } from '../../../../lib/security/acl/execute.js'
import { tableLookup } from '../../../../lib/exec/statements/acl.js'
import { Session } from '../../../../lib/session.js'
import { parseStatement } from '../../../../lib/sql/index.js'
import type { AclStatement } from '../../../../lib/sql/ast-acl.js'
import { Catalog } from '../../../../lib/storage/catalog.js'

/** An AccessControl over a catalog with a table `trades (ts, sym, price, secret)`, run as admin. */
async function setup(clock = () => 1_000_000_000_000): Promise<{ acl: AccessControl; run: (sql: string, as?: Principal) => Promise<unknown> }> {
  const db = await Database.open()
  await db.query('create table trades (ts timestamp, sym symbol, price double, secret double) timestamp(ts) partition by day')
  const catalog = (db as unknown as { catalog: Catalog }).catalog
  const acl = new AccessControl({ enabled: true, passwordHashIterations: 16 }, { tables: tableLookup(catalog), clock })
  acl.attach(undefined)
  const run = async (sql: string, as?: Principal): Promise<unknown> => executeAcl(acl, parseStatement(sql) as AclStatement, new Session(as))
  return { acl, run }
}

const user = (name: string): Principal => ({ name, groups: [], admin: false, kind: 'user' })
type Tap = Pick<typeof t, 'throws'>
const denied = (t: Tap, f: () => void, message: string): void => { t.throws(f, { code: '42501', message }) }

t.test('authorize: database, table and column grants; the first missing permission is named', async (t) => {
  const { acl, run } = await setup()
  await run("create user bob with password 'pw'")
  const bob = user('bob')
  denied(t, () => acl.authorize(bob, [{ permission: 'SELECT', table: 'trades', columns: ['sym'] }]), 'Access denied for bob [SELECT on trades(sym)]')
  await run('grant select on trades(sym, price) to bob')
  t.doesNotThrow(() => acl.authorize(bob, [{ permission: 'SELECT', table: 'trades', columns: ['sym', 'price'] }]))
  // the designated timestamp is implied by any column grant
  t.doesNotThrow(() => acl.authorize(bob, [{ permission: 'SELECT', table: 'trades', columns: ['ts', 'SYM'] }]))
  denied(t, () => acl.authorize(bob, [{ permission: 'SELECT', table: 'trades', columns: ['sym', 'secret'] }]), 'Access denied for bob [SELECT on trades(secret)]')
  denied(t, () => acl.authorize(bob, [{ permission: 'SELECT', table: 'trades' }]), 'Access denied for bob [SELECT on trades]')
  denied(t, () => acl.authorize(bob, [{ permission: 'UPDATE', table: 'trades', columns: ['ts'] }]), 'Access denied for bob [UPDATE on trades(ts)]')
  denied(t, () => acl.authorize(bob, [{ permission: 'CREATE TABLE' }]), 'Access denied for bob [CREATE TABLE]')
  await run('grant select on all tables to bob')
  t.doesNotThrow(() => acl.authorize(bob, [{ permission: 'SELECT', table: 'anything', columns: ['x'] }]))
  await run('grant database admin to bob')
  t.doesNotThrow(() => acl.authorize(bob, [{ permission: 'CREATE TABLE' }, { permission: 'DROP USER' }]))
  // the admin is root; a disabled or dropped user fails its next statement
  t.doesNotThrow(() => acl.authorize({ name: 'admin', groups: [], admin: true, kind: 'admin' }, [{ permission: 'CREATE TABLE' }]))
  await run('alter user bob disable')
  denied(t, () => acl.authorize(bob, []), 'Access denied for bob [user is disabled]')
  await run('drop user bob')
  denied(t, () => acl.authorize(bob, []), 'Access denied for bob [user does not exist]')
})

t.test('a user holds its own grants and its groups\'; groups resolve at each check', async (t) => {
  const { acl, run } = await setup()
  await run('create user bob')
  await run('create group g')
  await run('grant insert on trades to g')
  const bob = user('bob')
  denied(t, () => acl.authorize(bob, [{ permission: 'INSERT', table: 'trades' }]), 'Access denied for bob [INSERT on trades]')
  await run('add user bob to g')
  t.doesNotThrow(() => acl.authorize(bob, [{ permission: 'INSERT', table: 'trades' }]))
  await run('revoke insert on trades from g')
  denied(t, () => acl.authorize(bob, [{ permission: 'INSERT', table: 'trades' }]), 'Access denied for bob [INSERT on trades]')
})

t.test('external principals: the union of the groups their aliases map to, nothing without groups', async (t) => {
  const { acl, run } = await setup()
  await run("create group readers with external alias 'idp-readers'")
  await run("create group writers with external alias 'idp-writers'")
  await run('grant http to readers')
  await run('grant select on trades to readers')
  await t.rejects(run('grant http, select on trades to readers'), { code: '22023', message: 'HTTP is a database permission, it cannot be granted on tables' })
  await run('grant insert on trades to writers')
  const both = acl.externalPrincipal('alice@idp', ['idp-readers', 'idp-writers', 'unmapped'])
  t.equal(both.kind, 'external')
  t.doesNotThrow(() => acl.checkEndpoint(both, 'HTTP'))
  denied(t, () => acl.checkEndpoint(both, 'PGWIRE'), 'Access denied for alice@idp [PGWIRE]')
  t.doesNotThrow(() => acl.authorize(both, [{ permission: 'SELECT', table: 'trades' }, { permission: 'INSERT', table: 'trades' }]))
  // aliases match exactly (case-sensitive)
  const wrongCase = acl.externalPrincipal('alice@idp', ['IDP-READERS'])
  denied(t, () => acl.checkEndpoint(wrongCase, 'HTTP'), 'Access denied for alice@idp [HTTP]')
  for (const groups of [[], ['unmapped']]) {
    const none = acl.externalPrincipal('eve', groups)
    denied(t, () => acl.checkEndpoint(none, 'HTTP'), 'Access denied for eve [HTTP]')
    t.notOk(acl.canSee(none, 'trades'))
  }
  // an alias dropped applies to the next check, not after a cache expiry
  await run("alter group writers drop external alias 'idp-writers'")
  denied(t, () => acl.authorize(both, [{ permission: 'INSERT', table: 'trades' }]), 'Access denied for alice@idp [INSERT on trades]')
  // an external user cannot be granted anything: its name is no principal
  await t.rejects(run("grant select on trades to 'alice@idp' with verification"), { code: '42704' })
})

t.test('canSee: any grant on the table, or a table permission on all tables', async (t) => {
  const { acl, run } = await setup()
  await run('create user bob')
  await run('grant http to bob')
  t.notOk(acl.canSee(user('bob'), 'trades'))
  await run('grant select on trades(sym) to bob')
  t.ok(acl.canSee(user('bob'), 'TRADES'))
  t.notOk(acl.canSee(user('bob'), 'other'))
  await run('grant insert on all tables to bob')
  t.ok(acl.canSee(user('bob'), 'other'))
})

t.test('authenticate: unknown user, wrong password, no password and disabled user all answer null', async (t) => {
  const { acl, run } = await setup()
  await run("create user bob with password 'pw'")
  await run('create user nopw with no password')
  t.match(await acl.authenticate('bob', 'pw'), { name: 'bob', kind: 'user', admin: false })
  t.match(await acl.authenticate('BOB', 'pw'), { name: 'bob' })
  t.equal(await acl.authenticate('bob', 'wrong'), null)
  t.equal(await acl.authenticate('nobody', 'pw'), null)
  t.equal(await acl.authenticate('nopw', ''), null)
  t.match(await acl.authenticate('admin', 'quest'), { name: 'admin', kind: 'admin', admin: true })
  t.equal(await acl.authenticate('admin', 'wrong'), null)
  await run('alter user bob disable')
  t.equal(await acl.authenticate('bob', 'pw'), null)
  t.equal(await acl.passwordVerifier('bob'), undefined)
  await run('alter user bob enable')
  t.ok((await acl.passwordVerifier('bob'))?.storedKey instanceof Buffer)
  t.equal(await acl.passwordVerifier('nobody'), undefined)
})

t.test('REST tokens: returned once, stored as a hash, expire, refresh, dropped', async (t) => {
  let now = 1_000_000_000_000
  const { acl, run } = await setup(() => now)
  await run('create user bob')
  const r = await run("alter user bob create token type rest with ttl '1m' refresh") as { rows: [string, string, number, boolean][] }
  t.equal(r.rows[0]![0], 'bob', 'the principal name comes first')
  const token = r.rows[0]![1]
  t.match(token, /^qt1[A-Za-z0-9_-]{43}$/)
  t.notMatch(JSON.stringify(acl.snapshot()), new RegExp(token.slice(3)), 'only a hash is stored')
  t.match(await acl.authenticateToken(token), { name: 'bob', kind: 'user' })
  t.equal(await acl.authenticateToken(`${token}x`), null)
  t.equal(await acl.authenticateToken('Bearer-something'), null)
  now += 50_000_000
  t.ok(await acl.authenticateToken(token), 'used before expiry: refreshed')
  now += 50_000_000
  t.ok(await acl.authenticateToken(token), 'still valid thanks to the refresh')
  now += 61_000_000
  t.equal(await acl.authenticateToken(token), null, 'expired')
  const r2 = await run("alter user bob create token type rest with ttl '1h'") as { rows: [string, string][] }
  const t2 = r2.rows[0]![1]
  t.ok(await acl.authenticateToken(t2))
  await run('alter user bob disable')
  t.equal(await acl.authenticateToken(t2), null, 'a disabled user\'s tokens are refused')
  await run('alter user bob enable')
  await run(`alter user bob drop token type rest '${t2}'`)
  t.equal(await acl.authenticateToken(t2), null)
  await t.rejects(run("alter user bob create token type rest with ttl '30s'"), { code: '22023', message: /between 1 minute and 10 years/ })
  await t.rejects(run("alter user bob create token type rest with ttl '3651d'"), { code: '22023' })
  t.equal(((await run('alter user bob create token type jwk')) as { rows?: unknown[] }).rows?.length, 1, 'a JWK token is made (jwk.test.ts)')
})

t.test('REVOKE re-adjusts a grant at a higher level into grants on what remains', async (t) => {
  const { acl, run } = await setup()
  await run('create user bob')
  await run('grant select on all tables to bob')
  await run('revoke select on trades(secret) from bob')
  const list = acl.snapshot().grants.find(([k]) => k === 'bob')?.[1] ?? []
  t.same(list.map((g) => `${g.permission} ${g.table ?? '*'} ${g.column ?? '*'}`).sort(), ['SELECT trades price', 'SELECT trades sym', 'SELECT trades ts'])
  t.throws(() => acl.authorize(user('bob'), [{ permission: 'SELECT', table: 'trades', columns: ['secret'] }]), { code: '42501' })
  t.throws(() => acl.authorize(user('bob'), [{ permission: 'SELECT', table: 'later', columns: ['x'] }]), { code: '42501' }, 'tables created later are not covered any more')
  await run('revoke select from bob')
  t.same(acl.snapshot().grants.find(([k]) => k === 'bob'), undefined, 'a database-level REVOKE removes every level')
})
