// BufferWriter.handOff: large output leaves in the writer's own buffer (no copy); the buffer is
// reused only after the socket released it, and many large results through a real connection
// arrive byte for byte as the engine produced them.
import t from 'tap'
import pg from 'pg'
import { BufferWriter, HAND_OFF_MIN } from '../../../adapters/pgwire/buffer-writer.js'
import { startServer } from './helpers.js'

function fill(w: BufferWriter, n: number, seed: number): void {
  for (let k = 0; k < n; k++) w.byte((k * 31 + seed) & 0xff)
}
const expected = (n: number, seed: number): Buffer => Buffer.from(Array.from({ length: n }, (_, k) => (k * 31 + seed) & 0xff))

t.test('handOff gives the bytes without a copy and keeps them intact while not released', async (t) => {
  const w = new BufferWriter()
  fill(w, HAND_OFF_MIN, 1)
  const own = w.buf
  const a = w.handOff()
  t.equal(a.out.buffer, own.buffer, 'a view of the writer\'s own buffer')
  t.equal(w.length, 0, 'the writer starts over')
  t.not(w.buf.buffer, own.buffer, 'in another buffer')
  // a second writer hands off too: it must not be given the unreleased buffer
  const w2 = new BufferWriter()
  fill(w2, HAND_OFF_MIN, 2)
  const b = w2.handOff()
  t.not(w2.buf.buffer, own.buffer, 'an unreleased buffer is not reused')
  fill(w, HAND_OFF_MIN, 3)
  fill(w2, HAND_OFF_MIN, 4)
  t.same(a.out, expected(HAND_OFF_MIN, 1), 'the first output is unchanged by later writes')
  t.same(b.out, expected(HAND_OFF_MIN, 2))
  a.release()
  a.release() // twice: pooled once
  const c = w.handOff()
  const d = w2.handOff()
  t.ok((w.buf.buffer === own.buffer) !== (w2.buf.buffer === own.buffer), 'the released buffer is reused by exactly one writer')
  t.same(c.out, expected(HAND_OFF_MIN, 3))
  t.same(d.out, expected(HAND_OFF_MIN, 4))
  b.release(); c.release(); d.release()
})

t.test('large results over pgwire, several connections at once, arrive exactly', async (t) => {
  const srv = await startServer()
  t.teardown(() => srv.close())
  const sql = "select x, x * 0.25 d, 'row ' || x s, cast(x * 1000000 as timestamp) ts from long_sequence(60000)"
  const want = await srv.db.query(sql)
  const clients = await Promise.all([0, 1, 2].map(async () => {
    const c = new pg.Client({ host: '127.0.0.1', port: srv.port, user: 'admin', password: 'quest', database: 'qdb', types: { getTypeParser: () => (x: string) => x } })
    await c.connect()
    return c
  }))
  t.teardown(() => Promise.all(clients.map((c) => c.end())))
  const texts = await Promise.all(clients.flatMap((c) => [c.query({ text: sql, rowMode: 'array' }), c.query({ text: sql, rowMode: 'array' })]))
  for (const r of texts) {
    t.equal(r.rows.length, 60000)
    const bad = r.rows.findIndex((row: string[], i) => row[0] !== String(want.rows[i]![0]) || row[2] !== want.rows[i]![2])
    t.equal(bad, -1, bad < 0 ? 'every row as sent' : `row ${bad}: ${JSON.stringify(r.rows[bad])}`)
  }
})
