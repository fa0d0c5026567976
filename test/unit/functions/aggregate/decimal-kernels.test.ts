/**
 * Property tests of the DECIMAL(p <= 18) batch kernels (decimal-sum-kernel.ts,
 * decimal-min-max-kernel.ts, decimal-words.ts) against exact bigint arithmetic: random values
 * (small ones, ones near 2^53, ones up to 10^18 - 1 that force the BigInt64Array layout, nulls,
 * both signs), random batch cuts, keyed (`update`) and not (`updateOne`), split into two kernels
 * and merged as the parallel path does — in both layouts and with the layouts mixed.
 */
import t from 'tap'
import { decimalAggregateKernel } from '../../../../lib/functions/aggregate/decimal-aggregates.js'
import { DecimalSumKernel } from '../../../../lib/functions/aggregate/decimal-sum-kernel.js'
import { DecimalMinMaxKernel } from '../../../../lib/functions/aggregate/decimal-min-max-kernel.js'
import { DecimalFirstLastKernel } from '../../../../lib/functions/aggregate/decimal-first-last-kernel.js'
import { FIRST_LAST_FUNCTIONS } from '../../../../lib/functions/aggregate/first-last.js'
import type { AggregateFunctionDef } from '../../../../lib/functions/registry-types.js'
import { unscaledAt } from '../../../../lib/functions/decimal-vectors.js'
import type { AggregateKernel, CallSite } from '../../../../lib/functions/registry-types.js'
import type { Vector } from '../../../../lib/types/vector.js'
import type { DecimalType } from '../../../../lib/types/decimal.js'

const IN: DecimalType = 'DECIMAL(18,4)'
const MAX18 = 10n ** 18n - 1n
const NULL64 = -9223372036854775808n

/** A small deterministic generator (xorshift), so a failure reproduces. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1
  return () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 4294967296 }
}

type Kind = 'small' | 'mid' | 'safe' | 'wide' | 'mixed'

/** Random unscaled values of one kind, a share `nulls` of them null. */
function values(r: () => number, n: number, kind: Kind, nulls: number): (bigint | null)[] {
  const out: (bigint | null)[] = []
  for (let i = 0; i < n; i++) {
    if (r() < nulls) { out.push(null); continue }
    const k = kind === 'mixed' ? (['small', 'mid', 'safe', 'wide'] as const)[Math.floor(r() * 4)]! : kind
    let u: bigint
    if (k === 'small') u = BigInt(Math.floor(r() * 2_000_000))
    else if (k === 'mid') { out.push(BigInt(Math.floor(r() * 2 ** 40))); continue } // positive: group totals pass 2^53 and carry
    else if (k === 'safe') u = 2n ** 53n - BigInt(Math.floor(r() * 1000)) // near the safe bound
    else if (r() < 0.5) u = MAX18 - BigInt(Math.floor(r() * 300)) // past 2^53, many rounding to one double (ties by halves)
    else u = MAX18 - BigInt(Math.floor(r() * 2 ** 40)) * BigInt(Math.floor(r() * 2 ** 20)) // past 2^53, within 18 digits
    out.push(r() < 0.5 ? -u : u)
  }
  return out
}

/** The values as an i64 vector: Float64Array when every value is a safe integer (as storage keeps it), else BigInt64Array. */
function vector(vals: readonly (bigint | null)[], forceBig: boolean): Vector {
  const safe = !forceBig && vals.every((u) => u === null || (u <= 2n ** 53n && u >= -(2n ** 53n)))
  if (safe) {
    const d = new Float64Array(vals.length)
    vals.forEach((u, i) => { d[i] = u === null ? -9223372036854775808 : Number(u) })
    return { kind: 'i64', type: IN, length: vals.length, data: d }
  }
  const d = new BigInt64Array(vals.length)
  vals.forEach((u, i) => { d[i] = u ?? NULL64 })
  return { kind: 'i64', type: IN, length: vals.length, data: d }
}

function site(returns: DecimalType): CallSite {
  return { argTypes: [IN], constants: [undefined], returns, argPositions: [0], pos: 0 }
}

type Fn = 'sum' | 'avg' | 'min' | 'max' | 'first' | 'last' | 'first_not_null' | 'last_not_null'
const RETURNS: Record<Fn, DecimalType> = { sum: 'DECIMAL(38,4)', avg: IN, min: IN, max: IN, first: IN, last: IN, first_not_null: IN, last_not_null: IN }
const FNS: readonly Fn[] = ['sum', 'avg', 'min', 'max', 'first', 'last', 'first_not_null', 'last_not_null']

function kernel(fn: Fn): AggregateKernel {
  if (fn === 'sum' || fn === 'avg' || fn === 'min' || fn === 'max') return decimalAggregateKernel(fn, site(RETURNS[fn]))!
  return (FIRST_LAST_FUNCTIONS.find((f) => f.name === fn) as AggregateFunctionDef).create(site(IN))
}

/** avg: total over count, rounded half to even. */
function avgOf(total: bigint, count: bigint): bigint {
  const neg = total < 0n
  const a = neg ? -total : total
  let q = a / count
  const r2 = (a % count) * 2n
  if (r2 > count || (r2 === count && q % 2n === 1n)) q++
  return neg ? -q : q
}

/** The exact answer per group. */
function expected(fn: Fn, vals: readonly (bigint | null)[], groups: Int32Array, count: number): (bigint | null)[] {
  const out: (bigint | null)[] = []
  for (let g = 0; g < count; g++) {
    if (fn === 'first' || fn === 'last' || fn === 'first_not_null' || fn === 'last_not_null') {
      const rows = vals.filter((u, i) => groups[i] === g && (u !== null || fn === 'first' || fn === 'last'))
      out.push(rows.length === 0 ? null : fn.startsWith('first') ? rows[0]! : rows[rows.length - 1]!)
      continue
    }
    const mine = vals.filter((u, i): u is bigint => u !== null && groups[i] === g)
    if (mine.length === 0) { out.push(null); continue }
    const total = mine.reduce((a, b) => a + b, 0n)
    out.push(fn === 'sum' ? total : fn === 'avg' ? avgOf(total, BigInt(mine.length)) : mine.reduce((a, b) => (fn === 'max' ? (b > a ? b : a) : (b < a ? b : a))))
  }
  return out
}

function answers(k: AggregateKernel, count: number): (bigint | null)[] {
  const v = k.result(count)
  return Array.from({ length: count }, (_, g) => unscaledAt(v, g))
}

/** Feeds rows [lo, hi) of the values to `k` in random batches (each batch in its own layout). */
function feed(k: AggregateKernel, vals: readonly (bigint | null)[], groups: Int32Array, count: number, lo: number, hi: number, r: () => number, keyed: boolean): void {
  k.resize(count)
  for (let s = lo; s < hi;) {
    const e = Math.min(hi, s + 1 + Math.floor(r() * 9000))
    const v = vector(vals.slice(s, e), r() < 0.3)
    if (keyed) k.update(groups.subarray(s, e), [v], e - s)
    else k.updateOne(0, [v], e - s)
    s = e
  }
}

/** Another kernel of the same call site holding `k`'s state after a structured clone (as a worker's partial arrives). */
function cloned(fn: Fn, k: AggregateKernel): AggregateKernel {
  return Object.assign(kernel(fn), structuredClone({ ...k }))
}

t.test('narrow DECIMAL kernels are the batch kernels', async (t) => {
  t.ok(kernel('sum') instanceof DecimalSumKernel)
  t.ok(kernel('avg') instanceof DecimalSumKernel)
  t.ok(kernel('min') instanceof DecimalMinMaxKernel)
  t.ok(kernel('max') instanceof DecimalMinMaxKernel)
  for (const fn of ['first', 'last', 'first_not_null', 'last_not_null'] as const) t.ok(kernel(fn) instanceof DecimalFirstLastKernel, fn)
})

t.test('sum/avg/min/max equal exact bigint arithmetic: keyed and not, one kernel and merged', async (t) => {
  let cases = 0
  for (const kind of ['small', 'mid', 'safe', 'wide', 'mixed'] as const) {
    for (let seed = 1; seed <= 6; seed++) {
      const r = rng(seed * 7919 + kind.length)
      const n = 1 + Math.floor(r() * 60_000)
      const vals = values(r, n, kind, seed % 2 === 0 ? 0 : 0.11) // even seeds: no null
      const G = 1 + Math.floor(r() * 40)
      const groups = new Int32Array(n)
      for (let i = 0; i < n; i++) groups[i] = Math.floor(r() * G)
      const one = new Int32Array(n)
      for (const fn of FNS) {
        const keyedWant = expected(fn, vals, groups, G)
        const allWant = expected(fn, vals, one, 1)
        const a = kernel(fn)
        feed(a, vals, groups, G, 0, n, r, true)
        t.same(answers(a, G), keyedWant, `${fn} keyed, ${kind}, seed ${seed}`)
        const b = kernel(fn)
        feed(b, vals, one, 1, 0, n, r, false)
        t.same(answers(b, 1), allWant, `${fn} not keyed, ${kind}, seed ${seed}`)
        // split in two at a random row, the second half's state cloned and merged into the first
        const cutAt = Math.floor(r() * n)
        const first = kernel(fn), second = kernel(fn)
        feed(first, vals, groups, G, 0, cutAt, r, true)
        feed(second, vals, groups, G, cutAt, n, r, true)
        const ids = Int32Array.from({ length: G }, (_, g) => g)
        first.merge(cloned(fn, second), ids, ids, G)
        t.same(answers(first, G), keyedWant, `${fn} merged, ${kind}, seed ${seed}`)
        cases++
      }
    }
  }
  t.equal(cases, 240)
})

t.test('edge values: the null sentinel is never a value; 10^18 - 1 and its negation; all nulls', async (t) => {
  const edge = [MAX18, -MAX18, null, 0n, -1n, 1n, 2n ** 53n + 1n, -(2n ** 53n) - 1n, null]
  for (const fn of FNS) {
    for (const forceBig of [false, true]) {
      const k = kernel(fn)
      k.resize(1)
      k.updateOne(0, [vector(edge, forceBig)], edge.length)
      t.same(answers(k, 1), expected(fn, edge, new Int32Array(edge.length), 1), `${fn}, BigInt64Array=${forceBig}`)
      const z = kernel(fn)
      z.resize(1)
      z.updateOne(0, [vector([null, null], forceBig)], 2)
      t.same(answers(z, 1), [null], `${fn} of nulls, BigInt64Array=${forceBig}`)
    }
  }
  // a min/max switched to exact mode after a Float64Array batch keeps the earlier best exactly
  const k = kernel('min')
  k.resize(1)
  k.updateOne(0, [vector([-(2n ** 53n), 5n], false)], 2)
  k.updateOne(0, [vector([-(2n ** 53n) + 1n, MAX18], true)], 2)
  t.same(answers(k, 1), [-(2n ** 53n)])
})

t.test('keyed sum: a group total passing 2^53 through many batches stays exact', async (t) => {
  // 2,048 odd values of 2^40 - 1 per batch, 40 batches: the total passes 2^56
  const rows = 2048, batches = 40
  const u = 2n ** 40n - 1n
  for (const fn of ['sum', 'avg'] as const) {
    const k = kernel(fn)
    k.resize(2)
    const groups = new Int32Array(rows) // all in group 0; group 1 stays empty
    for (let b = 0; b < batches; b++) k.update(groups, [vector(new Array<bigint>(rows).fill(u), false)], rows)
    const total = u * BigInt(rows * batches)
    t.same(answers(k, 2), [fn === 'sum' ? total : u, null], fn)
  }
})
