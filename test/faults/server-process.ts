/**
 * The standalone server (`examples/server.ts`) as a child process for the fault tests: free
 * loopback ports, start and wait until REST answers, collect its output, wait for its exit.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { nodeScript } from '../node-script.js'

const root = fileURLToPath(new URL('../../', import.meta.url))

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.on('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
  })
}

/** A running (or exited) server process. */
export interface ServerProcess {
  readonly proc: ChildProcess
  readonly url: string
  readonly httpPort: number
  readonly pgPort: number
  /** what it printed so far */
  readonly out: () => string
  readonly err: () => string
  /** resolves with its exit code (or signal name) */
  readonly exited: Promise<number | string>
  /** the server's own pid (not the wrapper's when `unreaped`) */
  readonly pid: () => number
}

/** How to spawn the server. */
export interface SpawnOptions {
  /** its ports (free ones by default) */
  readonly ports?: { readonly http: number; readonly pg: number }
  /**
   * Run it under a parent that never reaps it (`sh -c 'server & exec sleep'`), as a supervisor
   * that has not yet called wait(): once killed, it stays a zombie until the test ends.
   */
  readonly unreaped?: boolean
}

/** Spawns the server on data directory `dir` with loopback ports; `env` adds variables. */
export async function spawnServer(dir: string, env: Record<string, string> = {}, options: SpawnOptions = {}): Promise<ServerProcess> {
  const httpPort = options.ports?.http ?? await freePort()
  const pgPort = options.ports?.pg ?? await freePort()
  const [cmd, args] = options.unreaped === true
    ? ['sh', ['-c', `"${process.execPath}" ${nodeScript('examples/server.ts', root).join(' ')} & echo "epochdb-pid $!"; exec sleep 600`]] as const
    : [process.execPath, nodeScript('examples/server.ts', root)] as const
  const proc = spawn(cmd, args, {
    cwd: root,
    env: { ...process.env, QDB_CAIRO_ROOT: dir, QDB_HTTP_BIND_TO: `127.0.0.1:${httpPort}`, QDB_PG_NET_BIND_TO: `127.0.0.1:${pgPort}`, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, as a service manager runs it: `kill -9 -<pid>` kills the group
  })
  let out = ''
  let err = ''
  proc.stdout!.on('data', (d: Buffer) => { out += d.toString() })
  proc.stderr!.on('data', (d: Buffer) => { err += d.toString() })
  const exited = new Promise<number | string>((resolve) => proc.once('exit', (code, signal) => resolve(code ?? signal ?? -1)))
  const pid = (): number => (options.unreaped === true ? Number(/epochdb-pid (\d+)/.exec(out)?.[1]) : proc.pid!)
  return { proc, url: `http://127.0.0.1:${httpPort}`, httpPort, pgPort, out: () => out, err: () => err, exited, pid }
}

/** Sends `signal` to the server's whole process group. */
export function killGroup(s: ServerProcess, signal: NodeJS.Signals): void {
  try { process.kill(-s.proc.pid!, signal) } catch { /* gone */ }
}

/** Spawns the server and waits until REST answers /ping (throws with its output if it exits first). */
export async function startServer(dir: string, env: Record<string, string> = {}, options: SpawnOptions = {}): Promise<ServerProcess> {
  const s = await spawnServer(dir, env, options)
  let gone = false
  void s.exited.then(() => { gone = true })
  for (let i = 0; i < 400 && !gone; i++) {
    try { if ((await fetch(`${s.url}/ping`)).status === 204) return s } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 50))
  }
  s.proc.kill('SIGKILL')
  throw new Error(`server did not start: ${s.err()} ${s.out()}`)
}

/** GET /exec. */
export async function exec(url: string, query: string): Promise<{ status: number; body: { dataset?: unknown[][]; error?: string; query?: string } }> {
  const res = await fetch(`${url}/exec?query=${encodeURIComponent(query)}`)
  return { status: res.status, body: (await res.json()) as { dataset?: unknown[][]; error?: string } }
}
