/**
 * /imp's table name (`name=`, or the uploaded file's name) and CSV header column names go
 * through the same rules as CREATE TABLE: an escaping name is refused with the reason, and
 * nothing is written outside the data directory.
 */
import t from 'tap'
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Database } from '../../lib/index.js'
import { startServer } from '../adapters/http/helpers.js'

const box = mkdtempSync(join(tmpdir(), 'epochdb-names-imp-'))
t.teardown(() => rmSync(box, { recursive: true, force: true }))
const root = join(box, 'a', 'b', 'root')
mkdirSync(root, { recursive: true })
const srv = await startServer({}, await Database.open({ path: root }))
t.teardown(async () => { await srv.close(); await srv.db.close() })

async function upload(query: string, csv: string, fileName = 'data.csv'): Promise<{ status: number; body: string }> {
  const form = new FormData()
  form.append('data', new Blob([csv]), fileName)
  const r = await fetch(`http://127.0.0.1:${srv.port}/imp${query}`, { method: 'POST', body: form })
  return { status: r.status, body: await r.text() }
}

const outside = (): string[] => readdirSync(box, { recursive: true, encoding: 'utf8' }).filter((p) => !p.startsWith(join('a', 'b', 'root'))).sort()

t.test('name= that escapes is refused; nothing outside the data directory', async (t) => {
  const before = outside()
  for (const name of ['../x', '../../escape_imp', 'a/b', '..', 'a\\b', 'x\u0000y']) {
    const r = await upload(`?name=${encodeURIComponent(name)}&fmt=json`, 'a,b\n1,2\n')
    t.match(r.body, /invalid table name/, `name=${JSON.stringify(name)} refused: ${r.body}`)
  }
  t.same((await srv.db.query('select table_name from tables()')).rows, [])
  // without name=, the file name is the table name: its directory part is dropped
  const r = await upload('?fmt=json', 'a,b\n1,2\n', '../../up.csv')
  t.match(r.body, '"status":"OK","location":"up.csv"')
  t.same(outside(), before)
  t.same((await srv.db.query('select table_name from tables()')).rows, [['up.csv']])
})

t.test('a CSV header with a column name that is not a valid file name is refused', async (t) => {
  const r = await upload('?name=hdr&fmt=json', 'ok,../x\n1,2\n')
  t.match(r.body, /invalid column name/)
  t.same((await srv.db.query("select table_name from tables() where table_name = 'hdr'")).rows, [])
})

t.test('a valid file-style name imports', async (t) => {
  const r = await upload('?fmt=json', 'a,b\n1,2\n', 'data.csv')
  t.match(r.body, '"status":"OK"')
  t.same((await srv.db.query('select a, b from "data.csv"')).rows, [[1, 2]])
})
