import t from 'tap'
import { ilpConfig } from '../../../adapters/ilp/index.js'
import { loadConfig } from '../../../adapters/http/server/config.js'

t.test('the server key: TIMESTAMP or TIMESTAMP_NS in any case, anything else TIMESTAMP (as QuestDB)', async (t) => {
  const read = (value: string | undefined) => ilpConfig({
    str: (k) => (k === 'line.timestamp.default.column.type' ? value : k === 'line.http.ping.version' ? 'v' : undefined),
    bool: () => true, int: () => 1, size: () => 1,
  })
  t.equal(read(undefined).http.defaultTimestampType, 'TIMESTAMP')
  t.equal(read('').http.defaultTimestampType, 'TIMESTAMP')
  t.equal(read('TIMESTAMP_NS').http.defaultTimestampType, 'TIMESTAMP_NS')
  t.equal(read('Timestamp_Ns').tcp.defaultTimestampType, 'TIMESTAMP_NS')
  t.equal(read('timestamp').tcp.defaultTimestampType, 'TIMESTAMP')
  t.equal(read('STRING').http.defaultTimestampType, 'TIMESTAMP')
  t.equal(read('TIMESTAMP_MS').http.defaultTimestampType, 'TIMESTAMP')
})

t.test('the server loads the key from server.conf and QDB_LINE_TIMESTAMP_DEFAULT_COLUMN_TYPE, for HTTP and TCP', async (t) => {
  const warnings: string[] = []
  const conf = loadConfig('line.timestamp.default.column.type=timestamp_ns\n', {}, (m) => warnings.push(m))
  t.equal(conf.ilp.http.defaultTimestampType, 'TIMESTAMP_NS')
  t.equal(conf.ilp.tcp.defaultTimestampType, 'TIMESTAMP_NS')
  t.same(warnings, [], 'a known key')
  t.equal(loadConfig(undefined, { QDB_LINE_TIMESTAMP_DEFAULT_COLUMN_TYPE: 'TIMESTAMP_NS' }, () => {}).ilp.http.defaultTimestampType, 'TIMESTAMP_NS')
  t.equal(loadConfig(undefined, {}, () => {}).ilp.tcp.defaultTimestampType, 'TIMESTAMP')
})
