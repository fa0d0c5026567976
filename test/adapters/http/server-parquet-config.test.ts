import t from 'tap'
import { resolve } from 'node:path'
import { loadConfig } from '../../../adapters/http/server/config.js'

t.test('cairo.sql.copy.root and cairo.sql.copy.export.root resolve next to cairo.root, as QuestDB\'s import/ and export/ beside db/', async (t) => {
  const d = loadConfig(undefined, {}, () => {})
  t.equal(d.copyRoot, resolve('import'))
  t.equal(d.copyExportRoot, resolve('export'))
  const c = loadConfig('cairo.root=/srv/q/db\ncairo.sql.copy.root=in\n', { QDB_CAIRO_SQL_COPY_EXPORT_ROOT: '/mnt/out' }, () => {})
  t.equal(c.copyRoot, '/srv/q/in')
  t.equal(c.copyExportRoot, '/mnt/out', 'absolute values stay; QDB_ overrides')
})
