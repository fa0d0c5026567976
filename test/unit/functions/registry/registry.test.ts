import t from 'tap'
import { allFunctions, duplicateNames, functionsNamed } from '../../../../lib/functions/registry.js'
import type { FunctionDef } from '../../../../lib/functions/registry-types.js'

t.test('no name or alias is defined twice across BUILTINS', async (t) => {
  t.same(duplicateNames(), [])
})

t.test('a scalar and an aggregate may share a name (array_elem_min), two of one kind may not', async (t) => {
  const scalar = { name: 'f', kind: 'scalar' } as unknown as FunctionDef
  const agg = { name: 'f', kind: 'aggregate' } as unknown as FunctionDef
  t.same(duplicateNames([scalar, agg]), [])
  t.same(duplicateNames([agg, { ...agg }]), ['f'])
  t.same(functionsNamed('array_elem_min').map((d) => d.kind).sort(), ['aggregate', 'scalar'])
})

t.test('duplicateNames catches a clash between a name and an alias', async (t) => {
  const a = { name: 'f', aliases: ['g'] } as unknown as FunctionDef
  const b = { name: 'G' } as unknown as FunctionDef
  t.same(duplicateNames([a, b]), ['g'])
})

t.test('every definition has a lower-case name, a description, an example and signatures', async (t) => {
  for (const d of allFunctions()) {
    t.equal(d.name, d.name.toLowerCase(), `${d.name}: lower-case name`)
    t.ok(d.description.trim().length > 0, `${d.name}: description`)
    t.ok(d.example.trim().length > 0, `${d.name}: example`)
    t.ok(d.signatures.length > 0, `${d.name}: signatures`)
    t.ok(d.family.length > 0, `${d.name}: family`)
  }
})

t.test('lookup is case-insensitive and follows aliases', async (t) => {
  t.equal(functionsNamed('SUM')[0]?.name, 'sum')
  t.equal(functionsNamed('stddev')[0]?.name, 'stddev_samp')
  t.equal(functionsNamed('variance')[0]?.name, 'var_samp')
  t.equal(functionsNamed('long_sequence')[0]?.kind, 'table')
  t.equal(functionsNamed('rnd_double')[0]?.kind, 'scalar')
  t.same(functionsNamed('no_such_function'), [])
})
