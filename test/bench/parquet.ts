/**
 * Parquet benchmark (not a test): `node --import tsx test/bench/parquet.ts`.
 * One table of N rows (default 10M): ts, sym (100 symbols), three doubles; the same rows in DuckDB.
 * Prints, in one run: EpochDB's export (db.exportParquet, snappy, 100k-row groups; with its
 * compression threads, and again with compression on the statement's thread) vs DuckDB's
 * `COPY ... TO (FORMAT PARQUET)` (snappy, same row groups); then a scan of each engine's file by
 * both readers (EpochDB read_parquet: count, sum of a double; DuckDB read_parquet: the same), and
 * EpochDB's peak RSS during its export; a small export and scan warm both engines up first. CPU
 * time is printed beside wall time (DuckDB runs in this process, so its threads count too): on a
 * loaded machine it is the steadier figure.
 * Environment: EPOCHDB_BENCH_ROWS.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { DuckDBInstance } from '@duckdb/node-api'
import { Database } from '../../lib/index.js'
import { PARALLELISM } from '../../lib/exec/parallel/pool.js'

const ROWS = Number(process.env['EPOCHDB_BENCH_ROWS'] ?? 10_000_000)
const dir = mkdtempSync(join(tmpdir(), 'epochdb-bench-parquet-'))
const ms = (t: number): string => `${t.toFixed(0)} ms`
const rate = (t: number): string => `${(ROWS / t / 1000).toFixed(2)} M rows/s`
/** CPU time (user + system, every thread of the process: DuckDB's too) since `c0`. */
const cpuMs = (c0: NodeJS.CpuUsage): number => { const c = process.cpuUsage(c0); return (c.user + c.system) / 1000 }
const mb = (b: number): string => `${(b / 1048576).toFixed(0)} MB`

async function main(): Promise<void> {
  const db = await Database.open({ copyRoot: dir })
  const syms = Array.from({ length: 100 }, (_, i) => `s${i}`)
  await db.query('CREATE TABLE t (ts TIMESTAMP, sym SYMBOL, a DOUBLE, b DOUBLE, c DOUBLE) TIMESTAMP(ts) PARTITION BY DAY')
  const BATCH = 100_000
  for (let s = 0; s < ROWS; s += BATCH) {
    const n = Math.min(BATCH, ROWS - s)
    const ts = new Float64Array(n), a = new Float64Array(n), b = new Float64Array(n), c = new Float64Array(n)
    const sym: string[] = new Array(n)
    for (let i = 0; i < n; i++) { const r = s + i; ts[i] = 1704067200000000 + r * 100_000; sym[i] = syms[r % 100]!; a[i] = r * 0.5; b[i] = (r % 977) / 7; c[i] = Math.sin(r) }
    await db.append('t', { ts, sym, a, b, c })
  }
  const inst = await DuckDBInstance.create(':memory:')
  const duck = await inst.connect()
  await duck.run(`CREATE TABLE t AS SELECT TIMESTAMPTZ '2024-01-01 00:00:00+00' + to_microseconds(r * 100000) AS ts, 's' || (r % 100) AS sym,
    (r * 0.5)::DOUBLE AS a, ((r % 977) / 7)::DOUBLE AS b, sin(r) AS c FROM range(${ROWS}) t(r)`)

  // warm-up (JIT, the compression threads' start): a small export, not measured
  await db.exportParquet('SELECT * FROM t LIMIT 300000', join(dir, 'warm.parquet'), { compressionCodec: 'snappy', rowGroupSize: 100_000 })
  await db.query(`SELECT count(), sum(a) FROM read_parquet('warm.parquet')`)
  await duck.runAndReadAll(`SELECT count(*), sum(a) FROM read_parquet('${join(dir, 'warm.parquet')}')`)
  let peak = 0
  const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss) }, 50)
  const rss0 = process.memoryUsage().rss
  let t0 = performance.now()
  let c0 = process.cpuUsage()
  const elu0 = performance.eventLoopUtilization()
  const r = await db.exportParquet('SELECT * FROM t', join(dir, 'epoch.parquet'), { compressionCodec: 'snappy', rowGroupSize: 100_000 })
  const epochExport = performance.now() - t0
  const epochCpu = cpuMs(c0)
  // the statement's thread's busy time: on an idle machine the export's wall time is about the
  // larger of this and the CPU time over the cores
  const mainBusy = performance.eventLoopUtilization(elu0).active
  clearInterval(sampler)
  // the same export with compression on the statement's thread (EPOCHDB_WORKERS=0)
  PARALLELISM.enabled = false
  t0 = performance.now()
  c0 = process.cpuUsage()
  await db.exportParquet('SELECT * FROM t', join(dir, 'epoch1.parquet'), { compressionCodec: 'snappy', rowGroupSize: 100_000 })
  const oneExport = performance.now() - t0
  const oneCpu = cpuMs(c0)
  PARALLELISM.enabled = true
  t0 = performance.now()
  c0 = process.cpuUsage()
  await duck.run(`COPY t TO '${join(dir, 'duck.parquet')}' (FORMAT PARQUET, COMPRESSION SNAPPY, ROW_GROUP_SIZE 100000)`)
  const duckExport = performance.now() - t0
  const duckCpu = cpuMs(c0)
  console.log(`rows ${ROWS}`)
  console.log(`export   EpochDB ${ms(epochExport)} (${rate(epochExport)}, ${mb(statSync(join(dir, 'epoch.parquet')).size)}, RSS ${mb(rss0)} -> peak ${mb(peak)})   DuckDB ${ms(duckExport)} (${rate(duckExport)}, ${mb(statSync(join(dir, 'duck.parquet')).size)})   ratio ${(epochExport / duckExport).toFixed(1)}x   CPU ${ms(epochCpu)} vs ${ms(duckCpu)} (${(epochCpu / duckCpu).toFixed(1)}x)`)
  console.log(`export   EpochDB statement thread busy ${ms(mainBusy)} (the rest of its CPU on the compression threads)`)
  console.log(`export   EpochDB one thread ${ms(oneExport)} (${rate(oneExport)}), CPU ${ms(oneCpu)}   threaded / one thread ${(epochExport / oneExport).toFixed(2)}x`)
  if (r.rows !== ROWS) throw new Error(`exported ${r.rows} rows`)
  for (const f of ['epoch.parquet', 'duck.parquet']) {
    t0 = performance.now()
    c0 = process.cpuUsage()
    const e = await db.query(`SELECT count(), sum(a) FROM read_parquet('${f}')`)
    const epochScan = performance.now() - t0
    const epochScanCpu = cpuMs(c0)
    t0 = performance.now()
    c0 = process.cpuUsage()
    const d = (await duck.runAndReadAll(`SELECT count(*), sum(a) FROM read_parquet('${join(dir, f)}')`)).getRows()
    const duckScan = performance.now() - t0
    const duckScanCpu = cpuMs(c0)
    t0 = performance.now()
    await db.query(`SELECT count() FROM read_parquet('${f}') WHERE ts IN '2024-01-02T03'`)
    const epochPruned = performance.now() - t0
    console.log(`scan ${f.padEnd(13)} EpochDB ${ms(epochScan)} (${rate(epochScan)})   DuckDB ${ms(duckScan)} (${rate(duckScan)})   ratio ${(epochScan / duckScan).toFixed(1)}x   CPU ${ms(epochScanCpu)} vs ${ms(duckScanCpu)}   EpochDB one hour (pruned) ${ms(epochPruned)}   sums ${String(e.rows[0]![1])} / ${String(d[0]![1])}`)
  }
  duck.closeSync()
  inst.closeSync()
  await db.close()
}

main().finally(() => rmSync(dir, { recursive: true, force: true })).catch((e) => { console.error(e); process.exitCode = 1 })
