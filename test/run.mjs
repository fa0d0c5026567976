#!/usr/bin/env node
/**
 * The test runner behind `npm test`: transpiles the TypeScript sources once, then runs every test
 * file with plain `node` (no loader, no tap runner hooks), a few at a time, and counts their TAP
 * output the way tap's own runner does. Tests keep using tap's `t` API; only the runner changes.
 * test/README.md says why (process start-up was most of the suite's wall time).
 *
 *   node test/run.mjs                      every file package.json "tap" includes
 *   node test/run.mjs test/unit/exec x.ts  the test files under these folders / these files
 *   EPOCHDB_TEST_JOBS=1 node test/run.mjs  one file at a time (default: one per CPU)
 *   EPOCHDB_TEST_VERBOSE=1 ...             also print each file's TAP output
 *   EPOCHDB_TEST_TIMEOUT=60 ...            per-file limit in seconds (default: package.json "tap".timeout)
 *
 * Plain JavaScript on purpose: it runs before anything is transpiled.
 */
import { spawn } from 'node:child_process'
import { existsSync, linkSync, lstatSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, unlinkSync, copyFileSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build, version as esbuildVersion } from 'esbuild'
import { Parser } from 'tap-parser'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
/** The mirror tree: the project's files at their own relative paths, each `.ts` beside its `.js`. */
const TREE = join(ROOT, '.cache', 'test-tree')
/** Folders holding TypeScript (tsconfig.json "include"); everything else at the top is linked whole. */
const SOURCE_DIRS = ['lib', 'adapters', 'examples', 'test', 'docs']
/** Never mirrored. */
const SKIP = new Set(['.git', '.cache', 'node_modules', 'dist', '.tap', 'coverage', '.artifacts'])

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
const tapConfig = pkg.tap ?? {}
const TIMEOUT_MS = (Number(process.env.EPOCHDB_TEST_TIMEOUT) || tapConfig.timeout || 30) * 1000
const JOBS = Math.max(1, Number(process.env.EPOCHDB_TEST_JOBS) || availableParallelism())
const VERBOSE = process.env.EPOCHDB_TEST_VERBOSE === '1'

/** `test/**\/*.test.ts` → a RegExp over `/`-separated relative paths. */
function globRegExp(glob) {
  let re = ''
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]
    if (c === '*' && glob[i + 1] === '*') {
      i++
      if (glob[i + 1] === '/') { i++; re += '(?:.*/)?' } else re += '.*'
    } else if (c === '*') re += '[^/]*'
    else if (c === '?') re += '[^/]'
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&')
  }
  return new RegExp(`^${re}$`)
}
const include = (tapConfig.include ?? ['test/**/*.test.ts']).map(globRegExp)
const exclude = (tapConfig.exclude ?? []).map(globRegExp)

/** Every file and folder below `dir` (relative to ROOT, `/`-separated), folders first. */
function* walk(rel) {
  for (const e of readdirSync(join(ROOT, rel), { withFileTypes: true })) {
    if (SKIP.has(e.name)) continue
    const p = rel === '' ? e.name : `${rel}/${e.name}`
    if (e.isDirectory()) { yield { path: p, dir: true }; yield* walk(p) } else if (e.isFile()) yield { path: p, dir: false }
  }
}

/**
 * Makes `to` the same file as `from`: a hard link (so it is a plain file to `readdir`'s
 * `isFile()` and a module's `import.meta.url` stays inside the tree), refreshed when the source
 * was replaced; a copy where hard links are impossible.
 */
function mirrorFile(from, to) {
  const src = statSync(from)
  let cur
  try { cur = lstatSync(to) } catch { cur = undefined }
  if (cur !== undefined) {
    if (cur.ino === src.ino && cur.dev === src.dev) return
    unlinkSync(to)
  }
  try { linkSync(from, to) } catch { copyFileSync(from, to) }
}

/** Builds or refreshes the mirror tree; returns every `.ts` source and how many were transpiled now. */
async function prepareTree() {
  mkdirSync(TREE, { recursive: true })
  const tsFiles = []
  for (const e of readdirSync(ROOT, { withFileTypes: true })) {
    if (SKIP.has(e.name) || SOURCE_DIRS.includes(e.name)) continue
    const to = join(TREE, e.name)
    if (e.isFile()) mirrorFile(join(ROOT, e.name), to)
    else if (e.isDirectory() && !existsSync(to)) symlinkSync(join(ROOT, e.name), to)
  }
  const modules = join(TREE, 'node_modules')
  if (!existsSync(modules)) symlinkSync(join(ROOT, 'node_modules'), modules)
  const mirrored = new Set()
  for (const top of SOURCE_DIRS) {
    if (!existsSync(join(ROOT, top))) continue
    mkdirSync(join(TREE, top), { recursive: true })
    for (const e of walk(top)) {
      mirrored.add(e.path)
      const to = join(TREE, e.path)
      if (e.dir) {
        let st
        try { st = lstatSync(to) } catch { st = undefined }
        if (st !== undefined && !st.isDirectory()) unlinkSync(to)
        if (st === undefined || !st.isDirectory()) mkdirSync(to)
        continue
      }
      mirrorFile(join(ROOT, e.path), to)
      if (e.path.endsWith('.ts') && !e.path.endsWith('.d.ts')) tsFiles.push(e.path)
    }
  }
  pruneTree(mirrored)
  // The same transform as tsx (what `npm start`, the benchmarks and child servers use): esbuild,
  // tsconfig.json honoured, names kept, ESM for this Node version; source maps inline so stack
  // traces point into the .ts files.
  // Only sources newer than their .js are transpiled again, unless the options changed.
  const options = JSON.stringify({ tsconfig: readFileSync(join(ROOT, 'tsconfig.json'), 'utf8'), node: process.versions.node, esbuild: esbuildVersion, runner: statSync(fileURLToPath(import.meta.url)).mtimeMs })
  const stampFile = join(TREE, '.transpiled-with')
  const sameOptions = existsSync(stampFile) && readFileSync(stampFile, 'utf8') === options
  const stale = tsFiles.filter((f) => {
    if (!sameOptions) return true
    try { return statSync(join(TREE, f.replace(/\.ts$/, '.js'))).mtimeMs < statSync(join(ROOT, f)).mtimeMs } catch { return true }
  })
  if (stale.length > 0) await build({
    entryPoints: stale.map((f) => join(ROOT, f)),
    outdir: TREE,
    outbase: ROOT,
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: `node${process.versions.node}`,
    keepNames: true,
    sourcemap: 'inline',
    sourcesContent: false,
    tsconfig: join(ROOT, 'tsconfig.json'),
    logLevel: 'error',
  })
  writeFileSync(stampFile, options)
  return { tsFiles, transpiled: stale.length }
}

/**
 * Removes what the mirror still holds of files deleted or renamed in the checkout (a module's
 * `.js` goes with its `.ts`), so a test never imports a module, or reads a fixture or `.test`
 * file, that no longer exists.
 */
function pruneTree(mirrored) {
  const prune = (rel) => {
    for (const e of readdirSync(join(TREE, rel), { withFileTypes: true })) {
      const p = `${rel}/${e.name}`
      const source = p.endsWith('.js') && !mirrored.has(p) ? p.replace(/\.js$/, '.ts') : p
      if (!mirrored.has(source)) rmSync(join(TREE, p), { recursive: true, force: true })
      else if (e.isDirectory()) prune(p)
    }
  }
  for (const top of SOURCE_DIRS) if (existsSync(join(TREE, top))) prune(top)
}

/** The test files to run: all included ones, or those under / equal to the arguments. */
function selectFiles(tsFiles, args) {
  const included = (p) => include.some((r) => r.test(p)) && !exclude.some((r) => r.test(p))
  if (args.length === 0) return tsFiles.filter(included).sort()
  const out = new Set()
  for (const a of args) {
    const rel = relative(ROOT, resolve(a)).split(sep).join('/')
    if (rel.endsWith('.ts') && tsFiles.includes(rel)) { out.add(rel); continue }
    const under = tsFiles.filter((p) => p.startsWith(`${rel}/`) && included(p))
    if (under.length === 0) { console.error(`test/run.mjs: no test files at ${a}`); process.exit(2) }
    for (const p of under) out.add(p)
  }
  return [...out].sort()
}

const running = new Set()

/**
 * Runs one compiled test file in a process group of its own and counts its TAP output as tap's
 * runner does: every assertion at any depth, a subtest's own summary point not counted.
 */
function runFile(file, childId) {
  return new Promise((done) => {
    const started = Date.now()
    const js = join(TREE, file.replace(/\.ts$/, '.js'))
    // What tap's runner puts in a test process's environment that the tap library reads:
    // TAP_TIMEOUT (else its root test gives up after 30 s), TAP_CHILD_ID (no counts comment,
    // this runner counts), TAP=1 (raw TAP output).
    const env = { ...process.env, TAP: '1', TAP_CHILD_ID: String(childId), TAP_JOB_ID: String(childId % JOBS), TAP_BAIL: '0', TAP_TIMEOUT: String(TIMEOUT_MS / 1000) }
    delete env.NODE_OPTIONS
    // QuestDB's suites sit beside the checkout (../shared), not beside the mirror tree: the
    // conformance files find them where tap would have run them from.
    if (env.EPOCHDB_CONFORMANCE_DIR === undefined && existsSync(join(ROOT, '..', 'shared', 'conformance'))) env.EPOCHDB_CONFORMANCE_DIR = join(ROOT, '..', 'shared', 'conformance')
    const proc = spawn(process.execPath, ['--enable-source-maps', js], { cwd: TREE, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    running.add(proc)
    const counts = { total: 0, pass: 0, fail: 0, skip: 0, todo: 0 }
    const failures = []
    const parser = new Parser()
    parser.on('result', (res) => {
      counts.total++
      const type = res.todo ? 'todo' : res.skip ? 'skip' : !res.ok ? 'fail' : 'pass'
      counts[type]++
      if (type === 'fail') failures.push(res)
    })
    let bailedOut = false
    parser.on('bailout', () => { bailedOut = true })
    // A file that skips itself whole (`t.plan(0, reason)`) counts as one skip, as tap counts it.
    let skipAll
    parser.on('complete', (results) => { if (results.plan?.skipAll) skipAll = results.plan.skipReason || 'skipped' })
    let tap = ''
    proc.stdout.on('data', (d) => { if (VERBOSE) tap += d })
    proc.stdout.pipe(parser)
    let stderr = ''
    proc.stderr.on('data', (d) => { stderr = (stderr + d).slice(-64 * 1024) })
    let timedOut = false
    const killGroup = (sig) => { try { process.kill(-proc.pid, sig) } catch { /* gone */ } }
    const timer = setTimeout(() => {
      timedOut = true
      // SIGALRM is tap's own timeout signal: the test prints what it was waiting for, then dies.
      killGroup('SIGALRM')
      setTimeout(() => killGroup('SIGKILL'), 10_000).unref()
    }, TIMEOUT_MS)
    let exit
    proc.on('exit', (code, signal) => {
      exit = { code, signal }
      // A grandchild still holding the pipes must not hold the run: end them shortly.
      setTimeout(() => { killGroup('SIGKILL'); proc.stdout.destroy(); proc.stderr.destroy() }, 5_000).unref()
    })
    proc.on('close', () => {
      clearTimeout(timer)
      running.delete(proc)
      parser.end()
      if (skipAll !== undefined && counts.total === 0) { counts.total++; counts.skip++ }
      const ok = !timedOut && !bailedOut && exit.code === 0 && exit.signal === null && parser.ok && counts.fail === 0
      // A file that crashed, timed out or left its plan unfinished without a failing
      // assertion is still one failure (tap reports it as a failed point too).
      if (!ok && counts.fail === 0) {
        counts.total++
        counts.fail++
        failures.push({ name: timedOut ? `timeout after ${TIMEOUT_MS / 1000} s` : `process ended with ${exit.signal ?? `exit code ${exit.code}`}${parser.ok ? '' : ' (TAP incomplete)'}`, diag: null, crashed: true })
      }
      done({ file, counts, failures, ok, seconds: (Date.now() - started) / 1000, stderr, tap, timedOut, skipAll })
    })
  })
}

function report(r) {
  const c = r.counts
  const extra = [c.fail ? `${c.fail} failed` : '', c.skip ? `${c.skip} skipped` : '', c.todo ? `${c.todo} todo` : ''].filter(Boolean).join(', ')
  console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.file}  ${c.total} asserts${extra ? ` (${extra})` : ''}  ${r.seconds.toFixed(1)}s${r.skipAll !== undefined ? `  # SKIP ${r.skipAll}` : ''}`)
  if (VERBOSE) process.stdout.write(r.tap)
  if (r.ok) return
  for (const f of r.failures) {
    console.log(`  not ok - ${f.fullname || f.name}`)
    if (f.diag) for (const line of JSON.stringify(f.diag, null, 2).split('\n')) console.log(`    ${line}`)
  }
  if (r.stderr.trim() !== '') {
    console.log('  --- stderr (last 64 KiB) ---')
    for (const line of r.stderr.trimEnd().split('\n')) console.log(`  ${line}`)
  }
}

async function main() {
  const t0 = Date.now()
  const { tsFiles, transpiled } = await prepareTree()
  const files = selectFiles(tsFiles, process.argv.slice(2))
  console.log(`# ${files.length} test files, ${JOBS} at a time (mirror tree ready in ${((Date.now() - t0) / 1000).toFixed(1)} s, ${transpiled} of ${tsFiles.length} .ts files transpiled)`)
  const totals = { total: 0, pass: 0, fail: 0, skip: 0, todo: 0 }
  const failed = []
  let next = 0
  let childId = 0
  const worker = async () => {
    while (next < files.length) {
      const r = await runFile(files[next++], ++childId)
      for (const k of Object.keys(totals)) totals[k] += r.counts[k]
      if (!r.ok) failed.push(r.file)
      report(r)
    }
  }
  await Promise.all(Array.from({ length: Math.min(JOBS, files.length) }, worker))
  if (failed.length > 0) console.log(`# failed files:\n${failed.map((f) => `#   ${f}`).join('\n')}`)
  // The closing line .ci/run greps, in tap's shape (fail/skip/todo only when non-zero).
  const summary = { total: totals.total, pass: totals.pass }
  if (totals.fail) summary.fail = totals.fail
  if (totals.todo) summary.todo = totals.todo
  if (totals.skip) summary.skip = totals.skip
  console.log(`# ${JSON.stringify(summary).replace(/"/g, '').replace(/([:,])/g, '$1 ').replace(/^\{/, '{ ').replace(/\}$/, ' }')}`)
  console.log(`# time=${Date.now() - t0}ms`)
  process.exitCode = failed.length > 0 ? 1 : 0
}

for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    for (const p of running) { try { process.kill(-p.pid, 'SIGKILL') } catch { /* gone */ } }
    process.exit(130)
  })
}

await main()
