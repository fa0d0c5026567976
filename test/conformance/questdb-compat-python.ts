/**
 * Runs compat tests through a Python driver (psycopg2, psycopg 3, asyncpg) by spawning
 * `questdb_compat.py` with the plan on stdin and reading one JSON line per test.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { CompatTest } from './questdb-compat-cases.js'
import type { StepResult } from './questdb-compat-compare.js'

/** Python drivers, named as the suite's `exclude` lists name them. */
export const PYTHON_DRIVERS = ['psycopg2', 'psycopg3', 'asyncpg'] as const

/** A Python driver name. */
export type PythonDriver = (typeof PYTHON_DRIVERS)[number]

/** What a Python run gave: results per test name, or why the driver could not run. */
export type PythonRun = { readonly missing: string } | { readonly results: ReadonlyMap<string, StepResult[]> }

/**
 * The interpreter: EPOCHDB_PYTHON, else Debian's /usr/bin/python3 (where apt installs the
 * drivers, even when a pyenv python3 comes first on PATH), else `python3`.
 */
export const PYTHON = process.env['EPOCHDB_PYTHON'] ?? (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3')

const script = join(dirname(fileURLToPath(import.meta.url)), 'questdb_compat.py')

/** Runs `tests` with `driver` against `port`; the process is killed after `timeoutMs`. */
export function runPython(driver: PythonDriver, port: number, tests: readonly CompatTest[], timeoutMs: number): Promise<PythonRun> {
  return new Promise((resolve) => {
    let child
    try {
      child = spawn(PYTHON, [script], { stdio: ['pipe', 'pipe', 'pipe'] })
    } catch (e) {
      resolve({ missing: `python3: ${String(e)}` })
      return
    }
    const results = new Map<string, StepResult[]>()
    let out = ''
    let err = ''
    let missing: string | undefined
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.stdout.setEncoding('utf8')
    child.stdout.on('data', (d: string) => {
      out += d
      let nl
      while ((nl = out.indexOf('\n')) >= 0) {
        const line = out.slice(0, nl)
        out = out.slice(nl + 1)
        const msg = JSON.parse(line) as { test?: string; results?: StepResult[]; missing?: string }
        if (msg.missing !== undefined) missing = msg.missing
        else if (msg.test !== undefined) results.set(msg.test, msg.results ?? [])
      }
    })
    child.stderr.setEncoding('utf8')
    child.stderr.on('data', (d: string) => { err += d })
    child.on('error', (e) => { missing = `python3: ${e.message}` })
    child.on('close', () => {
      clearTimeout(timer)
      if (missing !== undefined) resolve({ missing })
      else if (results.size === 0 && err !== '') resolve({ missing: err.trim().split('\n').pop() ?? 'python failed' })
      else resolve({ results })
    })
    child.stdin.on('error', () => undefined)
    child.stdin.end(JSON.stringify({ driver, port, tests }))
  })
}
