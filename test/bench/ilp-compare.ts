/**
 * ILP speed before and after a change, in one run: test/bench/ilp.ts of a baseline checkout and
 * of this one, run alternately (so both see the same machine load), each mode several times;
 * prints every run and the median server CPU per row of each side and their ratio.
 *
 *   git archive <commit> | tar -x -C /tmp/before && ln -s $PWD/node_modules /tmp/before/node_modules
 *   node --import tsx test/bench/ilp-compare.ts /tmp/before [rows=750000] [rounds=3] [modes=raw,rawtcp]
 *
 * Not a test: figures go to docs/benchmarks.md.
 */
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { dirname, join, resolve } from 'node:path'

const baseline = resolve(process.argv[2] ?? '')
const rows = process.argv[3] ?? '750000'
const rounds = Number(process.argv[4] ?? 3)
const modes = (process.argv[5] ?? 'raw,rawtcp').split(',')
const here = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

/** One run of ilp.ts in `root` for `mode`: its report lines, as `{ name, usPerRow, rowsPerS }`. */
function run(root: string, mode: string): { name: string; us: number; rps: number }[] {
  const out = execFileSync(process.execPath, ['--import', 'tsx', join(root, 'test/bench/ilp.ts'), rows, mode], { cwd: root, encoding: 'utf8' })
  return out.split('\n').flatMap((line) => {
    const m = /^(.*?)\s+\d+ rows in [\d.]+ s = ([\d,]+) rows\/s .*?([\d.]+) µs\/row/.exec(line)
    return m === null ? [] : [{ name: m[1]!.trim(), rps: Number(m[2]!.replace(/,/g, '')), us: Number(m[3]) }]
  })
}

const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]! }

for (const mode of modes) {
  const before: { us: number; rps: number }[] = []
  const after: { us: number; rps: number }[] = []
  let name = mode
  for (let r = 0; r < rounds; r++) {
    for (const [root, into, label] of [[baseline, before, 'before'], [here, after, 'after']] as const) {
      const res = run(root, mode)[0]
      if (res === undefined) throw new Error(`no figure from ${label} ${mode}`)
      name = res.name
      into.push(res)
      console.log(`${label.padEnd(6)} ${res.name.padEnd(30)} ${res.us.toFixed(2)} µs/row server CPU, ${res.rps.toLocaleString('en-US')} rows/s wall`)
    }
  }
  const b = median(before.map((x) => x.us)), a = median(after.map((x) => x.us))
  console.log(`== ${name}: median server CPU ${b.toFixed(2)} -> ${a.toFixed(2)} µs/row (x${(a / b).toFixed(2)}); wall ${median(before.map((x) => x.rps)).toLocaleString('en-US')} -> ${median(after.map((x) => x.rps)).toLocaleString('en-US')} rows/s`)
}
