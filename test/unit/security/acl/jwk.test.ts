/**
 * JWK tokens (ILP over TCP): ALTER USER / SERVICE ACCOUNT ... CREATE TOKEN TYPE JWK returns the
 * key pair as QuestDB Enterprise does, keeps only the public key, and `db.authenticateJwk`
 * checks a challenge signature — including one made by QuestDB's own Node.js ILP client over a
 * real TCP challenge exchange.
 */
import t from 'tap'
import { createPrivateKey, sign } from 'node:crypto'
import { createServer, type AddressInfo } from 'node:net'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Sender } from '@questdb/nodejs-client'
import { Database, newJwkChallenge } from '../../../../lib/index.js'

function signWith(d: string, x: string, y: string, challenge: Buffer, encoding: 'der' | 'ieee-p1363'): string {
  const key = createPrivateKey({ key: { kty: 'EC', crv: 'P-256', d, x, y }, format: 'jwk' })
  return sign('sha256', challenge, { key, dsaEncoding: encoding }).toString('base64')
}

t.test('CREATE TOKEN TYPE JWK returns the key pair; the signature of a challenge logs in', async (t) => {
  const db = await Database.open({ acl: { enabled: true, passwordHashIterations: 1 } })
  t.teardown(() => db.close())
  await db.query('create user sensor')
  await db.query('create service account ingest')
  const r = await db.query('alter user sensor create token type jwk')
  t.same(r.columns.map((c) => c.name), ['name', 'public_key_x', 'public_key_y', 'private_key'])
  const [name, x, y, d] = r.rows[0] as string[]
  t.equal(name, 'sensor')
  for (const v of [x, y, d]) t.match(v, /^[A-Za-z0-9_-]{43}$/, 'base64url, 32 bytes')
  t.same((await db.query('show user sensor')).rows, [['Password', false], ['JWK Token', true], ['REST Token', false]])

  const challenge = newJwkChallenge()
  t.equal(challenge.length, 512)
  t.notOk(challenge.includes(10), 'no newline in a challenge')
  t.equal(db.authenticateJwk('sensor', challenge, signWith(d!, x!, y!, challenge, 'der'))?.name, 'sensor', 'DER signature (Java, Node.js clients)')
  t.equal(db.authenticateJwk('SENSOR', challenge, signWith(d!, x!, y!, challenge, 'ieee-p1363'))?.name, 'sensor', 'r||s signature, name case-insensitive')
  const other = newJwkChallenge()
  t.equal(db.authenticateJwk('sensor', other, signWith(d!, x!, y!, challenge, 'der')), null, 'signature of another challenge')
  t.equal(db.authenticateJwk('ingest', challenge, signWith(d!, x!, y!, challenge, 'der')), null, 'an account without a JWK token')
  t.equal(db.authenticateJwk('nobody', challenge, 'AAAA'), null, 'unknown key id')
  t.equal(db.authenticateJwk('sensor', challenge, 'not base64 !'), null, 'garbage signature')
  t.equal(db.authenticateJwk('sensor', challenge, ''), null, 'empty signature')
  t.equal(db.authenticateJwk('sensor', challenge, 'A'.repeat(100_000)), null, 'huge signature')

  // a service account's token; another's key does not open it
  const sa = (await db.query('alter service account ingest create token type jwk')).rows[0] as string[]
  t.equal(db.authenticateJwk('ingest', challenge, signWith(sa[3]!, sa[1]!, sa[2]!, challenge, 'der'))?.kind, 'service-account')
  t.equal(db.authenticateJwk('ingest', challenge, signWith(d!, x!, y!, challenge, 'der')), null)

  // a disabled user cannot log in; enabled again it can
  await db.query('alter user sensor disable')
  t.equal(db.authenticateJwk('sensor', challenge, signWith(d!, x!, y!, challenge, 'der')), null, 'disabled')
  await db.query('alter user sensor enable')

  // a new token replaces the old one (one per principal)
  const again = (await db.query('alter user sensor create token type jwk')).rows[0] as string[]
  t.equal(db.authenticateJwk('sensor', challenge, signWith(d!, x!, y!, challenge, 'der')), null, 'the old key no longer works')
  t.ok(db.authenticateJwk('sensor', challenge, signWith(again[3]!, again[1]!, again[2]!, challenge, 'der')))

  // DROP TOKEN TYPE JWK
  await db.query('alter user sensor drop token type jwk')
  t.equal(db.authenticateJwk('sensor', challenge, signWith(again[3]!, again[1]!, again[2]!, challenge, 'der')), null, 'dropped')
  await t.rejects(db.query('alter user sensor drop token type jwk'), { code: '42704' })

  // another's token needs CREATE JWK; one's own does not
  await db.query('create user bob')
  const bob = db.session({ name: 'bob', groups: [], admin: false, kind: 'user' })
  await t.rejects(db.query('alter user sensor create token type jwk', [], { session: bob }), { code: '42501', message: /CREATE JWK/ })
  t.equal((await db.query('alter user bob create token type jwk', [], { session: bob })).rows.length, 1)
  await db.query('grant create jwk to bob')
  t.equal((await db.query('alter user sensor create token type jwk', [], { session: bob })).rows.length, 1)
})

t.test('only the public key is stored, and it survives a reopen', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-jwk-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  let row: string[]
  {
    const db = await Database.open({ path: dir, acl: { enabled: true, passwordHashIterations: 1 } })
    await db.query('create user sensor')
    row = (await db.query('alter user sensor create token type jwk')).rows[0] as string[]
    await db.close()
  }
  const bytes = readFileSync(join(dir, '_acl')).toString('latin1')
  t.ok(bytes.includes(row[1]!), 'x stored')
  t.notOk(bytes.includes(row[3]!), 'the private key is not stored')
  const db = await Database.open({ path: dir, acl: { enabled: true, passwordHashIterations: 1 } })
  t.teardown(() => db.close())
  const c = newJwkChallenge()
  t.equal(db.authenticateJwk('sensor', c, signWith(row[3]!, row[1]!, row[2]!, c, 'der'))?.name, 'sensor')
})

t.test("QuestDB's Node.js ILP client passes the TCP challenge with the returned key", async (t) => {
  const db = await Database.open({ acl: { enabled: true, passwordHashIterations: 1 } })
  t.teardown(() => db.close())
  await db.query('create service account ingest')
  const [, x, y, d] = (await db.query('alter service account ingest create token type jwk')).rows[0] as string[]
  // a minimal ILP/TCP endpoint: key id line, challenge line, signature line, then rows
  const received: { who: string | null; data: string }[] = []
  const server = createServer((socket) => {
    let buf = Buffer.alloc(0)
    let keyId: string | undefined
    let challenge: Buffer | undefined
    const entry: { who: string | null; data: string } = { who: null, data: '' }
    received.push(entry)
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk])
      for (;;) {
        if (entry.who !== null) { entry.data += buf.toString(); buf = Buffer.alloc(0); return }
        const nl = buf.indexOf(10)
        if (nl < 0) return
        const line = buf.subarray(0, nl).toString()
        buf = buf.subarray(nl + 1)
        if (keyId === undefined) {
          keyId = line
          challenge = newJwkChallenge()
          socket.write(Buffer.concat([challenge, Buffer.from('\n')]))
        } else {
          const p = db.authenticateJwk(keyId, challenge!, line)
          if (p === null) { socket.destroy(); return }
          entry.who = p.name
        }
      }
    })
    socket.on('error', () => undefined)
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  t.teardown(() => server.close())
  const port = (server.address() as AddressInfo).port

  const sender = await Sender.fromConfig(`tcp::addr=127.0.0.1:${port};username=ingest;token=${d};token_x=${x};token_y=${y}`)
  await sender.connect()
  await sender.table('readings').symbol('s', 'a').floatColumn('v', 1.5).atNow()
  await sender.flush()
  await sender.close()
  const deadline = Date.now() + 10_000
  while (!received.some((e) => e.data.includes('readings')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
  t.equal(received[0]?.who, 'ingest', 'the client signed the challenge with the private key')
  t.match(received[0]?.data ?? '', /^readings,s=a v=1\.5/, 'its rows arrived after the login')

  // the same client with another key is refused
  const [, , , wrong] = (await db.query('alter service account ingest create token type jwk')).rows[0] as string[]
  const bad = await Sender.fromConfig(`tcp::addr=127.0.0.1:${port};username=ingest;token=${d};token_x=${x};token_y=${y}`)
  t.not(wrong, d)
  await bad.connect()
  await bad.table('readings').floatColumn('v', 2).atNow()
  await bad.flush().catch(() => undefined)
  await bad.close()
  await new Promise((r) => setTimeout(r, 200))
  t.equal(received[1]?.who, null, 'a replaced key is refused')
  t.notOk(received[1]?.data.includes('readings'))
})
