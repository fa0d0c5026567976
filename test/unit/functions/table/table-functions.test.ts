import t from 'tap'
import { TABLE_FUNCTIONS } from '../../../../lib/functions/table/index.js'
import type { TableFunctionDef, TableInfo } from '../../../../lib/functions/registry-types.js'
import type { ColumnType } from '../../../../lib/types/column-type.js'
import { getScalar, type Batch, type Scalar } from '../../../../lib/types/vector.js'
import { formatTimestamp, parseTimestamp } from '../../../../lib/types/timestamp.js'
import { SqlError } from '../../../../lib/errors.js'
import { site, testContext } from '../rnd/test-context.js'

function def(name: string): TableFunctionDef {
  const d = TABLE_FUNCTIONS.find((f) => f.name === name)
  if (d === undefined || d.kind !== 'table') throw new Error(name)
  return d
}

function rows(name: string, types: ColumnType[], constants: Scalar[], ctx = testContext()): Scalar[][] {
  const out: Scalar[][] = []
  for (const b of def(name).open(site(types, constants), ctx) as Iterable<Batch>) {
    for (let i = 0; i < b.length; i++) out.push(b.vectors.map((v) => getScalar(v, i)))
  }
  return out
}

t.test('long_sequence', async (t) => {
  t.same(rows('long_sequence', ['LONG'], [3]), [[1], [2], [3]])
  t.same(rows('long_sequence', ['LONG'], [0]), [])
  const big = rows('long_sequence', ['LONG'], [200_000])
  t.equal(big.length, 200_000)
  t.equal(big[199_999]![0], 200_000)
  t.same(def('long_sequence').columns(site(['LONG'], [3]), testContext()), [{ name: 'x', type: 'LONG' }])
})

t.test('long_sequence with seeds resets ctx.rnd when opened', async (t) => {
  const ctx = testContext()
  ctx.rnd.nextLong()
  def('long_sequence').open(site(['LONG', 'LONG', 'LONG'], [2, 128349234, 4327897]), ctx)
  t.equal(ctx.rnd.nextDouble(), 0.8251337821991485)
  t.equal(ctx.rnd.nextDouble(), 0.2714941145110299)
})

t.test('generate_series over LONG and DOUBLE', async (t) => {
  t.same(rows('generate_series', ['LONG', 'LONG'], [-3, 3]).map((r) => r[0]), [-3, -2, -1, 0, 1, 2, 3])
  t.same(rows('generate_series', ['LONG', 'LONG', 'LONG'], [1, 10, 4]).map((r) => r[0]), [1, 5, 9])
  t.same(rows('generate_series', ['LONG', 'LONG', 'LONG'], [1, 10, -4]).map((r) => r[0]), [10, 6, 2])
  t.same(rows('generate_series', ['DOUBLE', 'DOUBLE', 'DOUBLE'], [0, 1, 0.25]).map((r) => r[0]), [0, 0.25, 0.5, 0.75, 1])
  t.throws(() => rows('generate_series', ['LONG', 'LONG', 'LONG'], [1, 10, 0]), SqlError)
})

t.test('generate_series over TIMESTAMP with string steps (docs example)', async (t) => {
  const lo = parseTimestamp('2025-01-01')!
  const hi = parseTimestamp('2025-02-01')!
  const up = rows('generate_series', ['TIMESTAMP', 'TIMESTAMP', 'STRING'], [lo, hi, '5d']).map((r) => formatTimestamp(r[0] as number).slice(0, 10))
  t.same(up, ['2025-01-01', '2025-01-06', '2025-01-11', '2025-01-16', '2025-01-21', '2025-01-26', '2025-01-31'])
  const down = rows('generate_series', ['TIMESTAMP', 'TIMESTAMP', 'STRING'], [lo, hi, '-5d']).map((r) => formatTimestamp(r[0] as number).slice(0, 10))
  t.same(down, ['2025-02-01', '2025-01-27', '2025-01-22', '2025-01-17', '2025-01-12', '2025-01-07', '2025-01-02'])
  const months = rows('generate_series', ['TIMESTAMP', 'TIMESTAMP', 'STRING'], [parseTimestamp('2024-01-31')!, parseTimestamp('2024-05-01')!, '1M'])
  t.same(months.map((r) => formatTimestamp(r[0] as number).slice(0, 10)), ['2024-01-31', '2024-02-29', '2024-03-31', '2024-04-30'])
  t.equal(def('generate_series').columns(site(['TIMESTAMP', 'TIMESTAMP', 'STRING'], [lo, hi, '5d']), testContext())[0]!.type, 'TIMESTAMP')
})

const trades: TableInfo = {
  id: 7, name: 'trades',
  columns: [
    { name: 'sym', type: 'SYMBOL', indexed: true, symbolCapacity: 256, symbolCached: true, symbolTableSize: 3 },
    { name: 'price', type: 'DOUBLE', indexed: false, symbolCapacity: 0, symbolCached: false, symbolTableSize: 0 },
    { name: 'ip', type: 'IPV4', indexed: false, symbolCapacity: 0, symbolCached: false, symbolTableSize: 0 },
    { name: 'ts', type: 'TIMESTAMP', indexed: false, symbolCapacity: 0, symbolCached: false, symbolTableSize: 0 },
  ],
  timestampIndex: 3, partitionBy: 'DAY', wal: true, dedupKeys: ['ts', 'sym'], ttl: undefined, rowCount: 0,
  maxUncommittedRows: 500000, o3MaxLag: 600000000, createSql: '',
}

t.test('tables() and table_columns()', async (t) => {
  const ctx = testContext([trades])
  t.same(rows('tables', [], [], ctx), [[7, 'trades', 'ts', 'DAY', true, true, 0, 'HOUR', false, 'trades~7', 500000, 600000000, false, 'T']])
  const cols = rows('table_columns', ['STRING'], ['trades'], ctx)
  t.same(cols[0], ['sym', 'SYMBOL', true, 256, true, 256, 3, false, true])
  t.same(cols[2], ['ip', 'IPv4', false, 256, false, 0, 0, false, false])
  t.same(cols[3], ['ts', 'TIMESTAMP', false, 256, false, 0, 0, true, true])
  try {
    rows('table_columns', ['STRING'], ['nope'], ctx)
    t.fail('expected an error')
  } catch (e) {
    t.ok(e instanceof SqlError)
    t.equal((e as SqlError).code, '42P01')
    t.equal((e as SqlError).message, 'table does not exist [table=nope]')
    t.equal((e as SqlError).position, 10)
  }
})
