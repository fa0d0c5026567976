/**
 * `npm start`: the standalone server (examples/server.ts), started with glibc's allocator set up
 * for a long ingest. On Linux with glibc the server runs as a child process whose environment
 * adds `GLIBC_TUNABLES` with the settings of {@link GLIBC_TUNABLE_DEFAULTS} (each only when the
 * user set neither that tunable nor its `MALLOC_*` variable: a value of the user's wins);
 * elsewhere (macOS, Windows, musl) the server runs in this process, unchanged. Why: every ILP
 * request fills fresh column memory (about 72 bytes a row), and the first touch of a fresh page
 * is the largest single cost of ingestion on a virtual machine (about 15 µs a page on this
 * project's Firecracker VMs). With huge pages for the heap and freed buffers kept in it for reuse
 * (instead of a new mapping per buffer), a page fault covers 2 MB and a reused buffer none: a
 * fifth fewer CPU seconds per ILP row, and a 4-minute ILP stream's RSS flat at 300-320 MB
 * (docs/benchmarks.md, "Huge pages"). They cannot be set from inside the process: glibc reads
 * them when it starts. `EPOCHDB_MALLOC_TUNING=0` turns the launcher's settings off.
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

/**
 * The glibc tunables the launcher adds on Linux with glibc (`GLIBC_TUNABLES`; glibc 2.35 or newer
 * knows `hugetlb`, older ones ignore a tunable they do not know):
 * - `hugetlb=1`: the heap and large blocks are advised as transparent huge pages (used where the
 *   system's `transparent_hugepage` setting is `madvise` or `always`), one fault per 2 MB;
 * - `mmap_threshold` 32 MiB: column buffers (up to a few MB) come from the heap, where a freed one
 *   is reused, instead of each being a fresh mapping unmapped on free;
 * - `trim_threshold` 512 MiB: freed heap memory at the top is given back to the system only past
 *   this much (the library's shared-memory GC frees up to 256 MiB of buffers at a time);
 * - `arena_max` 2: two heaps, not eight per core, so freed memory is not spread over many.
 */
export const GLIBC_TUNABLE_DEFAULTS: Readonly<Record<string, string>> = {
  'glibc.malloc.hugetlb': '1',
  'glibc.malloc.mmap_threshold': '33554432',
  'glibc.malloc.trim_threshold': '536870912',
  'glibc.malloc.arena_max': '2',
}

/** The `MALLOC_*` environment variable glibc also reads for a tunable (a user's setting of it wins). */
const TUNABLE_ALIASES: Readonly<Record<string, string>> = {
  'glibc.malloc.mmap_threshold': 'MALLOC_MMAP_THRESHOLD_',
  'glibc.malloc.trim_threshold': 'MALLOC_TRIM_THRESHOLD_',
  'glibc.malloc.arena_max': 'MALLOC_ARENA_MAX',
}

/** The glibc version this process runs with, or undefined (not Linux, or another libc such as musl). */
export function glibcVersion(): string | undefined {
  if (process.platform !== 'linux') return undefined
  const header = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header
  return header?.glibcVersionRuntime
}

/**
 * The environment the launcher adds for the server when the process runs on glibc (`glibc` its
 * version) and `EPOCHDB_MALLOC_TUNING` is not `0`: `GLIBC_TUNABLES` with the user's own tunables
 * first and those of {@link GLIBC_TUNABLE_DEFAULTS} the user set neither there nor through their
 * `MALLOC_*` variable after them; nothing when there is nothing to add.
 */
export function mallocEnv(env: NodeJS.ProcessEnv, glibc: string | undefined): Record<string, string> {
  if (glibc === undefined || env.EPOCHDB_MALLOC_TUNING === '0') return {}
  const own = (env.GLIBC_TUNABLES ?? '').split(':').filter((x) => x !== '')
  const given = new Set(own.map((x) => x.split('=')[0]!))
  const add = Object.entries(GLIBC_TUNABLE_DEFAULTS)
    .filter(([k]) => !given.has(k) && (TUNABLE_ALIASES[k] === undefined || env[TUNABLE_ALIASES[k]!] === undefined))
    .map(([k, v]) => `${k}=${v}`)
  return add.length === 0 ? {} : { GLIBC_TUNABLES: [...own, ...add].join(':') }
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
