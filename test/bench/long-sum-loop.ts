/**
 * Benchmark (not a test): the keyed `sum(LONG)` / `sum(INT)` kernel's update loop alone, this tree's
 * against another tree's (`LongSumKernel` of each), alternating in one process, so both see the
 * same load. 2M rows in 65,536-row batches with fresh views (as a scan hands them over: V8 does
 * not treat them as constants), 100 groups, and the unkeyed loop (`updateOne`, one group) over the
 * same rows; reports the best and median ns/row of CPU time (`process.cpuUsage`: the loop runs on
 * this thread alone, so a loaded machine's waits are not counted).
 *
 *   node --import tsx test/bench/long-sum-loop.ts <base tree> [rounds]
 *
 * `<base tree>` holds another copy of `lib/` (e.g. `git archive <commit> lib | tar -x -C .bench-base`).
 */
import { pathToFileURL } from 'node:url'
import { resolve } from 'node:path'
import type { AggregateKernel } from '../../lib/functions/registry-types.js'
import type { Vector } from '../../lib/types/vector.js'

const BASE = resolve(process.argv[2] ?? '.bench-base')
const ROUNDS = Number(process.argv[3] ?? 30)
const ROWS = 2_000_000, BATCH = 65_536, GROUPS = 100

type Ctor = new () => AggregateKernel
const load = async (lib: string): Promise<Ctor> =>
  (await import(pathToFileURL(resolve(lib, 'functions/aggregate/long-sum.ts')).href) as { LongSumKernel: Ctor }).LongSumKernel
const kernels: [string, Ctor][] = [['base', await load(resolve(BASE, 'lib'))], ['this', await load(resolve(import.meta.dirname, '../../lib'))]]

const longs = Float64Array.from({ length: ROWS }, (_, i) => 1e12 + (i % GROUPS))
const ints = Int32Array.from({ length: ROWS }, (_, i) => (i % GROUPS) - 50)
const groups = Int32Array.from({ length: ROWS }, (_, i) => i % GROUPS)

function run(K: Ctor, type: 'LONG' | 'INT', keyed: boolean): [number, string] {
  const k = new K()
  k.resize(GROUPS)
  const c0 = process.cpuUsage()
  for (let lo = 0; lo < ROWS; lo += BATCH) {
    const hi = Math.min(lo + BATCH, ROWS)
    const v = (type === 'LONG'
      ? { kind: 'i64', type, length: hi - lo, data: longs.subarray(lo, hi) }
      : { kind: 'i32', type, length: hi - lo, data: ints.subarray(lo, hi) }) as Vector
    if (keyed) k.update(groups.subarray(lo, hi), [v], hi - lo)
    else k.updateOne(0, [v], hi - lo)
  }
  const c = process.cpuUsage(c0)
  const ms = (c.user + c.system) / 1000
  const r = k.result(GROUPS).data as Float64Array
  return [ms, `${r[0]},${r[GROUPS - 1]}`]
}

const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]! }
console.log(`LongSumKernel.update, ${ROWS.toLocaleString('en-US')} rows, ${GROUPS} groups, ${ROUNDS} rounds, ${new Date().toISOString()}`)
for (const [type, keyed] of [['LONG', true], ['INT', true], ['LONG', false], ['INT', false]] as const) {
  const times = kernels.map(() => [] as number[])
  const answers = new Set<string>()
  for (let r = 0; r < ROUNDS; r++) {
    for (let i = 0; i < kernels.length; i++) { const [ms, a] = run(kernels[i]![1], type, keyed); times[i]!.push(ms); answers.add(a) }
  }
  for (let i = 0; i < kernels.length; i++) {
    const ns = (ms: number): string => (ms * 1e6 / ROWS).toFixed(2)
    console.log(`  ${keyed ? 'keyed' : 'unkeyed'} sum(${type}) ${kernels[i]![0]}: ${ns(Math.min(...times[i]!))} / ${ns(median(times[i]!))} ns/row (best / median)`)
  }
  if (answers.size !== 1) console.log(`  ANSWERS DIFFER: ${[...answers].join(' ')}`)
}
