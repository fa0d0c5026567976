/**
 * Expressions over a whole materialized input are evaluated slice by slice (exec/evaluate-sliced.ts):
 * the result equals one evaluation over every row, the event loop turns between slices, and a
 * cancel lands between them. Sort keys, hash-join build keys and SPLICE keys go through it.
 */
import t from 'tap'
import { ExecContext } from '../../../lib/exec/context.js'
import { SLICE_ROWS, evaluateSliced } from '../../../lib/exec/evaluate-sliced.js'
import { compileExpr } from '../../../lib/exec/evaluate.js'
import type { BoundExpr } from '../../../lib/plan/plan-node.js'
import { functionsNamed } from '../../../lib/functions/registry.js'
import type { ScalarFunctionDef } from '../../../lib/functions/registry-types.js'
import { Database } from '../../../lib/index.js'
import { getScalar, type Batch } from '../../../lib/types/vector.js'

const n = SLICE_ROWS * 8 + 123
const input: Batch = { length: n, vectors: [{ kind: 'f64', type: 'DOUBLE', length: n, data: Float64Array.from({ length: n }, (_, i) => i) }] }
const x: BoundExpr = { kind: 'column', type: 'DOUBLE', index: 0 }
const concat = functionsNamed('concat').find((d) => d.kind === 'scalar') as ScalarFunctionDef
/** concat('k', x): a string per row */
const expr: BoundExpr = { kind: 'call', type: 'STRING', def: concat, site: { pos: 0, argPositions: [0, 0] } as never, args: [{ kind: 'const', type: 'STRING', value: 'k' }, x] }

const context = (signal?: { cancelled: boolean }) => new ExecContext(0, () => 0, 'admin', undefined as never, '', [], signal)

t.test('slice by slice equals one evaluation, and the event loop turns meanwhile', async (t) => {
  const ctx = context()
  let turns = 0
  let on = true
  const tick = (): void => { if (on) { turns++; setImmediate(tick) } }
  setImmediate(tick)
  const sliced = await evaluateSliced(expr, input, ctx).finally(() => { on = false })
  const whole = compileExpr(expr, context())(input)
  t.equal(sliced.length, n)
  let same = true
  for (let i = 0; i < n; i += 997) if (getScalar(sliced, i) !== getScalar(whole, i)) same = false
  t.ok(same && getScalar(sliced, n - 1) === `k${n - 1}.0`, `every sampled row equal (last: ${String(getScalar(sliced, n - 1))})`)
  t.ok(turns > 0, `the event loop turned ${turns} times`)
  t.equal(await evaluateSliced(x, input, ctx), input.vectors[0], 'a column is its vector')
})

t.test('a cancel lands between slices', async (t) => {
  const signal = { cancelled: false }
  setImmediate(() => { signal.cancelled = true })
  const err = await evaluateSliced(expr, input, context(signal)).then(() => undefined, (e: { code: string }) => e)
  // one slice takes well under the 8 ms yield interval on a fast machine: the cancel may come
  // after the last slice there, but never leaves a wrong result
  t.ok(err === undefined || err.code === '57014', `ended with ${err?.code ?? 'the whole result'}`)
})

t.test('sort keys, hash-join keys and LIMIT -n over more rows than a slice', async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  const rows = SLICE_ROWS * 3
  const sorted = await db.query(`select x from long_sequence(${rows}) order by concat('k', x % 1000, '-', x) desc limit 3`)
  const want = Array.from({ length: rows }, (_, i) => i + 1).sort((a, b) => { const ka = `k${a % 1000}-${a}`, kb = `k${b % 1000}-${b}`; return ka < kb ? 1 : ka > kb ? -1 : 0 }).slice(0, 3)
  t.same(sorted.rows.map((r) => Number(r[0])), want, `computed string keys sort as text (${want.join(', ')})`)
  const joined = await db.query(`select count() from long_sequence(${rows}) a join long_sequence(${rows}) b on a.x = b.x`)
  t.same(joined.rows.map((r) => Number(r[0])), [rows], 'every row finds its twin')
  const last = await db.query(`select x from long_sequence(${rows}) limit -3`)
  t.same(last.rows.map((r) => Number(r[0])), [rows - 2, rows - 1, rows], 'LIMIT -3')
  const count = await db.query(`select count(), min(x), max(x) from (select x from long_sequence(${rows}) limit -${SLICE_ROWS * 2})`)
  t.same(count.rows[0]!.map(Number), [SLICE_ROWS * 2, SLICE_ROWS + 1, rows], 'LIMIT -n over several batches')
})
