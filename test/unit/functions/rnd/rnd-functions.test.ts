import t from 'tap'
import { RND_FUNCTIONS } from '../../../../lib/functions/rnd/index.js'
import type { ScalarFunctionDef } from '../../../../lib/functions/registry-types.js'
import { Rnd } from '../../../../lib/functions/rnd/rnd.js'
import { SqlError } from '../../../../lib/errors.js'
import type { ColumnType } from '../../../../lib/types/column-type.js'
import { getScalar, type Scalar } from '../../../../lib/types/vector.js'
import { site, testContext } from './test-context.js'
import { parseLong256 } from '../../../../lib/types/long256.js'

function def(name: string): ScalarFunctionDef {
  const d = RND_FUNCTIONS.find((f) => f.name === name)
  if (d === undefined || d.kind !== 'scalar') throw new Error(name)
  return d
}

/** Prepares one call of `name` and returns a row function drawing from `ctx.rnd`. */
function call(name: string, types: ColumnType[] = [], constants: Scalar[] = [], ctx = testContext()) {
  const d = def(name)
  const state = d.init!(site(types, constants), ctx)
  return { row: () => d.row!([], ctx, state), vector: (n: number) => d.vector!([], n, ctx, state), ctx }
}

t.test('every rnd function is non-deterministic, not null-strict, with a row kernel', async (t) => {
  for (const d of RND_FUNCTIONS) {
    t.equal(d.kind, 'scalar', d.name)
    if (d.kind !== 'scalar') continue
    t.equal(d.deterministic, false, d.name)
    t.equal(d.nullStrict, false, d.name)
    t.ok(d.row, d.name)
    t.equal(d.family, 'rnd')
  }
})

t.test('SqlCodeGeneratorTest.testFilterOnNull: rnd_double(0)*100, rnd_symbol(5,4,4,1) interleaved by row', async (t) => {
  const ctx = testContext()
  const a = call('rnd_double', ['INT'], [0], ctx)
  const b = call('rnd_symbol', ['INT', 'INT', 'INT', 'INT'], [5, 4, 4, 1], ctx)
  const rows: [number, Scalar][] = []
  for (let i = 0; i < 20; i++) rows.push([(a.row() as number) * 100, b.row()])
  t.same(rows.slice(0, 3), [[11.427984775756228, null], [42.17768841969397, 'VTJW'], [23.90529010846525, 'RXGZ']])
  t.same(rows.filter((r) => r[1] === null).map((r) => r[0]), [
    11.427984775756228, 87.99634725391621, 32.881769076795045, 57.93466326862211, 26.922103479744898,
    52.98405941762054, 97.5019885372507, 80.01121139739173, 92.050039469858, 45.6344569609078, 40.455469747939254,
  ])
})

t.test('vector kernels draw the same values as row kernels', async (t) => {
  const cases: [string, ColumnType[], Scalar[]][] = [
    ['rnd_double', [], []], ['rnd_double', ['INT'], [2]], ['rnd_float', ['INT'], [2]], ['rnd_int', [], []],
    ['rnd_int', ['INT', 'INT', 'INT'], [1, 100, 3]], ['rnd_boolean', [], []], ['rnd_byte', [], []],
    ['rnd_short', ['INT', 'INT'], [-5, 5]], ['rnd_char', [], []], ['rnd_long', ['LONG', 'LONG', 'INT'], [1, 1000, 2]],
    ['rnd_timestamp', ['TIMESTAMP', 'TIMESTAMP', 'INT'], [0, 1_000_000_000_000, 2]], ['rnd_str', ['INT', 'INT', 'INT'], [2, 6, 3]],
    ['rnd_symbol', ['INT', 'INT', 'INT', 'INT'], [4, 2, 3, 2]], ['rnd_ipv4', [], []], ['rnd_uuid4', [], []], ['rnd_long', [], []],
  ]
  for (const [name, types, consts] of cases) {
    const r = call(name, types, consts)
    const rows = Array.from({ length: 50 }, () => r.row())
    const v = call(name, types, consts).vector(50)
    const fromVector = Array.from({ length: 50 }, (_, i) => getScalar(v, i))
    t.same(fromVector, rows, name)
  }
})

t.test('ranges, null rates and draw counts', async (t) => {
  const ints = call('rnd_int', ['INT', 'INT', 'INT'], [10, 20, 0])
  for (let i = 0; i < 500; i++) { const v = ints.row() as number; t.ok(v >= 10 && v <= 20) }
  // rnd_int(lo,hi,r) = gate (nextInt) + nextPositiveInt
  const ref = new Rnd()
  const r = call('rnd_int', ['INT', 'INT', 'INT'], [0, 9, 3])
  for (let i = 0; i < 200; i++) {
    const expected = ref.nextInt() % 4 === 1 ? null : ref.nextPositiveInt() % 10
    t.equal(r.row(), expected)
  }
  const bytes = call('rnd_byte')
  for (let i = 0; i < 300; i++) { const v = bytes.row() as number; t.ok(v >= 20 && v <= 127, `byte ${v}`) }
  const shorts = call('rnd_short', ['INT', 'INT'], [-3, 3])
  for (let i = 0; i < 300; i++) { const v = shorts.row() as number; t.ok(v >= -3 && v <= 3, `short ${v}`) }
  const chars = call('rnd_char')
  for (let i = 0; i < 100; i++) t.match(chars.row(), /^[B-Z]$/)
  const strs = call('rnd_str')
  for (let i = 0; i < 100; i++) t.match(strs.row(), /^[B-Z]{3,10}$/)
  const list = call('rnd_str', ['STRING', 'STRING'], ['a', 'b'])
  for (let i = 0; i < 20; i++) t.ok(['a', 'b'].includes(list.row() as string))
  const ts = call('rnd_timestamp', ['TIMESTAMP', 'TIMESTAMP', 'INT'], [1_000_000, 2_000_000, 0])
  for (let i = 0; i < 100; i++) { const v = ts.row() as number; t.ok(v >= 1_000_000 && v <= 2_000_000) }
  const big = call('rnd_long', ['LONG', 'LONG', 'INT'], [-(2n ** 62n), 2n ** 62n, 0])
  for (let i = 0; i < 100; i++) { const v = BigInt(big.row() as bigint); t.ok(v >= -(2n ** 62n) && v <= 2n ** 62n) }
  const v = call('rnd_varchar', ['INT', 'INT', 'INT'], [5, 8, 0])
  for (let i = 0; i < 100; i++) { const s = v.row() as string; const n = [...s].length; t.ok(n >= 5 && n <= 8, s) }
})

t.test('formats of uuid, long256, ipv4, bin', async (t) => {
  t.match(call('rnd_uuid4').row(), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  t.match(call('rnd_long256').row(), /^0x[0-9a-f]{1,64}$/)
  // whole bytes, as every other LONG256 is printed: an even number of digits, no leading zero byte
  const l256 = call('rnd_long256')
  for (let i = 0; i < 200; i++) {
    const v = l256.row() as string
    t.equal(v.length % 2, 0, v)
    t.not(v.slice(2, 4), '00', v)
    t.equal(parseLong256(v), v)
  }
  const sub = call('rnd_ipv4', ['STRING', 'INT'], ['22.43.0.0/16', 0])
  for (let i = 0; i < 50; i++) { const ip = sub.row() as number; t.equal(ip >>> 16, (22 << 8) | 43) }
  const bin = call('rnd_bin').row() as Uint8Array
  t.equal(bin.length, 32)
  const bins = call('rnd_bin', ['LONG', 'LONG', 'INT'], [2, 4, 0])
  for (let i = 0; i < 30; i++) { const b = bins.row() as Uint8Array; t.ok(b.length >= 2 && b.length <= 4) }
})

t.test('argument errors carry QuestDB messages and positions', async (t) => {
  const err = (f: () => unknown) => { try { f(); return undefined } catch (e) { return e as SqlError } }
  const e1 = err(() => call('rnd_int', ['INT', 'INT', 'INT'], [5, 1, 0]))
  t.equal(e1?.message, 'invalid range'); t.equal(e1?.position, 3); t.equal(e1?.code, '22023')
  const e2 = err(() => call('rnd_double', ['INT'], [-1]))
  t.equal(e2?.message, 'invalid NaN rate'); t.equal(e2?.position, 10)
  const e3 = err(() => call('rnd_symbol', ['INT', 'INT', 'INT', 'INT'], [0, 1, 2, 0]))
  t.equal(e3?.message, 'invalid symbol count'); t.equal(e3?.position, 10)
})

t.test('rnd_symbol_weighted and rnd_symbol_zipf draw as QuestDB for its default seeds (its factory tests\' counts)', async (t) => {
  const counts = (name: string, types: ColumnType[], constants: Scalar[], n: number): string => {
    const c = call(name, types, constants)
    const m = new Map<string, number>()
    for (let i = 0; i < n; i++) { const v = String(c.row()); m.set(v, (m.get(v) ?? 0) + 1) }
    return [...m].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([k, v]) => `${k}=${v}`).join(' ')
  }
  const pairs = (...a: Scalar[]): [ColumnType[], Scalar[]] => [a.map((x) => (typeof x === 'string' ? 'STRING' : Number.isInteger(x) ? 'INT' : 'DOUBLE')), a]
  t.equal(counts('rnd_symbol_weighted', ...pairs('AAPL', 50, 'MSFT', 30, 'GOOGL', 15, 'TSLA', 5), 100), 'AAPL=46 GOOGL=19 MSFT=29 TSLA=6')
  t.equal(counts('rnd_symbol_weighted', ...pairs('A', 2.5, 'B', 1.5, 'C', 1.0), 100), 'A=46 B=29 C=25')
  t.equal(counts('rnd_symbol_weighted', ...pairs('A', 1, 'B', 1, 'C', 1), 99), 'A=27 B=35 C=37')
  t.equal(counts('rnd_symbol_weighted', ...pairs('A', 95, 'B', 3, 'C', 2), 100), 'A=94 B=5 C=1')
  t.equal(counts('rnd_symbol_weighted', ...pairs('A', 70, 'B', 30), 100), 'A=68 B=32')
  t.equal(counts('rnd_symbol_zipf', ['INT', 'DOUBLE'], [5, 1.5], 100), 'sym0=53 sym1=20 sym2=12 sym3=9 sym4=6')
  t.equal(counts('rnd_symbol_zipf', ['INT', 'DOUBLE'], [5, 2.0], 1000), 'sym0=666 sym1=185 sym2=76 sym3=49 sym4=24')
  t.equal(counts('rnd_symbol_zipf', ['INT', 'DOUBLE'], [5, 0.5], 100), 'sym0=26 sym1=22 sym2=20 sym3=14 sym4=18')
  t.equal(counts('rnd_symbol_zipf', ['INT', 'DOUBLE'], [2, 1.0], 100), 'sym0=63 sym1=37')
  t.equal(counts('rnd_symbol_zipf', ['INT', 'DOUBLE'], [5, 5.0], 100), 'sym0=98 sym1=2')
})
