/**
 * Symbol indexes never change an answer: the same random writes go to a table whose SYMBOL column
 * is indexed and to one where it is not (in memory, and durable with frequent checkpoints and a
 * reopen), including out-of-order inserts, DEDUP upserts, UPDATE and dropped partitions; after
 * every step the queries the index serves (`=`, `IN`, with and without time ranges, keyed SAMPLE
 * BY, LATEST ON with a filter and bare `LATEST ON ts PARTITION BY s`) must return the same rows from both; durable tables also across restarts and
 * crashes that leave the index files damaged (they are never trusted past what they provably index). Also: EXPLAIN shows the index, ALTER ... ADD /
 * DROP INDEX switch it, and the index of an in-memory buffer grows with its appends.
 */
import t, { type Test } from 'tap'
import { Database } from '../../../lib/index.js'
import { SymbolPostings, indexedRows } from '../../../lib/storage/symbol-index.js'
import { tmpDir } from './helpers.js'
import { appendFileSync, cpSync, existsSync, readFileSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { STORAGE_STATS, resetStorageStats } from '../../../lib/storage/durable/part-cache.js'

/** A seeded generator (xorshift32). */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1
  return () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 4294967296 }
}

const DAY = 86_400_000_000
const START = Date.UTC(2024, 0, 1) * 1000
const SYMS = ['a', 'b', 'c', 'd', 'e', 'f', 'g']

const iso = (us: number): string => new Date(us / 1000).toISOString()

async function scenario(t: Test, label: string, open: () => Promise<Database>, reopen: ((db: Database) => Promise<Database>) | undefined, dedup: boolean, seed: number): Promise<void> {
  const r = rng(seed)
  let db = await open()
  const ddl = (name: string, idx: boolean): string =>
    `create table ${name} (s symbol${idx ? ' index capacity 64' : ''}, k symbol, v double, ts timestamp, w varchar) timestamp(ts) partition by day${dedup ? ' wal dedup upsert keys(ts, s)' : ''}`
  await db.query(ddl('ti', true))
  await db.query(ddl('tu', false))
  const both = async (sql: string): Promise<void> => { await db.query(sql.replaceAll('$T', 'ti')); await db.query(sql.replaceAll('$T', 'tu')) }
  const sym = (): string => (r() < 0.08 ? 'null' : `'${SYMS[Math.floor(r() * SYMS.length)]!}'`)
  let checks = 0
  const compare = async (step: string): Promise<void> => {
    const s1 = SYMS[Math.floor(r() * SYMS.length)]!
    const s2 = SYMS[Math.floor(r() * SYMS.length)]!
    const lo = iso(START + Math.floor(r() * 5 * DAY))
    const hi = iso(START + Math.floor(r() * 6 * DAY))
    const queries = [
      `select * from $T where s = '${s1}'`,
      `select * from $T where s in ('${s1}', '${s2}', 'nope') and ts >= '${lo}'`,
      `select * from $T where s = '${s1}' and ts >= '${lo}' and ts < '${hi}' and v > 0.3`,
      `select * from $T where s in ('${s2}', null)`,
      `select ts, s, count(), sum(v) from $T where s in ('${s1}', '${s2}') sample by 6h`,
      `select * from $T where s = '${s2}' latest on ts partition by s`,
      `select * from $T latest on ts partition by s`,
      `select s, v from $T latest on ts partition by s`,
      `select ts, s, max(v), count() from $T where s in ('${s1}', null) sample by 1d`,
      `select count() from $T where s = 'never-seen'`,
      // a filter over the index reads the predicate's columns first, the others at the rows it keeps
      `select k, ts from $T where s in ('${s1}', '${s2}') and v < 0.5`,
      `select v, s, w from $T where s = '${s1}' and (k = 'a' or v > 0.8)`,
      `select w, k from $T where s = '${s2}' and w in ('w1', 'w3') and ts < '${hi}'`,
      `select count(), round(sum(v), 6) from $T where s in ('${s1}', null) and k != 'b'`, // (a sum's last digit depends on how rows are batched)
      `select * from $T where s in ('${s1}', '${s2}') and v between 0.2 and 0.7 and ts >= '${lo}'`,
      `select ts, s, max(v) from $T where s = '${s1}' and v > 0.1 sample by 1d`,
      `select * from $T where s = '${s2}' and v > 2`,
    ]
    for (const q of queries) {
      const a = (await db.query(q.replaceAll('$T', 'ti'))).rows
      const b = (await db.query(q.replaceAll('$T', 'tu'))).rows
      t.same(a, b, `${label} ${step}: ${q}`)
      checks++
    }
  }
  let newest = START
  for (let step = 0; step < 14; step++) {
    const op = r()
    if (op < 0.55) {
      const rows: string[] = []
      const n = 1 + Math.floor(r() * 60)
      const late = r() < 0.4
      for (let i = 0; i < n; i++) {
        const ts = late ? START + Math.floor(r() * (newest - START + DAY)) : (newest += Math.floor(r() * 3_600_000_000))
        // a few exact repeats of a timestamp, for DEDUP to upsert
        rows.push(`(${sym()}, '${SYMS[i % 3]!}', ${r().toFixed(3)}, '${iso(i % 7 === 0 && late ? START + DAY : ts)}', ${i % 6 === 5 ? 'null' : `'w${i % 5}'`})`)
      }
      await both(`insert into $T values ${rows.join(', ')}`)
    } else if (op < 0.7) {
      await both(`update $T set s = ${sym()} where v > ${r().toFixed(2)}`)
    } else if (op < 0.8) {
      const day = new Date((START + Math.floor(r() * 4) * DAY) / 1000).toISOString().slice(0, 10)
      await both(`alter table $T drop partition list '${day}'`).catch(() => undefined)
    } else if (reopen !== undefined) {
      db = await reopen(db)
    }
    await compare(`step ${step}`)
  }
  const plan = (await db.query(`explain select * from ti where s = 'a'`)).rows.flat().join('\n')
  t.match(plan, /Index forward scan on: s/, `${label}: EXPLAIN shows the index`)
  t.notMatch((await db.query(`explain select * from tu where s = 'a'`)).rows.flat().join('\n'), /Index forward scan/, `${label}: no index, no index scan`)
  t.match((await db.query('explain select * from ti latest on ts partition by s')).rows.flat().join('\n'), /LatestByAllIndexed/, `${label}: EXPLAIN shows LATEST ON from the index`)
  t.notMatch((await db.query('explain select * from tu latest on ts partition by s')).rows.flat().join('\n'), /Indexed/, `${label}: no index, a row scan`)
  t.ok(checks > 50, `${label}: ${checks} comparisons`)
  await db.close()
}

t.test('indexed and unindexed answers are equal over random writes (in memory)', async (t) => {
  for (const [seed, dedup] of [[1, false], [2, true], [3, false]] as const) {
    await scenario(t, `memory seed ${seed}${dedup ? ' dedup' : ''}`, () => Database.open(), undefined, dedup, seed)
  }
})

t.test('indexed and unindexed answers are equal over random writes (durable, checkpoints, reopen)', async (t) => {
  for (const [seed, dedup] of [[4, false], [5, true]] as const) {
    const dir = tmpDir(t)
    const open = (): Promise<Database> => Database.open({ path: dir, checkpointBytes: 2048 })
    await scenario(t, `durable seed ${seed}${dedup ? ' dedup' : ''}`, open, async (db) => { await db.close(); return open() }, dedup, seed)
  }
})

/**
 * A crash, as the next open meets it: the data directory copied while the database is open (WAL
 * not checkpointed), and the index files damaged as an interrupted write could leave them — one
 * cut short, one with a block for rows `_meta` does not have, one replaced by garbage.
 */
function crashCopy(dir: string, r: () => number): string {
  const copy = `${dir}-crash${Math.floor(r() * 1e9)}`
  cpSync(dir, copy, { recursive: true, verbatimSymlinks: true })
  for (const e of readdirSync(copy)) if (e.startsWith('_lock')) rmSync(join(copy, e))
  const files: string[] = []
  for (const tdir of readdirSync(copy).filter((e) => e.startsWith('ti~'))) {
    for (const part of readdirSync(join(copy, tdir))) {
      if (part.includes('.') && !part.endsWith('.sym') && existsSync(join(copy, tdir, part, 's.i'))) files.push(join(copy, tdir, part, 's.i'))
    }
  }
  for (const f of files) {
    const x = r()
    const size = statSync(f).size
    if (x < 0.25) truncateSync(f, Math.floor(size * r()))
    else if (x < 0.5) appendFileSync(f, readFileSync(f).subarray(0, Math.min(size, 64)))
    else if (x < 0.6) writeFileSync(f, Buffer.alloc(size, 7))
  }
  return copy
}

t.test('indexed and unindexed answers are equal across crashes with damaged index files', async (t) => {
  const dir = tmpDir(t)
  const r = rng(99)
  let current = dir
  const open = (): Promise<Database> => Database.open({ path: current, checkpointBytes: 2048 })
  await scenario(t, 'durable crash', open, async (db) => {
    const copy = crashCopy(current, r)
    t.teardown(() => rmSync(copy, { recursive: true, force: true }))
    await db.close()
    current = copy
    return open()
  }, false, 6)
})

t.test('after a restart the index is read from its files, not rebuilt from the key column', async (t) => {
  const dir = tmpDir(t)
  let db = await Database.open({ path: dir })
  await db.query('create table t (s symbol, v double, ts timestamp), index(s capacity 128) timestamp(ts) partition by day')
  const n = 3000
  await db.append('t', {
    s: Array.from({ length: n }, (_, i) => `h${i % 30}`),
    v: Float64Array.from({ length: n }, (_, i) => i),
    ts: Float64Array.from({ length: n }, (_, i) => START + i * 60_000_000),
  })
  await db.close()
  const tdir = readdirSync(dir).find((e) => e.startsWith('t~'))!
  const parts = readdirSync(join(dir, tdir)).filter((e) => /^\d{4}-\d\d-\d\d\./.test(e))
  t.equal(parts.length, 3)
  t.ok(parts.every((p) => existsSync(join(dir, tdir, p, 's.i'))), 'every partition has an index file')
  db = await Database.open({ path: dir })
  resetStorageStats()
  const rows = (await db.query("select v from t where s = 'h7'")).rows
  t.equal(rows.length, 100)
  t.same([STORAGE_STATS.indexReads, STORAGE_STATS.indexBuilds], [3, 0], 'each partition\'s index was read from its file')
  await db.close()
})

t.test('ALTER TABLE ... ADD INDEX writes the checkpointed partitions\' index files; DROP INDEX removes them', async (t) => {
  const dir = tmpDir(t)
  const db = await Database.open({ path: dir })
  await db.query('create table t (s symbol, ts timestamp) timestamp(ts) partition by day')
  await db.query("insert into t values ('x', '2024-01-01'), ('y', '2024-01-02'), ('x', '2024-01-03')")
  await db.close()
  const files = (): number => {
    const tdir = readdirSync(dir).find((e) => e.startsWith('t~'))!
    return readdirSync(join(dir, tdir)).filter((p) => existsSync(join(dir, tdir, p, 's.i'))).length
  }
  t.equal(files(), 0)
  const db2 = await Database.open({ path: dir })
  await db2.query('alter table t alter column s add index')
  t.equal(files(), 3)
  t.same((await db2.query("select ts from t where s = 'x'")).rows.length, 2)
  await db2.query('alter table t alter column s drop index')
  t.equal(files(), 0)
  await db2.close()
})

t.test('ALTER TABLE ... ADD INDEX / DROP INDEX switch the index scan', async (t) => {
  const db = await Database.open()
  await db.query('create table t (s symbol, ts timestamp) timestamp(ts)')
  await db.query("insert into t values ('x', '2024-01-01'), ('y', '2024-01-02')")
  const plan = async (): Promise<string> => (await db.query("explain select * from t where s = 'x'")).rows.flat().join('\n')
  t.notMatch(await plan(), /Index forward scan/)
  await db.query('alter table t alter column s add index')
  t.match(await plan(), /Index forward scan on: s \(1 key\)/)
  t.same((await db.query("select s from t where s = 'x'")).rows, [['x']])
  await db.query('alter table t alter column s drop index')
  t.notMatch(await plan(), /Index forward scan/)
  await db.close()
})

t.test('postings grow with appended rows and answer ranges', async (t) => {
  const keys = Int32Array.of(0, 1, 0, 2, 0, 1)
  const p = new SymbolPostings()
  p.extend(keys, 3)
  t.same([...p.rows(0, 0, 6)], [0, 2])
  p.extend(keys, 6)
  t.same([...p.rows(0, 0, 6)], [0, 2, 4])
  t.same([...p.rows(0, 1, 4)], [2])
  t.same([...indexedRows(p, [1, 2], [0, 2, 3, 6])], [1, 3, 5])
  t.equal(p.keys, 3)
})
