/** json_extract's JSONPath subset and raw-text results (QuestDB's json.md). */
import t from 'tap'
import { jsonExtract, parseJsonPath } from '../../../../lib/functions/scalar/json-extract.js'

t.same(parseJsonPath('$.a.b[0]'), ['a', 'b', 0])
t.same(parseJsonPath('a[2].c'), ['a', 2, 'c'])
t.same(parseJsonPath('$'), [])
t.equal(parseJsonPath('$.a['), undefined)

const doc = '{ "s" : "x\\"y", "n": 1.0, "arr": [ 1 , {"k": [true, null]} ], "o": {"z": -2e3} }'
t.equal(jsonExtract(doc, '$.s'), 'x"y', 'a string is unescaped')
t.equal(jsonExtract(doc, '$.n'), '1.0', 'a number keeps its text')
t.equal(jsonExtract(doc, '$.arr'), '[ 1 , {"k": [true, null]} ]', 'an array is its raw text')
t.equal(jsonExtract(doc, '$.arr[1].k[0]'), 'true')
t.equal(jsonExtract(doc, '$.arr[1].k[1]'), null, 'JSON null is NULL')
t.equal(jsonExtract(doc, '$.o.z'), '-2e3')
t.equal(jsonExtract(doc, '$.arr[2]'), null, 'index past the end')
t.equal(jsonExtract(doc, '$.missing'), null)
t.equal(jsonExtract(doc, '$.s.x'), null, 'a field of a string')
t.equal(jsonExtract(doc, '$.arr.x'), null, 'a field of an array')
t.equal(jsonExtract('{"name": "Lisa"', '$.name'), null, 'malformed document')
t.equal(jsonExtract('[0.25, 0.5, 1.0]', '$'), '[0.25, 0.5, 1.0]')
