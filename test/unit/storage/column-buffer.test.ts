import t from 'tap'
import { ColumnBuffer } from '../../../lib/storage/column-buffer.js'
import { STORABLE_TYPES, physicalOf, type ColumnType } from '../../../lib/types/column-type.js'
import { DoubleArray } from '../../../lib/types/array.js'
import { SymbolTable, VectorWriter, constVector, getScalar, type Scalar, type Vector } from '../../../lib/types/vector.js'

/** Every storable type (arrays up to two dimensions) plus a narrow and a wide DECIMAL. */
const TYPES: ColumnType[] = [
  ...STORABLE_TYPES.filter((c) => !c.endsWith('[][][]')),
  'DECIMAL(10,2)', 'DECIMAL(30,4)',
]

/** A value of `type` for `k` (null every third k for types that have a null), var-size where the type is. */
function valueOf(type: ColumnType, k: number): Scalar {
  if (k % 3 === 2 && type !== 'BOOLEAN' && type !== 'BYTE' && type !== 'SHORT') return null
  if (type.endsWith('[]')) {
    const dims = type.split('[]').length - 1
    const shape = [k % 4 + 1, ...Array<number>(dims - 1).fill(2)]
    const n = shape.reduce((a, b) => a * b, 1)
    return new DoubleArray(shape, Float64Array.from({ length: n }, (_, e) => k * 10 + e + 0.5))
  }
  switch (physicalOf(type)) {
    case 'bool': return k % 2 === 0
    case 'i8': return (k % 100) - 50
    case 'i16': return k * 7 - 300
    case 'u16': return String.fromCharCode(65 + (k % 26))
    case 'i32': return type === 'IPV4' ? k * 65537 + 1 : k * 1000 - 7
    case 'i64': return k * 1_000_003 + 3
    case 'f32': return k + 0.5
    case 'f64': return k * 1.25
    case 'sym': return `sym${k % 5}`
    case 'bin': return Uint8Array.from({ length: k % 4 }, (_, e) => k + e)
    default:
      if (type === 'UUID') return `00000000-0000-4000-8000-${String(k).padStart(12, '0')}`
      if (type === 'LONG256') return `0x${(k * 977).toString(16)}`
      if (type.startsWith('DECIMAL')) return `${k * 13}.${String(k % 100).padStart(4, '0')}`
      return `s${k}${'é'.repeat(k % 3)}`
  }
}

/** A vector of `type` holding valueOf(k) for k in `ks`. */
function vectorFor(type: ColumnType, ks: readonly number[], dict?: SymbolTable): Vector {
  const w = new VectorWriter(type, ks.length, dict)
  ks.forEach((k, i) => w.set(i, valueOf(type, k)))
  return w.finish()
}

/** Rows of `b` as comparable text. */
function rows(b: ColumnBuffer): string[] {
  const v = b.view(0, b.length)
  return Array.from({ length: b.length }, (_, i) => text(getScalar(v, i)))
}

function text(x: Scalar): string {
  if (x instanceof DoubleArray) return `arr${JSON.stringify(x.shape)}${Array.from(x.values).join(',')}`
  if (x instanceof Uint8Array) return `bin${Array.from(x).join(',')}`
  return typeof x === 'bigint' ? `${x}n` : JSON.stringify(x)
}

const N = 40
const base = Array.from({ length: N }, (_, k) => k)

for (const type of TYPES) {
  t.test(`clone and setFrom: ${type}`, async (t) => {
    const orig = new ColumnBuffer(type, 4)
    orig.append(vectorFor(type, base))
    const before = rows(orig)
    t.equal(before.length, N)

    const copy = orig.clone()
    t.same(rows(copy), before, 'a clone holds the same rows')
    t.equal(copy.dict, orig.dict, 'the dictionary is shared')

    // a source with another dictionary (symbols are re-keyed) and values not in the column
    const other = new SymbolTable()
    other.intern('not in the column')
    other.intern('sym3')
    const src = vectorFor(type, [100, 101, 102, 103, 104, 105], other)
    const want = [...before]
    const writes: [number, number][] = [[0, 0], [7, 2], [8, 1], [N - 1, 5], [20, 3], [7, 4]]
    for (const [i, j] of writes) {
      copy.setFrom(i, src, j)
      want[i] = text(valueOf(type, 100 + j))
    }
    t.same(rows(copy), want, 'setFrom writes exactly the rows given, nulls and var-size values included')
    t.same(rows(orig), before, 'the original is untouched')

    // a constant source (SET v = <literal>)
    const c = constVector(type, valueOf(type, 200), 1000)
    copy.setFrom(3, c, 999)
    want[3] = text(valueOf(type, 200))
    t.same(rows(copy), want, 'a constant source writes its value')

    // appending to the clone leaves the original as it was, and grows past the copied length
    copy.append(vectorFor(type, [300, 301, 302]))
    t.same(rows(copy), [...want, ...[300, 301, 302].map((k) => text(valueOf(type, k)))])
    t.same(rows(orig), before)

    const empty = new ColumnBuffer(type, 1).clone()
    t.equal(empty.length, 0)
    empty.append(vectorFor(type, [5]))
    t.same(rows(empty), [text(valueOf(type, 5))], 'an empty clone takes appends')
  })
}

t.test('setFrom with exact 64-bit values promotes a LONG column', async (t) => {
  const b = new ColumnBuffer('LONG', 4)
  b.append(vectorFor('LONG', [1, 2, 3]))
  const copy = b.clone()
  const w = new VectorWriter('LONG', 2)
  w.set(0, 9007199254740993n)
  w.set(1, null)
  const v = w.finish()
  copy.setFrom(1, v, 0)
  copy.setFrom(0, v, 1)
  t.ok(copy.isBig)
  t.same(rows(copy), ['null', '9007199254740993n', text(valueOf('LONG', 3))])
  t.notOk(b.isBig, 'the original keeps its layout')
  const again = copy.clone()
  t.ok(again.isBig, 'a clone of an exact column stays exact')
  t.same(rows(again), rows(copy))
  // a safe value written into an exact column
  again.setFrom(2, vectorFor('LONG', [4]), 0)
  t.same(rows(again), ['null', '9007199254740993n', text(valueOf('LONG', 4))])
})

t.test('INT clone keeps nulls in the slots past its length', async (t) => {
  const b = new ColumnBuffer('INT', 4)
  b.append(vectorFor('INT', [0, 1]))
  const copy = b.clone()
  // rows are written by appends; the reserved slots must read as null if a reader looks past
  copy.append(vectorFor('INT', [2]))
  t.same(rows(copy), rows(b).concat(['null']))
})

t.test('countNonNull counts once, then only rows appended since; setFrom and an older snapshot start over', async (t) => {
  const b = new ColumnBuffer('DOUBLE', 4)
  b.append({ kind: 'f64', type: 'DOUBLE', length: 4, data: Float64Array.from([1, NaN, 3, NaN]) })
  t.equal(b.countNonNull(4, 2), undefined, 'two rows a call: more left')
  t.equal(b.countNonNull(4, 2), 2)
  b.append({ kind: 'f64', type: 'DOUBLE', length: 2, data: Float64Array.from([5, NaN]) })
  t.equal(b.countNonNull(6, 2), 3, 'only the two appended rows counted')
  t.equal(b.countNonNull(4, 10), 2, 'a snapshot of fewer rows: counted from the start')
  t.equal(b.countNonNull(6, 10), 3)
  b.setFrom(0, { kind: 'f64', type: 'DOUBLE', length: 1, data: Float64Array.from([NaN]) }, 0)
  t.equal(b.countNonNull(6, 10), 2, 'a row overwritten with a null')
  const s = new ColumnBuffer('STRING', 4)
  s.append({ kind: 'str', type: 'STRING', length: 3, data: ['a', null, 'c'] } as never)
  t.equal(s.countNonNull(3, 100), 2)
})
