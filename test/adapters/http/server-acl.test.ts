/**
 * The standalone server's `acl.*` keys: defaults, QuestDB Enterprise's `acl.admin.*` names with
 * `pg.user` / `pg.password` as aliases, bad values, and `npm start` with acl on (banner line,
 * REST and pgwire logging in as the configured admin only).
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import t from 'tap'
import { loadConfig } from '../../../adapters/http/server/config.js'
import { get } from './helpers.js'
import { nodeScript } from '../../node-script.js'

const basic = (user: string, password: string): Record<string, string> => ({ Authorization: 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64') })

t.test('config: acl defaults, acl.admin.* over the pg.* aliases, bad values', async (t) => {
  const d = loadConfig(undefined, {}, () => {})
  t.same(d.acl, { enabled: false, adminEnabled: true, passwordHashIterations: 4096, entityNameMaxLength: 255 })
  t.same([d.pgUser, d.pgPassword], ['admin', 'quest'])
  t.same(((c) => [c.pgUser, c.pgPassword])(loadConfig('pg.user=pu\npg.password=pp\n', {}, () => {})), ['pu', 'pp'], 'pg.user / pg.password still name the admin')
  const c = loadConfig('pg.user=pu\npg.password=pp\nacl.admin.user=root\nacl.enabled=true\n', { QDB_ACL_ADMIN_PASSWORD: 'secret', QDB_ACL_PASSWORD_HASH_ITERATION_COUNT: '10000' }, () => {})
  t.same([c.pgUser, c.pgPassword], ['root', 'secret'], 'acl.admin.* win over the aliases')
  t.match(c.acl, { enabled: true, passwordHashIterations: 10000 })
  t.equal(loadConfig('acl.admin.user.enabled=false', {}, () => {}).acl.adminEnabled, false)
  t.throws(() => loadConfig('acl.enabled=yes', {}, () => {}), /bad value for acl.enabled \(server.conf line 1\): 'yes', expected true or false/)
  t.throws(() => loadConfig('acl.password.hash.iteration.count=0', {}, () => {}), /bad value for acl.password.hash.iteration.count .* expected a positive integer/)
  t.throws(() => loadConfig(undefined, { QDB_ACL_ENTITY_NAME_MAX_LENGTH: 'x' }, () => {}), /bad value for acl.entity.name.max.length \(environment QDB_ACL_ENTITY_NAME_MAX_LENGTH\)/)
})

t.test('npm start with acl.enabled=true: banner, REST and pgwire need the admin\'s credentials', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-acl-'))
  const conf = join(dir, 'server.conf')
  writeFileSync(conf, `http.bind.to=127.0.0.1:0\npg.net.bind.to=127.0.0.1:0\ncairo.root=${join(dir, 'root')}\nacl.enabled=true\nacl.admin.user=root\nacl.admin.password=pw1\n`)
  const child = spawn(process.execPath, [...nodeScript('examples/server.ts'), '--conf', conf], { stdio: ['ignore', 'pipe', 'pipe'] })
  t.teardown(() => { if (child.exitCode === null) child.kill('SIGKILL') })
  let out = ''
  const ports = await new Promise<[number, number]>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no banner: ' + out)), 30_000)
    const onData = (b: Buffer): void => {
      out += b.toString()
      const h = /REST API\s+http:\/\/127\.0\.0\.1:(\d+)\//.exec(out)
      const p = /PostgreSQL\s+postgresql:\/\/\S+@127\.0\.0\.1:(\d+)\//.exec(out)
      if (h !== null && p !== null && out.includes('data ')) { clearTimeout(timer); resolve([Number(h[1]), Number(p[1])]) }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.on('exit', () => { clearTimeout(timer); reject(new Error('exited: ' + out)) })
  })
  await new Promise((r) => setTimeout(r, 100))
  t.match(out, /access\s+acl\.enabled=true: REST, the console and pgwire log in as the engine's users \(built-in admin root\)/)
  const [httpPort, pgPort] = ports
  t.equal((await get(httpPort, '/exec?query=select+1')).status, 401)
  t.equal((await get(httpPort, '/exec?query=select+1', basic('admin', 'quest'))).status, 401)
  t.equal((await get(httpPort, '/exec?query=select+1', basic('root', 'pw1'))).status, 200)
  t.match((await get(httpPort, '/settings')).body, '"acl.enabled":true')
  const login = async (user: string, password: string): Promise<string> => {
    const c = new pg.Client({ host: '127.0.0.1', port: pgPort, user, password, database: 'qdb' })
    c.on('error', () => undefined)
    try { await c.connect(); return String((await c.query('select current_user() u')).rows[0].u) } catch (e) { return (e as { code: string }).code } finally { await c.end().catch(() => undefined) }
  }
  t.equal(await login('admin', 'quest'), '28P01')
  t.equal(await login('root', 'pw1'), 'root', 'SCRAM (pg.auth.method default) against the engine\'s admin')
})
