/**
 * A throwaway PostgreSQL 15 for side-by-side benchmarks: `initdb` into a fresh temporary
 * directory, trust authentication, listening on a free loopback port with its unix socket in
 * that directory; `stop()` shuts it down and deletes the directory. When we are root the
 * server runs as the `postgres` user (PostgreSQL refuses to run as root).
 */
import { execFile } from 'node:child_process'
import { chownSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir, userInfo } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/** Where Debian's `postgresql-15` package puts the server binaries. */
export const PG15_BIN = process.env['EPOCHDB_BENCH_PG_BIN'] ?? '/usr/lib/postgresql/15/bin'

/** A running throwaway PostgreSQL. */
export interface Postgres {
  readonly port: number
  /** the superuser to connect as (trust auth, no password) */
  readonly user: string
  readonly database: string
  /** the server's `version()` */
  readonly version: string
  /** Stops the server (fast shutdown) and deletes its directory; safe to call twice. */
  stop(): Promise<void>
}

/** True when the PostgreSQL 15 binaries are installed. */
export function hasPostgres15(): boolean {
  return existsSync(join(PG15_BIN, 'initdb')) && existsSync(join(PG15_BIN, 'pg_ctl'))
}

/** A TCP port that was free on 127.0.0.1 a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo
      s.close(() => resolve(port))
    })
  })
}

/** Runs a PostgreSQL binary, as `postgres` when we are root. */
function pgExec(asPostgres: boolean, bin: string, args: string[]): Promise<{ stdout: string }> {
  const exe = join(PG15_BIN, bin)
  return asPostgres ? run('runuser', ['-u', 'postgres', '--', exe, ...args]) : run(exe, args)
}

/** Initialises and starts a fresh PostgreSQL 15; throws (after cleaning up) when it cannot. */
export async function startPostgres15(): Promise<Postgres> {
  const asPostgres = userInfo().uid === 0
  const dir = mkdtempSync(join(tmpdir(), 'epochdb-bench-pg-'))
  const data = join(dir, 'data')
  const sock = join(dir, 'sock')
  mkdirSync(sock)
  if (asPostgres) {
    const { stdout } = await run('id', ['-u', 'postgres'])
    const { stdout: gid } = await run('id', ['-g', 'postgres'])
    for (const p of [dir, sock]) chownSync(p, Number(stdout), Number(gid))
  }
  const port = await freePort()
  let started = false
  const stop = async (): Promise<void> => {
    if (started) {
      started = false
      await pgExec(asPostgres, 'pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']).catch(() => undefined)
    }
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    await pgExec(asPostgres, 'initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync'])
    started = true
    await pgExec(asPostgres, 'pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-w', '-o',
      `-p ${port} -k ${sock} -c listen_addresses=127.0.0.1 -c max_connections=50`, 'start'])
    const { stdout } = await run(join(PG15_BIN, 'psql'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-At', '-c', 'select version()', 'postgres'])
    return { port, user: 'postgres', database: 'postgres', version: stdout.trim(), stop }
  } catch (e) {
    await stop()
    throw e
  }
}
