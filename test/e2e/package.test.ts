/**
 * The package as users get it (issue #15): `npm pack` on a fresh copy of the tree builds `dist/`
 * in `prepack` and ships it — compiled code and declarations, the console's assets, no sources,
 * no tests, no source maps pointing at sources it does not ship; a project that installs the
 * tarball imports every subpath export and type-checks against the shipped declarations.
 *
 * Offline: the tarball is unpacked into the consumer's node_modules and the package's
 * dependencies are linked from this checkout's node_modules (what `npm install` would fetch).
 */
import t from 'tap'
import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

// The checkout this file belongs to. Not simply `../../` from here: test/run.mjs runs a transpiled
// copy of this file from a mirror tree under .cache/, which git ignores.
const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: fileURLToPath(new URL('.', import.meta.url)), encoding: 'utf8' }).trim()
const modules = realpathSync(join(root, 'node_modules'))

t.test('npm pack ships a working package', { timeout: 600_000 }, async (t) => {
  const work = mkdtempSync(join(tmpdir(), 'epochdb-pack-'))
  t.teardown(() => rmSync(work, { recursive: true, force: true }))

  // a fresh copy: the files git knows (committed or not), without dist/ or anything ignored
  const copy = join(work, 'copy')
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' }).split('\0').filter((f) => f !== '' && existsSync(join(root, f)))
  for (const f of files) { mkdirSync(dirname(join(copy, f)), { recursive: true }); cpSync(join(root, f), join(copy, f)) }
  symlinkSync(modules, join(copy, 'node_modules'))
  t.notOk(existsSync(join(copy, 'dist')), 'the copy has no build')

  const out = join(work, 'out')
  mkdirSync(out)
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', out], { cwd: copy, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })) as { filename: string; files: { path: string }[] }[]
  const paths = packed[0]!.files.map((f) => f.path)
  t.ok(paths.includes('dist/lib/index.js') && paths.includes('dist/lib/index.d.ts'), 'prepack built the engine')
  t.ok(paths.some((p) => p.startsWith('adapters/console/assets/')), 'the console assets ship')
  t.same(paths.filter((p) => /\.ts$/.test(p) && !p.endsWith('.d.ts')), [], 'no TypeScript sources')
  t.same(paths.filter((p) => p.startsWith('test/') || p.includes('/test/')), [], 'no tests')
  t.same(paths.filter((p) => p.endsWith('.map')), [], 'no source maps (their sources do not ship)')

  // a consumer project with the tarball "installed"
  const app = join(work, 'app')
  const pkgDir = join(app, 'node_modules', 'epochdb')
  mkdirSync(pkgDir, { recursive: true })
  execFileSync('tar', ['xzf', join(out, packed[0]!.filename), '-C', pkgDir, '--strip-components=1'])
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; exports: Record<string, unknown> }
  for (const dep of Object.keys(pkg.dependencies)) {
    mkdirSync(dirname(join(app, 'node_modules', dep)), { recursive: true })
    symlinkSync(join(modules, dep), join(app, 'node_modules', dep))
  }
  mkdirSync(join(app, 'node_modules', '@types'), { recursive: true })
  symlinkSync(join(modules, '@types', 'node'), join(app, 'node_modules', '@types', 'node'))
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', type: 'module', private: true }))

  const subpaths = Object.keys(pkg.exports).filter((k) => k !== './package.json').map((k) => (k === '.' ? 'epochdb' : `epochdb/${k.slice(2)}`))
  t.ok(subpaths.length >= 6, `subpath exports: ${subpaths.join(', ')}`)
  writeFileSync(join(app, 'imports.mjs'), `
    const names = {}
    for (const s of ${JSON.stringify(subpaths)}) names[s] = Object.keys(await import(s)).length
    const { Database } = await import('epochdb')
    const db = await Database.open()
    const r = await db.query('select 1 + 1 two')
    await db.close()
    let internal = 'importable'
    try { await import('epochdb/internal') } catch (e) { internal = e.code }
    console.log(JSON.stringify({ names, two: r.rows[0][0], internal, getScalar: typeof (await import('epochdb')).getScalar }))
  `)
  const ran = JSON.parse(execFileSync(process.execPath, ['imports.mjs'], { cwd: app, encoding: 'utf8' })) as { names: Record<string, number>; two: number; internal: string; getScalar: string }
  for (const s of subpaths) t.ok((ran.names[s] ?? 0) > 0, `import '${s}' gives exports`)
  t.equal(ran.two, 2, 'the packed engine answers a query')
  // the adapters' helpers ship (the adapters import them by relative path) but are not API
  t.ok(paths.includes('dist/lib/internal.js'), 'the adapters\' internal entry ships')
  t.equal(ran.internal, 'ERR_PACKAGE_PATH_NOT_EXPORTED', 'users cannot import epochdb/internal')
  t.equal(ran.getScalar, 'undefined', 'adapter helpers are not exported from epochdb')

  writeFileSync(join(app, 'consumer.ts'), `
    import { Database, SqlError, type QueryResult } from 'epochdb'
    import { createHttpServer, loadConfig, type ServerConfig } from 'epochdb/http'
    import { createPgwireServer } from 'epochdb/pgwire'
    import { parseStatement } from 'epochdb/sql'
    const db: Database = await Database.open()
    const r: QueryResult = await db.query('select 1')
    const e: SqlError | undefined = undefined
    const config: ServerConfig = loadConfig('http.bind.to=127.0.0.1:0', {}, () => undefined)
    void [r, e, config, createHttpServer, createPgwireServer, parseStatement]
  `)
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, skipLibCheck: false, types: ['node'] }, files: ['consumer.ts'] }))
  let tsc = ''
  try { execFileSync(process.execPath, [join(modules, 'typescript', 'bin', 'tsc'), '-p', app], { encoding: 'utf8' }) } catch (err) { tsc = String((err as { stdout?: string }).stdout ?? err) }
  t.equal(tsc, '', 'a consumer type-checks against the shipped declarations')
})
