/**
 * WAL records: an append is split into records of bounded size, written as pieces (no copy of
 * the batch into one buffer), and decodes back to the same rows; records of the earlier
 * symbol format (keys indexing the record's own dictionary) still decode.
 */
import t from 'tap'
import { decodeAppend, encodeAppend, packr, rowsPerRecord } from '../../../../lib/storage/durable/wal-codec.js'
import { SymbolTable, getScalar, vectorOf, constVector, type Vector } from '../../../../lib/types/vector.js'
import type { ColumnType } from '../../../../lib/types/column-type.js'

const TYPES: ColumnType[] = ['TIMESTAMP', 'SYMBOL', 'DOUBLE', 'STRING', 'INT', 'SYMBOL']

function vectors(n: number): Vector[] {
  const dict = new SymbolTable()
  for (let i = 0; i < 50; i++) dict.intern(`pre${i}`) // keys the rows never use: the record must not depend on them
  const ts = new Float64Array(n)
  const sym = new Int32Array(n)
  const v = new Float64Array(n)
  const s: (string | null)[] = []
  const k = new Int32Array(n)
  for (let i = 0; i < n; i++) {
    ts[i] = 1_700_000_000_000_000 + i
    sym[i] = i % 7 === 0 ? -1 : dict.intern(`host_${i % 13}`)
    v[i] = i / 4
    s.push(i % 5 === 0 ? null : `s${i}`)
    k[i] = i * 3
  }
  return [vectorOf('TIMESTAMP', ts, n), vectorOf('SYMBOL', sym, n, dict), vectorOf('DOUBLE', v, n), vectorOf('STRING', s, n), vectorOf('INT', k, n), constVector('SYMBOL', 'c', n)]
}

const concat = (pieces: readonly Uint8Array[]): Uint8Array => Buffer.concat(pieces)
const rowsOf = (vs: readonly Vector[], n: number) => Array.from({ length: n }, (_, r) => vs.map((v) => getScalar(v, r)))

t.test('an append splits into records of at most perRecord rows that decode to the same rows', async (t) => {
  const n = 1000
  const vs = vectors(n)
  const records = encodeAppend(9, 3, TYPES, vs, n, 300)
  t.equal(records.length, 4, '1000 rows in records of 300')
  const decoded = records.map((pieces) => decodeAppend(concat(pieces), TYPES))
  t.same(decoded.map((r) => r.length), [300, 300, 300, 100])
  t.ok(decoded.every((r) => r.seq === 9 && r.tableId === 3), 'every record carries the append\'s sequence and table')
  const rows = decoded.flatMap((r) => rowsOf(r.vectors, r.length))
  t.same(rows, rowsOf(vs, n))
  // each record names only the symbols its rows use
  const first = packr.unpack(concat(records[0]!)) as { c: { d: string[] }[] }
  t.same([...first.c[1]!.d].sort(), Array.from({ length: 13 }, (_, i) => `host_${i}`).sort())
})

t.test('the double column is written from the appended array itself, not a copy', async (t) => {
  const n = 64
  const vs = vectors(n)
  const [pieces] = encodeAppend(1, 1, TYPES, vs, n)
  t.ok(pieces!.some((p) => p.buffer === (vs[2]!.data as Float64Array).buffer), 'a piece is a view of the DOUBLE vector')
  t.ok(pieces!.some((p) => p.buffer === (vs[1]!.data as Int32Array).buffer), 'a piece is a view of the symbol keys')
})

t.test('an empty append is one record; an append fits one record by default', async (t) => {
  t.equal(encodeAppend(1, 1, TYPES, vectors(0), 0).length, 1)
  t.equal(encodeAppend(1, 1, TYPES, vectors(5000), 5000).length, 1)
  t.ok(rowsPerRecord(TYPES) > 10_000, 'records hold many rows')
})

t.test('a record of the earlier symbol format (keys into the record\'s dictionary) decodes', async (t) => {
  const keys = new Int32Array([1, 0, -1, 1])
  const old = packr.pack({ s: 4, t: 2, n: 4, c: [{ k: new Uint8Array(keys.buffer), d: ['a', 'b'] }] })
  const r = decodeAppend(old, ['SYMBOL'])
  t.same(rowsOf(r.vectors, 4), [['b'], ['a'], [null], ['b']])
})

t.test('a record whose keys are missing from its dictionary is refused', async (t) => {
  const vs = [vectorOf('SYMBOL', new Int32Array([0, 1]), 2, (() => { const d = new SymbolTable(); d.intern('x'); d.intern('y'); return d })())]
  const payload = packr.unpack(concat(encodeAppend(1, 1, ['SYMBOL'], vs, 2)[0]!)) as { c: { k: Uint8Array; g: Uint8Array; d: string[] }[] }
  payload.c[0]!.d.pop()
  payload.c[0]!.g = payload.c[0]!.g.subarray(0, 4)
  t.throws(() => decodeAppend(packr.pack(payload), ['SYMBOL']), RangeError)
})
