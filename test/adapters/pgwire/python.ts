/**
 * Runs a Python probe script of `python/` against a test server and collects its checks: each
 * script prints one JSON line per check (`{"check": name, "value": ...}`, see python/probe.py),
 * or `{"missing": why}` and exit code 3 when its driver is not installed.
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The interpreter: EPOCHDB_PYTHON, else Debian's /usr/bin/python3 (where apt installs the
 * drivers, even when a pyenv python3 comes first on PATH), else `python3`.
 */
export const PYTHON = process.env['EPOCHDB_PYTHON'] ?? (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3')

const DIR = join(dirname(fileURLToPath(import.meta.url)), 'python')

/** What a probe gave: its checks by name, or why it could not run. */
export type ProbeRun = { readonly missing: string } | {
  readonly checks: ReadonlyMap<string, unknown>
  /** set when the script did not finish cleanly: its error and stderr */
  readonly failure: string | undefined
}

/** Why `modules` cannot be imported by {@link PYTHON}, or undefined when they all can. */
export function missingModules(modules: readonly string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(PYTHON, ['-c', modules.map((m) => `import ${m}`).join('; ')], { timeout: 30_000 }, (err, _out, stderr) => {
      if (err === null) resolve(undefined)
      else resolve((err as NodeJS.ErrnoException).code === 'ENOENT' ? `${PYTHON} not found` : stderr.trim().split('\n').pop() ?? err.message)
    })
  })
}

/** Runs `python/<script>` with the server's port: the checks it printed, a crash, or a missing driver. */
export function runProbe(script: string, port: number, timeoutMs = 120_000): Promise<ProbeRun> {
  return new Promise((resolve) => {
    execFile(PYTHON, [join(DIR, script), String(port)], { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      const lines = stdout.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as { check?: string; value?: unknown; missing?: string })
      const missing = lines.find((l) => l.missing !== undefined)?.missing
      if (missing !== undefined) { resolve({ missing }); return }
      resolve({ checks: new Map(lines.map((l) => [l.check!, l.value])), failure: err === null ? undefined : `${err.message}\n${stderr}` })
    })
  })
}
