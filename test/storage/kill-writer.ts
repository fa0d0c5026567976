/**
 * The parent's side of the SIGKILL tests' writer protocol (crash.test.ts, o3-crash.test.ts): a
 * child writer prints `ready` once its database is open, `ack <id>` for each batch whose commit
 * returned (and `acl <id>` for each acknowledged user), and is killed `delayMs` after `ready`.
 */
import { spawn } from 'node:child_process'
import { nodeScript } from '../node-script.js'

/**
 * Runs writer script `script` on data directory `dir` from batch `from`, kills it `delayMs` after
 * it is ready; resolves to the acknowledged batch ids (and pushes the acknowledged users' ids to
 * `users`). `args` go to the writer after the batch id. Rejects when the writer exits without
 * being killed, or never gets ready: one that is not ready after 120 s (a loaded machine starts
 * a child in seconds, not minutes) is killed.
 */
export function runWriter(script: string, dir: string, from: number, delayMs: number, users: number[] = [], args: readonly string[] = []): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeScript(script), dir, String(from), ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    const acked: number[] = []
    let buf = ''
    let ready = false
    let err = ''
    child.stderr.on('data', (d: Buffer) => { err += d.toString() })
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString()
      let nl
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl)
        buf = buf.slice(nl + 1)
        if (line === 'ready') { ready = true; clearTimeout(guard); setTimeout(() => child.kill('SIGKILL'), delayMs) }
        else if (line.startsWith('ack ')) acked.push(Number(line.slice(4)))
        else if (line.startsWith('acl ')) users.push(Number(line.slice(4)))
      }
    })
    const guard = setTimeout(() => child.kill('SIGKILL'), 120_000)
    child.on('exit', (_code, signal) => {
      clearTimeout(guard)
      if (signal !== 'SIGKILL') reject(new Error(`writer exited without being killed: ${err}`))
      else if (!ready) reject(new Error(`writer not ready after 120 s: ${err}`))
      else resolve(acked)
    })
  })
}
