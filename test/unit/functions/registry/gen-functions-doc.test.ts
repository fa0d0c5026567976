import t from 'tap'
import { formatSignature, renderFunctionsDoc } from '../../../../docs/gen-functions-doc.js'
import { allFunctions } from '../../../../lib/functions/registry.js'

t.test('signatures print QuestDB type names, const markers and variadics', async (t) => {
  t.equal(formatSignature('rnd_int', { args: ['INT', 'INT', 'INT'], constant: [0, 1, 2], returns: 'INT' }), 'rnd_int(INT const, INT const, INT const) → INT')
  t.equal(formatSignature('rnd_symbol', { args: ['STRING'], variadic: 'STRING', returns: 'SYMBOL' }), 'rnd_symbol(STRING, STRING...) → SYMBOL')
  t.equal(formatSignature('max', { args: ['IPV4'], returns: 'IPV4' }), 'max(IPv4) → IPv4')
  t.equal(formatSignature('first', { args: ['ANY'], returns: (a) => a[0]! }), 'first(any) → same as argument')
})

t.test('the document has a section per family and an entry per function', async (t) => {
  const doc = renderFunctionsDoc(allFunctions())
  for (const d of allFunctions()) t.ok(doc.includes(`\n### ${d.name}\n`), d.name)
  t.match(doc, /\n## aggregate\n/)
  t.match(doc, /\n## rnd\n/)
})
