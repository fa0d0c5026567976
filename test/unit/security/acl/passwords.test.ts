import t from 'tap'
import { createHash, createHmac } from 'node:crypto'
import { createRequire } from 'node:module'
import { checkPassword, makeVerifier, verifierText } from '../../../../lib/security/acl/passwords.js'

const require = createRequire(import.meta.url)
// node-postgres' own SCRAM client: an independent implementation of the exchange
const sasl = require('pg/lib/crypto/sasl.js') as {
  startSession(mechanisms: string[]): { clientNonce: string; response: string }
  continueSession(session: object, password: string, serverData: string): Promise<void>
  finalizeSession(session: object, serverData: string): void
}

t.test('a verifier accepts its password and refuses others', async (t) => {
  const v = await makeVerifier('s3cret', 64)
  t.equal(v.iterations, 64)
  t.equal(v.salt.length, 16)
  t.ok(await checkPassword(v, 's3cret'))
  t.notOk(await checkPassword(v, 's3cret '))
  t.notOk(await checkPassword(v, ''))
  // never the text: the verifier's form holds no trace of the password
  t.notMatch(verifierText(v), /s3cret/)
  t.match(verifierText(v), /^SCRAM-SHA-256\$64:[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/)
  // two verifiers of one password differ (random salt)
  t.not((await makeVerifier('s3cret', 64)).storedKey.toString('hex'), v.storedKey.toString('hex'))
})

t.test('the stored keys complete a SCRAM-SHA-256 exchange with node-postgres\' client', async (t) => {
  for (const password of ['s3cret', 'pä\u00A0ss']) {
    const v = await makeVerifier(password, 4096)
    const session = sasl.startSession(['SCRAM-SHA-256']) as { clientNonce: string; response: string }
    const nonce = `${session.clientNonce}server-nonce`
    const serverFirst = `r=${nonce},s=${v.salt.toString('base64')},i=${v.iterations}`
    await sasl.continueSession(session, password, serverFirst)
    const clientFinal = session.response
    const withoutProof = clientFinal.slice(0, clientFinal.indexOf(',p='))
    const proof = Buffer.from(clientFinal.slice(clientFinal.indexOf(',p=') + 3), 'base64')
    const authMessage = `n=*,r=${session.clientNonce},${serverFirst},${withoutProof}`
    const signature = createHmac('sha256', v.storedKey).update(authMessage).digest()
    const clientKey = Buffer.from(proof.map((b, i) => b ^ signature[i]!))
    t.same(createHash('sha256').update(clientKey).digest(), v.storedKey, 'the client proof checks against StoredKey')
    const serverSignature = createHmac('sha256', v.serverKey).update(authMessage).digest('base64')
    t.doesNotThrow(() => sasl.finalizeSession(session, `v=${serverSignature}`), 'the client accepts the server signature from ServerKey')
  }
})
