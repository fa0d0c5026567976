/**
 * `npm start`: the standalone server (examples/server.ts), started with glibc's allocator set up
 * for a long ingest. On Linux with glibc the server runs as a child process whose environment
 * adds `MALLOC_ARENA_MAX=2` and `MALLOC_MMAP_THRESHOLD_=131072` (each only when not already
 * set: a value of the user's wins); elsewhere (macOS, Windows, musl) the server runs in this
 * process, unchanged. Why: a column buffer freed by a checkpoint raises glibc's dynamic mmap
 * threshold, so later buffers of 1–8 MB come from heaps that are never given back, and a
 * 10-minute ILP stream sat at 447–498 MB of RSS for a 256 MB budget; with the two variables it
 * stays at 329–382 MB (docs/storage.md, "What the memory budget bounds"). They cannot be set
 * from inside the process: glibc reads them when it starts. `EPOCHDB_MALLOC_TUNING=0` turns the
 * launcher's variables off.
 *
 * The child also gets V8's initial old-generation limit raised and `--expose-gc`
 * ({@link V8_DEFAULTS}; a value of the user's in the node arguments or `NODE_OPTIONS` wins,
 * `EPOCHDB_V8_TUNING=0` turns them off); where the server runs in this process, give them to
 * node yourself (docs/server.md).
 *
 * The child runs in its own process group, and this process forwards SIGINT, SIGTERM and SIGHUP
 * to it (a signal repeated within 500 ms — a terminal's Ctrl-C reaching npm and this process
 * both — counts once, since the server takes a second signal as "exit now"), then exits with the
 * child's code. Arguments (`--conf path`) pass through.
 */
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/** The allocator variables the launcher adds on Linux with glibc. */
export const MALLOC_DEFAULTS: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' }

/** The glibc version this process runs with, or undefined (not Linux, or another libc such as musl). */
export function glibcVersion(): string | undefined {
  if (process.platform !== 'linux') return undefined
  const header = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header
  return header?.glibcVersionRuntime
}

/**
 * The variables of {@link MALLOC_DEFAULTS} that `env` lacks, when the process runs on glibc
 * (`glibc` its version) and `EPOCHDB_MALLOC_TUNING` is not `0`; else none.
 */
export function mallocEnv(env: NodeJS.ProcessEnv, glibc: string | undefined): Record<string, string> {
  if (glibc === undefined || env.EPOCHDB_MALLOC_TUNING === '0') return {}
  const add: Record<string, string> = {}
  for (const [k, v] of Object.entries(MALLOC_DEFAULTS)) if (env[k] === undefined) add[k] = v
  return add
}

/**
 * The V8 flag the launcher gives the server's process: an initial old-generation limit of 96 MB.
 * Why: the server's heap holds about 25 MB, so V8's default limit sits about 23 MB above it, less
 * than its young generation grown under a steady ingest; V8 then starts a new mark-compact as soon
 * as the last one ended — one per ILP request of 75,000 rows, a quarter to a third of the server's
 * CPU (test/bench/ilp.ts reports GC pauses). With the limit at 96 MB it ran 3 instead of 36 over
 * 3M rows. It is a starting limit, not a cap: V8 still grows the heap as it needs and collects it.
 * And `--expose-gc`: freed SharedArrayBuffers (column data) do not trigger V8's GC on Node 20,
 * so the library collects them itself (lib/storage/shared-memory.ts), with `globalThis.gc` when
 * exposed (else it reaches the same function at run time).
 */
export const V8_DEFAULTS: readonly string[] = ['--initial-old-space-size=96', '--expose-gc']

/**
 * The flags of {@link V8_DEFAULTS} that neither `execArgv` nor `NODE_OPTIONS` already sets (a value
 * of the user's wins), unless `EPOCHDB_V8_TUNING` is `0`.
 */
export function v8Args(execArgv: readonly string[], env: NodeJS.ProcessEnv): string[] {
  if (env.EPOCHDB_V8_TUNING === '0') return []
  const given = [...execArgv, ...(env.NODE_OPTIONS ?? '').split(/\s+/)].map((a) => a.split('=')[0]!.replace(/_/g, '-'))
  return V8_DEFAULTS.filter((f) => !given.includes(f.split('=')[0]!))
}

/** Signals passed on to the server. */
const FORWARDED: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP']
/** A signal repeated within this many ms is the same one delivered twice. */
const REPEAT_MS = 500

/** Runs `script` in a child process with `add` in its environment and `flags` for node; resolves with its exit code. */
function runChild(script: string, add: Record<string, string>, flags: readonly string[]): Promise<number> {
  const child = spawn(process.execPath, [...process.execArgv, ...flags, script, ...process.argv.slice(2)], {
    env: { ...process.env, ...add },
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true, // its own group: a terminal's Ctrl-C reaches it once, through this process
  })
  const last = new Map<NodeJS.Signals, number>()
  for (const sig of FORWARDED) {
    process.on(sig, () => {
      const now = Date.now()
      if (now - (last.get(sig) ?? -Infinity) < REPEAT_MS) return
      last.set(sig, now)
      child.kill(sig)
    })
  }
  process.once('exit', () => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM') })
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code, signal) => resolve(code ?? (signal === 'SIGINT' ? 130 : signal === 'SIGTERM' ? 143 : 1)))
  })
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const add = mallocEnv(process.env, glibcVersion())
  if (Object.keys(add).length === 0) await import('./server.js')
  else process.exitCode = await runChild(fileURLToPath(new URL('./server.ts', import.meta.url)), add, v8Args(process.execArgv, process.env))
}
