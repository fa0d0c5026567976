/**
 * Symbol indexes never change an answer: the same random writes go to a table whose SYMBOL column
 * is indexed and to one where it is not (in memory, and durable with frequent checkpoints and a
 * reopen), including out-of-order inserts, DEDUP upserts, UPDATE and dropped partitions; after
 * every step the queries the index serves (`=`, `IN`, with and without time ranges, SAMPLE BY,
 * LATEST ON) must return the same rows from both. Also: EXPLAIN shows the index, ALTER ... ADD /
 * DROP INDEX switch it, and the index of an in-memory buffer grows with its appends.
 */
import t, { type Test } from 'tap'
import { Database } from '../../../lib/index.js'
import { SymbolPostings, indexedRows } from '../../../lib/storage/symbol-index.js'
import { tmpDir } from './helpers.js'

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
    `create table ${name} (s symbol${idx ? ' index capacity 64' : ''}, k symbol, v double, ts timestamp) timestamp(ts) partition by day${dedup ? ' wal dedup upsert keys(ts, s)' : ''}`
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
      `select count() from $T where s = 'never-seen'`,
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
        rows.push(`(${sym()}, '${SYMS[i % 3]!}', ${r().toFixed(3)}, '${iso(i % 7 === 0 && late ? START + DAY : ts)}')`)
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
