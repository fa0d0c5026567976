/**
 * The SCRAM-SHA-256 exchange against RFC 7677's test vector (user "user", password "pencil"),
 * and the mock verifier of unknown users: a stable salt per user name, a proof that never matches.
 */
import t from 'tap'
import { ScramKeys, scramServerFinal, scramServerFirst, scramVerifier } from '../../../adapters/pgwire/scram.js'

t.test('RFC 7677 section 3', async (t) => {
  const nonce = 'rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0'
  const salt = Buffer.from('W22ZaJ0SNY7soEsUEjb6gQ==', 'base64')
  const verifier = await scramVerifier('pencil', salt, 4096)
  const state = { clientFirstBare: 'n=user,r=rOprNGfwEbeRWgbNEkqO', serverFirst: `r=${nonce},s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096`, nonce, verifier }
  t.equal(scramServerFinal(state, `c=biws,r=${nonce},p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=`), 'v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=')
  t.equal(scramServerFinal(state, `c=biws,r=${nonce},p=eHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=`), null, 'a wrong proof')
  t.equal(scramServerFinal(state, `c=biws,r=other,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=`), null, 'a wrong nonce')
})

t.test('verifiers: derived once per password; unknown users get a stable mock salt', async (t) => {
  const keys = new ScramKeys()
  const a = await keys.verifierOf('admin', 'quest')
  t.equal(await keys.verifierOf('admin', 'quest'), a, 'cached')
  t.not(await keys.verifierOf('admin', 'changed'), a, 'a new password derives a new verifier')
  const ghost1 = await keys.verifierOf('ghost', undefined)
  const ghost2 = await keys.verifierOf('ghost', undefined)
  t.same(ghost1.salt, ghost2.salt, 'the same salt at every attempt, as for a real user')
  t.same(ghost1.salt, (await keys.verifierOf('ghost', 'pw')).salt, 'and the salt a real user of that name would get')
  const first = scramServerFirst('n,,n=ghost,r=abc', ghost1)
  if (typeof first === 'string') { t.fail(first); return }
  t.equal(scramServerFinal(first, `c=biws,r=${first.nonce},p=${Buffer.alloc(32).toString('base64')}`), null)
})
