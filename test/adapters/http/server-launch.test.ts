/**
 * `npm start`'s launcher (examples/launch.ts): on Linux with glibc the server runs with
 * `GLIBC_TUNABLES` holding the allocator settings of `GLIBC_TUNABLE_DEFAULTS` (values the user set
 * win, `EPOCHDB_MALLOC_TUNING=0` turns them off), answers as `npm start` did, and one SIGINT to the
 * launcher shuts the server down cleanly (exit 0, not the "second signal" exit). The server also
 * gets V8's initial old-generation limit and `--expose-gc` (`V8_DEFAULTS`) unless the user set them.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t, { type Test } from 'tap'
import { GLIBC_TUNABLE_DEFAULTS, V8_DEFAULTS, glibcVersion, mallocEnv, v8Args } from '../../../examples/launch.js'
import { exec, freePort } from '../../faults/server-process.js'

const root = fileURLToPath(new URL('../../../', import.meta.url))

const ALL = 'glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=536870912:glibc.malloc.arena_max=2'

t.test('mallocEnv: the tunables on glibc, the user\'s values kept, none elsewhere or when turned off', async (t) => {
  t.same(Object.keys(GLIBC_TUNABLE_DEFAULTS), ['glibc.malloc.hugetlb', 'glibc.malloc.mmap_threshold', 'glibc.malloc.trim_threshold', 'glibc.malloc.arena_max'])
  t.same(mallocEnv({}, '2.36'), { GLIBC_TUNABLES: ALL })
  t.same(mallocEnv({ MALLOC_ARENA_MAX: '8' }, '2.36'), { GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=536870912' }, 'a MALLOC_ variable the user set: its tunable is not added')
  t.same(mallocEnv({ MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '0' }, '2.36'), { GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1:glibc.malloc.arena_max=2' })
  t.same(mallocEnv({ GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0:glibc.rtld.nns=8' }, '2.36'), { GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0:glibc.rtld.nns=8:glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=536870912:glibc.malloc.arena_max=2' }, 'the user\'s tunables first and kept; only the missing ones added')
  t.same(mallocEnv({ GLIBC_TUNABLES: ALL }, '2.36'), {}, 'all set: nothing to add, no child process')
  t.same(mallocEnv({ GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=1', MALLOC_TRIM_THRESHOLD_: '1', MALLOC_ARENA_MAX: '1' }, '2.36'), {}, 'tunables and variables together cover all: nothing')
  t.same(mallocEnv({}, undefined), {}, 'not glibc (macOS, Windows, musl): nothing')
  t.same(mallocEnv({ EPOCHDB_MALLOC_TUNING: '0' }, '2.36'), {}, 'turned off')
})

t.test('v8Args: the initial old-generation limit and --expose-gc, unless the node arguments or NODE_OPTIONS give them, or turned off', async (t) => {
  t.same(V8_DEFAULTS, ['--initial-old-space-size=96', '--expose-gc'])
  t.same(v8Args([], {}), ['--initial-old-space-size=96', '--expose-gc'])
  t.same(v8Args(['--import', 'tsx'], {}), ['--initial-old-space-size=96', '--expose-gc'], 'other arguments: added')
  t.same(v8Args(['--initial-old-space-size=300'], {}), ['--expose-gc'], 'the user\'s own value in the arguments wins')
  t.same(v8Args([], { NODE_OPTIONS: '--max-old-space-size=4096 --expose_gc' }), ['--initial-old-space-size=96'], 'a flag in NODE_OPTIONS is not repeated (either spelling)')
  t.same(v8Args([], { NODE_OPTIONS: '--max-old-space-size=4096' }), ['--initial-old-space-size=96', '--expose-gc'], 'another heap flag: added')
  t.same(v8Args([], { EPOCHDB_V8_TUNING: '0' }), [], 'turned off')
})

/** The command line of process `pid` (Linux /proc). */
function argvOf(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').filter((a) => a !== '')
}

/** The environment of process `pid` (Linux /proc). */
function environOf(pid: number): Record<string, string> {
  const env: Record<string, string> = {}
  for (const kv of readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0')) {
    const i = kv.indexOf('=')
    if (i > 0) env[kv.slice(0, i)] = kv.slice(i + 1)
  }
  return env
}

/** The pids of `pid`'s children (Linux /proc). */
function childrenOf(pid: number): number[] {
  return readFileSync(`/proc/${pid}/task/${pid}/children`, 'latin1').trim().split(/\s+/).filter((s) => s !== '').map(Number)
}

/** Starts `npm start`'s command with `env` added; resolves when REST answers, with the launcher and the server's pids. */
async function launch(t: Test, env: Record<string, string>): Promise<{ url: string; launcher: ReturnType<typeof spawn>; exited: Promise<number | string | null>; output: () => string }> {
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-launch-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const http = await freePort()
  const launcher = spawn(process.execPath, ['--import', 'tsx', 'examples/launch.ts'], {
    cwd: root,
    env: { ...process.env, QDB_CAIRO_ROOT: dir, QDB_HTTP_BIND_TO: `127.0.0.1:${http}`, QDB_PG_NET_BIND_TO: `127.0.0.1:${await freePort()}`, QDB_LINE_TCP_NET_BIND_TO: `127.0.0.1:${await freePort()}`, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  launcher.stdout!.on('data', (d: Buffer) => { out += d.toString() })
  launcher.stderr!.on('data', (d: Buffer) => { out += d.toString() })
  const exited = new Promise<number | string | null>((resolve) => launcher.once('exit', (code, signal) => resolve(code ?? signal)))
  t.teardown(async () => {
    for (const pid of launcher.exitCode === null ? childrenOf(launcher.pid!) : []) try { process.kill(pid, 'SIGKILL') } catch { /* gone */ }
    launcher.kill('SIGKILL')
  })
  const url = `http://127.0.0.1:${http}`
  let gone = false
  void exited.then(() => { gone = true })
  for (let i = 0; i < 600 && !gone; i++) {
    try { if ((await fetch(`${url}/ping`)).status === 204) return { url, launcher, exited, output: () => out } } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`server did not start: ${out}`)
}

const glibc = glibcVersion()
t.test('npm start on Linux/glibc: the server process has the allocator variables and answers; one SIGINT stops it cleanly', { skip: glibc === undefined ? 'needs Linux with glibc (/proc, the variables)' : false, timeout: 120_000 }, async (t) => {
  const { url, launcher, exited, output } = await launch(t, {})
  const [server] = childrenOf(launcher.pid!)
  t.ok(server !== undefined, 'the server runs as the launcher\'s child')
  const env = environOf(server!)
  // glibc's loader rewrites GLIBC_TUNABLES in place as it parses it: /proc shows a prefix of the value given
  const given = mallocEnv(process.env, glibc).GLIBC_TUNABLES ?? process.env.GLIBC_TUNABLES ?? ''
  t.ok(env.GLIBC_TUNABLES !== undefined && env.GLIBC_TUNABLES.length > 0 && given.startsWith(env.GLIBC_TUNABLES), `the server was started with the tunables (${env.GLIBC_TUNABLES})`)
  t.equal(environOf(launcher.pid!).GLIBC_TUNABLES, process.env.GLIBC_TUNABLES, 'the launcher itself is unchanged')
  t.ok(argvOf(server!).includes('--initial-old-space-size=96') && argvOf(server!).includes('--expose-gc'), 'the server runs with the V8 flags')
  t.notOk(argvOf(launcher.pid!).includes('--initial-old-space-size=96'), 'the launcher does not')
  t.same((await exec(url, 'select 1 + 1 x')).body.dataset, [[2]], 'REST answers through the launched server')
  launcher.kill('SIGINT')
  t.equal(await exited, 0, 'one SIGINT: a clean shutdown, exit 0')
  t.match(output(), /"msg":"stopped"/, 'the server went through its shutdown')
  t.notMatch(output(), /shutdown now/, 'the signal reached the server once')
  t.throws(() => process.kill(server!, 0), 'the server process is gone')
})

t.test('npm start: a MALLOC_ARENA_MAX and a tunable of the user\'s win', { skip: glibc === undefined ? 'needs Linux with glibc' : false, timeout: 120_000 }, async (t) => {
  const { launcher, exited } = await launch(t, { MALLOC_ARENA_MAX: '4', GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0' })
  const env = environOf(childrenOf(launcher.pid!)[0]!)
  t.equal(env.MALLOC_ARENA_MAX, '4')
  t.match(env.GLIBC_TUNABLES, /^glibc\.malloc\.hugetlb=0(:|$)/, 'the user\'s tunable first, as given (the loader\'s rewrite leaves a prefix in /proc)')
  launcher.kill('SIGTERM')
  t.equal(await exited, 0)
})

t.test('npm start with EPOCHDB_MALLOC_TUNING=0: the server runs in the launcher\'s own process, without the variables', { timeout: 120_000 }, async (t) => {
  const { url, launcher, exited } = await launch(t, { EPOCHDB_MALLOC_TUNING: '0' })
  if (glibc !== undefined) {
    t.same(childrenOf(launcher.pid!).filter((pid) => environOf(pid).QDB_CAIRO_ROOT !== undefined), [], 'no server child')
    t.equal(environOf(launcher.pid!).GLIBC_TUNABLES, process.env.GLIBC_TUNABLES)
  }
  t.same((await exec(url, 'select 1 x')).body.dataset, [[1]])
  launcher.kill('SIGINT')
  t.equal(await exited, 0)
})
