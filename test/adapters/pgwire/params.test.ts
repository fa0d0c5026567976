/**
 * Bind parameter decoding: array parameters in PostgreSQL's text form (quotes, escapes, NULL)
 * and binary form (ndim, flags, element type, dimensions, length-prefixed elements).
 */
import t from 'tap'
import { ParamError, decodeParam, parseArrayText } from '../../../adapters/pgwire/params.js'
import { Oid } from '../../../adapters/pgwire/pg-types.js'

t.test('array text: quoting, escapes, NULL, spaces, empty', async (t) => {
  t.same(parseArrayText('{a,b}', 0), ['a', 'b'])
  t.same(parseArrayText(' { a , "b c" ,NULL,"NULL", "x\\"y", z\\,w } ', 0), ['a', 'b c', null, 'NULL', 'x"y', 'z,w'])
  t.same(parseArrayText('{}', 0), [])
  t.same(parseArrayText('{"héllo"}', 0), ['héllo'])
  for (const bad of ['a,b', '{a,,b}', '{"a}', '{{1,2},{3,4}}', '{a b', '{"a" "b"}']) {
    t.throws(() => parseArrayText(bad, 1), ParamError, `refused: ${bad}`)
  }
  t.throws(() => parseArrayText('{{1}}', 1), /parameter \$2 \(only one dimension is supported\)/)
})

t.test('declared array types decode their elements by the element type', async (t) => {
  t.same(decodeParam('{1,2,NULL}', Oid.INT4_ARRAY, 0, 0), [1, 2, null])
  t.same(decodeParam('{9007199254740993}', Oid.INT8_ARRAY, 0, 0), [9007199254740993n])
  t.same(decodeParam('{a,"b"}', Oid.VARCHAR_ARRAY, 0, 0), ['a', 'b'])
  t.same(decodeParam(Buffer.from('{t,f}'), Oid.BOOL_ARRAY, 0, 0), [true, false], 'text sent as bytes')
})

/** PostgreSQL's binary array: 1-D, element OID, the elements' bytes (null for NULL). */
function binaryArray(elemOid: number, items: (Buffer | null)[]): Buffer {
  const head = Buffer.alloc(20)
  head.writeInt32BE(1, 0)
  head.writeInt32BE(items.includes(null) ? 1 : 0, 4)
  head.writeInt32BE(elemOid, 8)
  head.writeInt32BE(items.length, 12)
  head.writeInt32BE(1, 16)
  const parts: Buffer[] = [head]
  for (const x of items) {
    const len = Buffer.alloc(4)
    len.writeInt32BE(x === null ? -1 : x.length)
    parts.push(len)
    if (x !== null) parts.push(x)
  }
  return Buffer.concat(parts)
}

t.test('binary arrays', async (t) => {
  t.same(decodeParam(binaryArray(Oid.TEXT, [Buffer.from('a'), null, Buffer.from('héllo')]), Oid.TEXT_ARRAY, 1, 0), ['a', null, 'héllo'])
  const i8 = Buffer.alloc(8)
  i8.writeBigInt64BE(-5n)
  t.same(decodeParam(binaryArray(Oid.INT8, [i8]), Oid.INT8_ARRAY, 1, 0), [-5n])
  const empty = Buffer.alloc(12)
  t.same(decodeParam(empty, Oid.TEXT_ARRAY, 1, 0), [], 'zero dimensions: empty')
  t.throws(() => decodeParam(binaryArray(Oid.TEXT, [Buffer.from('a')]).subarray(0, 22), Oid.TEXT_ARRAY, 1, 0), ParamError, 'truncated')
  const twoDims = binaryArray(Oid.TEXT, [])
  twoDims.writeInt32BE(2, 0)
  t.throws(() => decodeParam(twoDims, Oid.TEXT_ARRAY, 1, 0), /2 dimensions/)
})
