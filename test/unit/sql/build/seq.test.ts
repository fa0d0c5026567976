import t from 'tap'
import { add, deferred, finishAst, one, toArray } from '../../../../lib/sql/build/seq.js'

t.test('add never changes the list it extends (alternative parses can share a prefix)', async (t) => {
  const ab = add(one('a'), 'b')
  const abc = add(ab, 'c')
  const abd = add(ab, 'd')
  t.same(toArray(ab), ['a', 'b'])
  t.same(toArray(abc), ['a', 'b', 'c'])
  t.same(toArray(abd), ['a', 'b', 'd'])
  t.same(toArray(null), [])
  t.same(toArray(['x']), ['x'])
})

t.test('finishAst replaces Seqs and deferred values anywhere in the tree, without recursion', async (t) => {
  const tree = { kind: 'x', list: add(one({ v: add(one(1), 2) }), { v: one(3) }), later: deferred(() => ({ n: one(7) })) }
  t.same(finishAst(tree), { kind: 'x', list: [{ v: [1, 2] }, { v: [3] }], later: { n: [7] } })
  // a chain 200,000 deep: an iterative walk
  let deep: Record<string, unknown> = { leaf: one(1) }
  for (let i = 0; i < 200_000; i++) deep = { child: deep }
  let at = finishAst(deep)
  while ('child' in at) at = at.child as Record<string, unknown>
  t.same(at, { leaf: [1] })
})
