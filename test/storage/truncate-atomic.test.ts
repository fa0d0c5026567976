/**
 * `TRUNCATE TABLE t, u` against a crash at every point: before each file-system change the
 * statement makes, the data directory is copied as it is (a crash image: what a power cut then
 * leaves, files not yet synced aside); every image opens with both tables as they were or both
 * empty, never one truncated and the other not (ddl-undo.ts). A copy taken after the answer shows
 * both empty. Then the same with a statement whose second table fails to write: the answer is an
 * error and every image, and a restart, shows both tables whole.
 */
import t, { type Test } from 'tap'
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Database } from '../../lib/index.js'
import { io } from '../../lib/storage/durable/io.js'

const MUTATING = ['openSync', 'writeSync', 'fsyncSync', 'fsync', 'renameSync', 'mkdirSync', 'rmSync', 'ftruncateSync'] as const

/** Copies `dir` (without its lock) to a new directory, as a crash would leave it. */
function image(dir: string, images: string[]): void {
  const to = `${dir}-img${images.length}`
  cpSync(dir, to, { recursive: true })
  for (const e of readdirSync(to)) if (e.startsWith('_lock')) rmSync(join(to, e), { force: true })
  images.push(to)
}

/** Takes an image before every mutating call while `run` runs; `fail(k, args)` may throw instead of calling. */
async function everyPoint(dir: string, run: () => Promise<unknown>, fail?: (k: string, args: unknown[]) => void): Promise<{ images: string[]; error: unknown }> {
  const images: string[] = []
  const saved = MUTATING.map((k) => [k, io[k]] as const)
  for (const [k, orig] of saved) {
    ;(io as Record<string, unknown>)[k] = (...args: unknown[]) => {
      if (!(k === 'openSync' && args[1] === 'r')) {
        image(dir, images)
        fail?.(k, args)
      }
      return (orig as (...a: unknown[]) => unknown)(...args)
    }
  }
  let error: unknown
  try { await run() } catch (e) { error = e } finally { for (const [k, orig] of saved) (io as Record<string, unknown>)[k] = orig }
  return { images, error }
}

async function counts(dir: string): Promise<[number, number]> {
  const db = await Database.open({ path: dir })
  try {
    const a = Number((await db.query('select count() from t')).rows[0]![0])
    const b = Number((await db.query('select count() from u')).rows[0]![0])
    return [a, b]
  } finally { await db.close() }
}

/** t with checkpointed partitions and rows only in the WAL, u with rows in the WAL. */
async function setUp(t: Test): Promise<{ dir: string; db: Database }> {
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-trunc-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  let db = await Database.open({ path: dir })
  await db.query('create table t (ts timestamp, s symbol, v double) timestamp(ts) partition by day')
  await db.query("insert into t values ('2024-01-01T00:00:00Z', 'a', 1), ('2024-01-02T00:00:00Z', 'b', 2)")
  await db.close()
  db = await Database.open({ path: dir })
  await db.query("insert into t values ('2024-01-03T00:00:00Z', 'c', 3)")
  await db.query('create table u (x long, ts timestamp) timestamp(ts) partition by day')
  await db.query("insert into u values (1, '2024-01-01'), (2, '2024-01-05'), (3, '2024-01-09'), (4, '2024-01-09')")
  return { dir, db }
}

t.test('a crash at any point of TRUNCATE TABLE t, u leaves both or neither truncated', async (t) => {
  const { dir, db } = await setUp(t)
  const { images, error } = await everyPoint(dir, () => db.query('truncate table t, u'))
  t.equal(error, undefined, 'the statement succeeds')
  image(dir, images)
  await db.close()
  t.ok(images.length > 5, `${images.length} crash points`)
  const seen = new Set<string>()
  for (const [i, img] of images.entries()) {
    try {
      const c = await counts(img)
      seen.add(String(c))
      t.ok(String(c) === '3,4' || String(c) === '0,0', `crash point ${i}: t and u hold ${c}`)
    } finally { rmSync(img, { recursive: true, force: true }) }
  }
  t.same([...seen].sort(), ['0,0', '3,4'], 'the images before the commit point show both whole, those after it both empty')
  t.same(await counts(dir), [0, 0], 'a restart sees both truncated')
})

t.test('TRUNCATE TABLE t, u failing on u leaves t whole: in memory, at every crash point, after a restart', async (t) => {
  const { dir, db } = await setUp(t)
  // the second table's new `_meta` cannot be written
  let uDir: string | undefined
  for (const e of readdirSync(dir)) if (e.startsWith('u~')) uDir = join(dir, e)
  t.ok(uDir !== undefined)
  const { images, error } = await everyPoint(dir, () => db.query('truncate table t, u'), (k, args) => {
    if (k === 'renameSync' && String(args[1]) === `${uDir}/_meta`) throw Object.assign(new Error('injected EIO'), { code: 'EIO' })
  })
  t.match(error, { code: '58030' }, 'the statement fails')
  t.same((await db.query('select count() from t')).rows, [[3n]], 't is whole in memory')
  t.same((await db.query('select count() from u')).rows, [[4n]], 'u is whole in memory')
  t.same((await db.query("select s from t where ts = '2024-01-01T00:00:00Z'")).rows, [['a']], 't reads its partitions')
  image(dir, images)
  for (const [i, img] of images.entries()) {
    try {
      t.same(await counts(img), [3, 4], `crash point ${i}: both whole`)
    } finally { rmSync(img, { recursive: true, force: true }) }
  }
  // later writes work, and a restart sees both whole
  await db.query("insert into t values ('2024-01-04T00:00:00Z', 'd', 4)")
  await db.close()
  t.same(await counts(dir), [4, 4])
})
