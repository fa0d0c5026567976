/**
 * Crash test of ALTER TABLE ADD / RENAME / DROP COLUMN, which rewrite no partition (their `_meta`
 * names the partitions' files), and of UPDATE and UPDATE ... FROM, which write only the columns they
 * change: a child process appends, adds a column, appends with it, increments it with an UPDATE
 * (odd rounds: an UPDATE ... FROM), renames it and (odd rounds) drops it, round after round, and
 * is killed with SIGKILL at random moments; the
 * directory is reopened and every acknowledged step must be there (rows intact, the column under
 * its acknowledged name with its values, null in the rows before it, or gone once its drop was
 * acknowledged, its files too), and no append or UPDATE there in part.
 */
import t from 'tap'
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { readdirSync } from 'node:fs'
import { Database } from '../../lib/index.js'
import { ROWS } from './alter-crash-child.js'
import { tmpDir } from '../unit/storage/helpers.js'
import { nodeScript } from '../node-script.js'

const ROUNDS = 5

/** How many files named `<column>.*` the partition directories of table `t` hold. */
function filesNamed(dir: string, column: string): number {
  const table = join(dir, readdirSync(dir).find((e) => e.startsWith('t~'))!)
  let n = 0
  for (const p of readdirSync(table)) {
    if (!/^\d{4}-/.test(p)) continue
    for (const f of readdirSync(join(table, p))) if (f.startsWith(`${column}.`)) n++
  }
  return n
}
const CHILD = join(import.meta.dirname, 'alter-crash-child.ts')

/**
 * Runs the child from round `from`, kills it `delayMs` after its `afterAcks`-th acknowledgement
 * (counted in steps, not time: on a loaded machine a step takes seconds, and the kill still lands
 * at a random point of the step after); records in `acked` the last step acknowledged per round.
 */
function runChild(dir: string, from: number, afterAcks: number, delayMs: number, acked: Map<number, number>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeScript(CHILD), dir, String(from)], { stdio: ['ignore', 'pipe', 'pipe'] })
    let buf = ''
    let acks = 0
    let err = ''
    child.stderr.on('data', (d: Buffer) => { err += d.toString() })
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString()
      let nl
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl)
        buf = buf.slice(nl + 1)
        const kill = (): void => { setTimeout(() => child.kill('SIGKILL'), delayMs) }
        if (line === 'ready') { if (afterAcks === 0) kill() } else if (line.startsWith('ack ')) {
          const [, k, step] = line.split(' ')
          acked.set(Number(k), Number(step))
          if (++acks === afterAcks) kill()
        }
      }
    })
    const guard = setTimeout(() => child.kill('SIGKILL'), 120_000)
    child.on('exit', (_code, signal) => {
      clearTimeout(guard)
      if (signal !== 'SIGKILL') reject(new Error(`child exited without being killed: ${err}`))
      else resolve()
    })
  })
}

t.test('acknowledged ADD/RENAME/DROP COLUMN, UPDATE and UPDATE ... FROM steps and rows survive SIGKILL', async (t) => {
  const dir = tmpDir(t, 'epochdb-alter-crash-')
  let seed = 4242
  const rnd = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff }
  // the last step acknowledged per round; each run starts at a round no run has begun
  const acked = new Map<number, number>()
  let next = 0
  let complete = 0
  for (let round = 0; round < ROUNDS; round++) {
    await runChild(dir, next, Math.floor(rnd() * 10), Math.floor(rnd() * 300), acked)
    const db = await Database.open({ path: dir })
    try {
      const columns = (await db.query(`SELECT "column" FROM table_columns('t')`)).rows.map((r) => String(r[0]))
      const counts = new Map((await db.query('SELECT batch, count() FROM t GROUP BY batch')).rows.map((r) => [Number(r[0]), Number(r[1])]))
      const total = Number((await db.query('SELECT count() FROM t')).rows[0]![0])
      const last = Math.max(-1, ...acked.keys(), ...counts.keys())
      let rows = 0
      complete = 0
      for (let k = 0; k <= last; k++) {
        const n = counts.get(k) ?? 0
        rows += n
        const mustHave = acked.get(k) ?? 0
        const second = n === 2 * ROWS
        t.ok(n === 0 || n === ROWS || n === 2 * ROWS, `round ${k}: whole appends only (${n} rows)`)
        if (mustHave >= 1) t.ok(n >= ROWS, `round ${k}: acknowledged first rows are there`)
        if (mustHave >= 3) t.ok(second, `round ${k}: acknowledged second rows are there`)
        const col = columns.includes(`r${k}`) ? `r${k}` : columns.includes(`c${k}`) ? `c${k}` : undefined
        // an odd round drops its column after step 4: from then on it may be gone
        const mayBeGone = k % 2 === 1 && mustHave >= 5
        if (mustHave >= 2 && !mayBeGone) t.ok(col !== undefined, `round ${k}: the acknowledged column is there`)
        if (mustHave >= 5 && col !== undefined) t.equal(col, `r${k}`, `round ${k}: under its acknowledged name`)
        if (mustHave >= 6) t.equal(col, undefined, `round ${k}: the acknowledged drop stands`)
        if (col === undefined && k % 2 === 1) t.equal(filesNamed(dir, `r${k}`), 0, `round ${k}: no file of the dropped column is left`)
        if (col !== undefined) {
          const [[count, sum]] = (await db.query(`SELECT count(${col}), sum(${col}) FROM t`)).rows as [[bigint, bigint | null]]
          t.equal(Number(count), second ? ROWS : 0, `round ${k}: ${col} has a value in the second rows only`)
          // the UPDATE adds 1 to each: every row or none (it may have run unacknowledged)
          if (second && mustHave >= 4) t.equal(Number(sum), (k + 1) * ROWS, `round ${k}: ${col} holds its updated values`)
          else if (second) t.ok(Number(sum) === k * ROWS || Number(sum) === (k + 1) * ROWS, `round ${k}: ${col} holds its values, updated whole or not at all (${sum})`)
        }
        if (second && (col === `r${k}` || (col === undefined && mustHave >= 5))) complete++
      }
      t.equal(total, rows, 'no rows of other rounds')
      next = last + 1
    } finally {
      await db.close()
    }
  }
  t.ok(complete >= 2, `several rounds completed (${complete})`)
})
