/**
 * Parse time of common statements (a benchmark, not a test): `node --import tsx test/bench/parse-corpus.ts`.
 * 1,000 statements cycled from the grammar's ambiguity corpus (test/unit/sql/corpus.ts: every
 * form of the dialect), or from the file `EPOCHDB_BENCH_CORPUS` names (one statement a line),
 * parsed by `parseStatement`; prints the total of the best of EPOCHDB_BENCH_RUNS (default 7)
 * runs after a warm-up, and the mean per statement. Statements that do not parse are left out
 * (and counted), so an older grammar can be measured on the same file.
 */
import { readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import { parseStatement } from '../../lib/sql/parse.js'
import { CORPUS } from '../unit/sql/corpus.js'

const RUNS = Number(process.env['EPOCHDB_BENCH_RUNS'] ?? 7)
const file = process.env['EPOCHDB_BENCH_CORPUS']
const source = file === undefined ? CORPUS : readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '')
const parses = source.filter((s) => { try { parseStatement(s); return true } catch { return false } })
const statements = Array.from({ length: 1000 }, (_, i) => parses[i % parses.length]!)

const run = (): void => { for (const s of statements) parseStatement(s) }
run()
let ms = Infinity
for (let k = 0; k < RUNS; k++) { const t0 = performance.now(); run(); ms = Math.min(ms, performance.now() - t0) }
console.log(`parse-corpus: ${parses.length} of ${source.length} distinct statements parse; 1,000 statements in ${ms.toFixed(1)} ms (${(ms).toFixed(0)} µs each, best of ${RUNS})`)
