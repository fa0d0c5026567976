/**
 * examples/shared-buffer-gc.ts: with --expose-gc, SharedArrayBuffers nothing references any more
 * are collected once they pass the slack, although V8 (Node 20) would not run a GC for them. A
 * child process allocates 1.2 GB of them, 8 MB at a time, keeping none.
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import t from 'tap'

const root = fileURLToPath(new URL('../../../', import.meta.url))
const script = `
import { collectSharedBuffers } from './examples/shared-buffer-gc.ts'
collectSharedBuffers(globalThis.gc, 64 << 20, 10)
let most = 0
for (let i = 0; i < 150; i++) {
  new Uint8Array(new SharedArrayBuffer(8 << 20)).fill(1)
  await new Promise((r) => setTimeout(r, 2))
  most = Math.max(most, process.memoryUsage().arrayBuffers)
}
console.log(JSON.stringify({ most }))
`

t.test('garbage SharedArrayBuffers stay within a bound (1.2 GB allocated, none kept)', { timeout: 60_000 }, async (t) => {
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8', timeout: 50_000 })
  t.equal(r.status, 0, r.stderr)
  const { most } = JSON.parse(r.stdout.trim().split('\n').pop()!) as { most: number }
  t.ok(most < 400 * 1024 * 1024, `at most ${Math.round(most / 1048576)} MB of (Shared)ArrayBuffers alive at once`)
})
