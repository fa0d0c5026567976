/**
 * GET /settings reports the configuration the server really runs with: `accepting.writes` lists
 * only the protocols that accept writes (none with `http.security.readonly` and
 * `pg.security.readonly`), and `cairo.max.file.name.length` is the configured name limit.
 */
import t from 'tap'
import { startServer } from './server-process.js'
import { tmpDir } from '../unit/storage/helpers.js'

t.setTimeout(90_000)

async function settings(url: string): Promise<Record<string, unknown>> {
  return ((await (await fetch(`${url}/settings`)).json()) as { config: Record<string, unknown> }).config
}

t.test('defaults: writes over REST and pgwire, names up to 127', async (t) => {
  const s = await startServer(tmpDir(t, 'epochdb-settings-'))
  t.teardown(() => { s.proc.kill('SIGKILL') })
  const c = await settings(s.url)
  t.same(c['accepting.writes'], ['http', 'pgwire'])
  t.equal(c['cairo.max.file.name.length'], 127)
})

t.test('read-only and a shorter name limit are reported', async (t) => {
  const s = await startServer(tmpDir(t, 'epochdb-settings-'), {
    QDB_HTTP_SECURITY_READONLY: 'true', QDB_PG_SECURITY_READONLY: 'true', QDB_CAIRO_MAX_FILE_NAME_LENGTH: '40',
  })
  t.teardown(() => { s.proc.kill('SIGKILL') })
  const c = await settings(s.url)
  t.same(c['accepting.writes'], [], 'no protocol accepts writes')
  t.equal(c['cairo.max.file.name.length'], 40)
})

t.test('REST read-only only: pgwire still accepts writes', async (t) => {
  const s = await startServer(tmpDir(t, 'epochdb-settings-'), { QDB_HTTP_SECURITY_READONLY: 'true' })
  t.teardown(() => { s.proc.kill('SIGKILL') })
  t.same((await settings(s.url))['accepting.writes'], ['pgwire'])
})
