/**
 * Benchmark (not a test): `ColumnBuffer.clone()` and `ColumnBuffer.setFrom` (UPDATE's copy-on-write
 * of a changed column, then one write per changed row), this tree's against another tree's,
 * alternating in one process. 1M-row DOUBLE, LONG, INT and SYMBOL columns; setFrom writes every
 * 10th row from a 65,536-row source vector. Reports best / median ms of each.
 *
 *   node --import tsx test/bench/column-copy.ts <base tree> [rounds]
 */
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import { resolve } from 'node:path'
import type { ColumnBuffer as CB } from '../../lib/storage/column-buffer.js'
import type { ColumnType } from '../../lib/types/column-type.js'
import type { Vector } from '../../lib/types/vector.js'

const BASE = resolve(process.argv[2] ?? '.bench-base')
const ROUNDS = Number(process.argv[3] ?? 15)
const ROWS = 1_000_000, SRC = 65_536

type Ctor = new (type: ColumnType, capacity?: number) => CB
const load = async (lib: string): Promise<Ctor> =>
  (await import(pathToFileURL(resolve(lib, 'storage/column-buffer.ts')).href) as { ColumnBuffer: Ctor }).ColumnBuffer
const trees: [string, Ctor][] = [['base', await load(resolve(BASE, 'lib'))], ['this', await load(resolve(import.meta.dirname, '../../lib'))]]

function column(C: Ctor, type: ColumnType): [CB, Vector] {
  const b = new C(type, ROWS)
  const data = type === 'DOUBLE' ? Float64Array.from({ length: ROWS }, (_, i) => i / 3)
    : type === 'LONG' ? Float64Array.from({ length: ROWS }, (_, i) => 1e12 + i)
      : Int32Array.from({ length: ROWS }, (_, i) => i % 1000)
  const kind = type === 'DOUBLE' ? 'f64' : type === 'LONG' ? 'i64' : type === 'INT' ? 'i32' : 'sym'
  const v = { kind, type, length: ROWS, data } as Vector
  if (kind === 'sym') {
    const dict = b.dict!
    for (let i = 0; i < 1000; i++) dict.intern(`s${i}`)
    ;(v as { dict?: unknown }).dict = dict
  }
  b.append(v)
  return [b, { ...v, length: SRC, data: data.slice(0, SRC).reverse() } as Vector]
}

const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]! }
console.log(`ColumnBuffer clone + setFrom, ${ROWS.toLocaleString('en-US')} rows, ${ROUNDS} rounds, ${new Date().toISOString()}`)
for (const type of ['DOUBLE', 'LONG', 'INT', 'SYMBOL'] as ColumnType[]) {
  const cols = trees.map(([, C]) => column(C, type))
  const clone = trees.map(() => [] as number[]), set = trees.map(() => [] as number[])
  for (let r = 0; r < ROUNDS; r++) {
    for (let i = 0; i < trees.length; i++) {
      const [b, src] = cols[i]!
      const t0 = performance.now()
      const c = b.clone()
      const t1 = performance.now()
      for (let row = 0; row < ROWS; row += 10) c.setFrom(row, src, row % SRC)
      const t2 = performance.now()
      clone[i]!.push(t1 - t0); set[i]!.push(t2 - t1)
    }
  }
  for (let i = 0; i < trees.length; i++) {
    const f = (xs: number[]): string => `${Math.min(...xs).toFixed(2)} / ${median(xs).toFixed(2)} ms`
    console.log(`  ${type.padEnd(6)} ${trees[i]![0]}: clone ${f(clone[i]!)}, setFrom x${ROWS / 10} ${f(set[i]!)}`)
  }
}
