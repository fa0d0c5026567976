/**
 * Result encoders, per-value reference vs straight into bytes (a benchmark, not a test):
 * `node --import tsx test/bench/encoders.ts`. The batch is TSBS `high-cpu-all`'s shape — 10
 * SYMBOL tags, 10 DOUBLE metrics with two decimals, a TIMESTAMP — 100,000 rows in batches of
 * 4,096; each encoder runs best of EPOCHDB_BENCH_RUNS (default 5) after a warm-up and prints ns
 * per row. Both sides write the same bytes (test/adapters/pgwire/data-row-writer.test.ts,
 * test/adapters/http/json-rows.test.ts, csv-rows.test.ts).
 */
import { performance } from 'node:perf_hooks'
import type { ColumnType, Vector } from '../../lib/index.js'
import { ByteWriter } from '../../lib/internal.js'
import { SymbolTable, vectorOf } from '../../lib/types/vector.js'
import { BufferWriter } from '../../adapters/pgwire/buffer-writer.js'
import { columnWriter, writeRows } from '../../adapters/pgwire/data-row-writer.js'
import { cellEncoder, writeDataRows } from '../../adapters/pgwire/value-encoders.js'
import { jsonColumn } from '../../adapters/http/json/json-rows.js'
import { csvColumn } from '../../adapters/http/csv/csv-rows.js'

const ROWS = 100_000
const BATCH = 4096
const RUNS = Number(process.env['EPOCHDB_BENCH_RUNS'] ?? 5)

const types: ColumnType[] = [...Array<ColumnType>(10).fill('SYMBOL'), ...Array<ColumnType>(10).fill('DOUBLE'), 'TIMESTAMP']
const dicts = Array.from({ length: 10 }, (_, k) => {
  const d = new SymbolTable()
  for (let i = 0; i < 100; i++) d.intern(`tag${k}_${i}`)
  return d
})
const batches: Vector[][] = []
for (let from = 0; from < ROWS; from += BATCH) {
  const n = Math.min(BATCH, ROWS - from)
  batches.push(types.map((type, c) => {
    if (type === 'SYMBOL') return vectorOf(type, Int32Array.from({ length: n }, (_, i) => (from + i) % 100), n, dicts[c]!)
    if (type === 'DOUBLE') return vectorOf(type, Float64Array.from({ length: n }, (_, i) => Math.round(((from + i) * 37 + c * 11) % 10000) / 100), n)
    return vectorOf(type, Float64Array.from({ length: n }, (_, i) => 1451606400000000 + (from + i) * 10_000_000), n)
  }))
}

function best(run: () => void): number {
  run()
  let ms = Infinity
  for (let k = 0; k < RUNS; k++) { const t0 = performance.now(); run(); ms = Math.min(ms, performance.now() - t0) }
  return (ms * 1e6) / ROWS
}

const rows: [string, () => void, () => void][] = [0, 1].map((format) => [
  `pgwire DataRow, ${format === 0 ? 'text' : 'binary'}`,
  () => { const w = new BufferWriter(); const enc = types.map((ty) => cellEncoder(ty, format as 0 | 1)); for (const b of batches) { writeDataRows(w, b, enc, 0, b[0]!.length); w.flush() } },
  () => { const w = new BufferWriter(); const cols = types.map((ty) => columnWriter(ty, format as 0 | 1, w)); for (const b of batches) { writeRows(w, b.map((v, c) => cols[c]!(v)), 0, b[0]!.length); w.flush() } },
])
function bytesRun(column: (type: ColumnType, w: ByteWriter) => (v: Vector) => (i: number) => void): () => void {
  return () => {
    const w = new ByteWriter(1 << 20)
    const cols = types.map((ty) => column(ty, w))
    for (const b of batches) {
      const cells = b.map((v, c) => cols[c]!(v))
      for (let i = 0; i < b[0]!.length; i++) for (const cell of cells) cell(i)
      w.take()
    }
  }
}

console.log(`${ROWS.toLocaleString('en-US')} rows x ${types.length} columns, best of ${RUNS}, ns per row`)
for (const [label, reference, fast] of rows) {
  const a = best(reference)
  const b = best(fast)
  console.log(`${label}: per-value ${a.toFixed(0)}, straight into bytes ${b.toFixed(0)} (${(a / b).toFixed(1)}x)`)
}
console.log(`/exec JSON cells: ${best(bytesRun((ty, w) => jsonColumn(ty, w, false))).toFixed(0)}`)
console.log(`/exp CSV cells: ${best(bytesRun((ty, w) => csvColumn(ty, w))).toFixed(0)}`)
