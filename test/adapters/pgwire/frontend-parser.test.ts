/**
 * The frontend message framer: messages decode the same however the byte stream is split into
 * chunks (one byte at a time, a large message over many chunks, many messages in one chunk),
 * and a complete pipelined message is reported as waiting.
 */
import t from 'tap'
import { createRequire } from 'node:module'
import { FrontendParser } from '../../../adapters/pgwire/frontend-parser.js'
import type { FrontendMessage } from '../../../adapters/pgwire/messages.js'

const { serialize } = createRequire(import.meta.url)('pg-protocol') as typeof import('pg-protocol')

const big = 'x'.repeat(300_000)
const stream = Buffer.concat([
  serialize.parse({ name: 's1', text: 'insert into t values ($1, $2)', types: [0, 0] }),
  serialize.bind({ portal: '', statement: 's1', values: ['2024-01-01', null] }),
  serialize.execute({ portal: '', rows: 0 }),
  serialize.sync(),
  serialize.query(`select '${big}'`),
  serialize.flush(),
])

function drain(p: FrontendParser, out: FrontendMessage[]): void {
  for (let m = p.next(); m !== undefined; m = p.next()) out.push(m)
}

function decodeInChunks(size: number): FrontendMessage[] {
  const p = new FrontendParser(1 << 20)
  const out: FrontendMessage[] = []
  for (let i = 0; i < stream.length; i += size) {
    p.push(stream.subarray(i, i + size))
    drain(p, out)
  }
  t.equal(p.pending, 0, `chunks of ${size}: every byte consumed`)
  return out
}

t.test('the same messages whatever the chunking', async (t) => {
  const whole = decodeInChunks(stream.length)
  t.same(whole.map((m) => m.kind), ['parse', 'bind', 'execute', 'sync', 'query', 'flush'])
  const bind = whole[1] as Extract<FrontendMessage, { kind: 'bind' }>
  t.same(bind.params, ['2024-01-01', null], 'text parameters arrive decoded')
  t.equal((whole[4] as Extract<FrontendMessage, { kind: 'query' }>).sql.length, big.length + 9)
  for (const size of [1, 7, 4096, 65536]) {
    const parts = size === 1 ? decodeInChunks(1).slice(0, 4) : decodeInChunks(size)
    t.same(parts, size === 1 ? whole.slice(0, 4) : whole, `chunks of ${size}`)
  }
})

t.test('hasMessage tells a complete pipelined message from a partial one', async (t) => {
  const p = new FrontendParser(1 << 20)
  const sync = serialize.sync()
  p.push(Buffer.concat([sync, sync.subarray(0, 3)]))
  t.equal(p.hasMessage(), true)
  t.equal(p.next()?.kind, 'sync')
  t.equal(p.hasMessage(), false, 'three bytes of the next message')
  p.push(sync.subarray(3))
  t.equal(p.hasMessage(), true)
  t.equal(p.next()?.kind, 'sync')
  t.equal(p.next(), undefined)
})

t.test('a message over the size limit is refused from its header alone', async (t) => {
  const p = new FrontendParser(1000)
  p.push(serialize.query('x'.repeat(5000)).subarray(0, 10))
  t.throws(() => p.next(), { code: '54000' })
})

t.test('framing is checked from the header: type byte, per-type limits, login phase', async (t) => {
  const bad = new FrontendParser(1000)
  bad.push(Buffer.from([0x7a]))
  t.throws(() => bad.next(), { code: '08P01', message: 'invalid frontend message type 122' }, 'an unknown type at its first byte')
  const sync = new FrontendParser(1 << 20)
  sync.push(Buffer.from([0x53, 0, 1, 0, 0]))
  t.throws(() => sync.next(), { code: '08P01' }, 'a Sync claiming 64 KiB')
  const login = new FrontendParser(1 << 20)
  login.authenticating = true
  login.push(serialize.query('select 1'))
  t.throws(() => login.next(), { message: 'expected password response, got message type 81' }, 'no Query before login')
  const after = new FrontendParser(1 << 20)
  after.push(serialize.password('x'))
  t.throws(() => after.next(), { message: 'invalid frontend message type 112' }, 'no password after login')
})

t.test('fields that do not parse, FunctionCall and COPY messages decode as invalid (the connection goes on)', async (t) => {
  const p = new FrontendParser(1 << 20)
  p.push(Buffer.concat([
    Buffer.from([0x51, 0, 0, 0, 8]), Buffer.from('sele'), // Query without its NUL
    Buffer.from([0x53, 0, 0, 0, 5, 0]), // Sync with a stray byte
    Buffer.from([0x46, 0, 0, 0, 4]), Buffer.from([0x64, 0, 0, 0, 5, 0x41]),
    serialize.sync(),
  ]))
  const out: FrontendMessage[] = []
  drain(p, out)
  t.same(out.map((m) => m.kind === 'invalid' ? `${m.code}:${m.sqlstate}` : m.kind), ['Q:08P01', 'S:08P01', 'F:0A000', 'd:08P01', 'sync'])
})
