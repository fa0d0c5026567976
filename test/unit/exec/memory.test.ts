import t from 'tap'
import { MemoryPool, QueryMemory, batchBytes, formatBytes } from '../../../lib/exec/memory.js'
import { SqlError } from '../../../lib/errors.js'
import { loadConfig } from '../../../adapters/http/server/config.js'

t.test('reservations count against the query and the pool, and are given back', async (t) => {
  const pool = new MemoryPool(1000)
  const a = new QueryMemory(600, pool)
  const b = new QueryMemory(600, pool)
  const ra = a.reservation('ORDER BY')
  ra.grow(500)
  t.equal(pool.used, 500)
  const err = (() => { try { ra.grow(200); return undefined } catch (e) { return e } })()
  t.ok(err instanceof SqlError && err.code === '53200' && /ORDER BY .*cairo\.query\.memory\.limit\.bytes/.test(err.message), '53200 naming the operator and the key')
  t.equal(ra.bytes, 500, 'a refused reservation holds nothing more')
  const rb = b.reservation('GROUP BY')
  t.throws(() => rb.grow(600), /server memory limit exceeded: GROUP BY/)
  rb.grow(400)
  rb.resize(100)
  t.equal(pool.used, 600)
  a.releaseAll()
  b.releaseAll()
  t.equal(pool.used, 0)
  t.equal(a.peak, 500)
})

t.test('batch bytes: typed arrays exactly, strings by estimate', async (t) => {
  t.equal(batchBytes({ length: 4, vectors: [{ kind: 'f64', type: 'DOUBLE', length: 4, data: new Float64Array(4) }] }), 32)
  const strs = batchBytes({ length: 2, vectors: [{ kind: 'str', type: 'STRING', length: 2, data: ['abcd', null] }] })
  t.ok(strs >= 16 + 8, `strings counted (${strs})`)
  t.equal(formatBytes(64 * 1024 * 1024), '64.0 MiB')
})

t.test('server keys: sizes with suffixes, percent range', async (t) => {
  const c = loadConfig(undefined, { QDB_CAIRO_QUERY_MEMORY_LIMIT_BYTES: '64M', QDB_RAM_USAGE_LIMIT_BYTES: '1G' }, () => {})
  t.equal(c.queryMemoryLimit, 64 * 1024 * 1024)
  t.equal(c.ramUsageLimitBytes, 1024 ** 3)
  t.equal(c.ramUsageLimitPercent, 90)
  t.equal(loadConfig(undefined, {}, () => {}).queryMemoryLimit, undefined)
  t.throws(() => loadConfig('ram.usage.limit.percent=150', {}, () => {}), /expected a percent 0-100/)
  t.throws(() => loadConfig('cairo.query.memory.limit.bytes=lots', {}, () => {}), /expected a size in bytes/)
})
