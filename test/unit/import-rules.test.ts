import t from 'tap'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

// The house rules, read from the import graph (docs/architecture.md): the engine never imports
// an adapter; an adapter reaches the engine only through its public entry `lib/index.ts` and the
// adapters' internal entry `lib/internal.ts` (the console's browser app through `lib/sql/index.ts`,
// the `epochdb/sql` entry); no adapter imports another adapter's files; the examples, written as
// users write, import only the public entries.
const root = fileURLToPath(new URL('../../', import.meta.url))

function* sources(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    if (e.isDirectory()) { if (e.name !== 'node_modules' && e.name !== 'assets') yield* sources(p) } else if (/\.(ts|mts|mjs)$/.test(e.name) && !e.name.endsWith('.d.ts')) yield p
  }
}

/** Repository-relative paths of the relative modules `file` imports (static, dynamic, re-exports, type-only). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const out: string[] = []
  for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm)) {
    out.push(relative(root, resolve(dirname(file), m[1]!)).replace(/\.js$/, '.ts'))
  }
  return out
}

const edges = [...sources(join(root, 'lib')), ...sources(join(root, 'adapters'))].flatMap((f) => importsOf(f).map((to) => ({ from: relative(root, f), to })))

t.test('the graph was read', async (t) => {
  t.ok(edges.length > 500, `${edges.length} imports`)
  t.ok(edges.some((e) => e.from.startsWith('adapters/') && e.to === 'lib/index.ts'), 'adapters import lib/index.ts')
})

t.test('the engine never imports an adapter', async (t) => {
  t.same(edges.filter((e) => e.from.startsWith('lib/') && e.to.startsWith('adapters/')), [])
})

t.test('adapters reach the engine only through its public entries', async (t) => {
  const allowed = (e: { from: string; to: string }) =>
    e.to === 'lib/index.ts' || e.to === 'lib/internal.ts' || (e.from.startsWith('adapters/console/') && e.to === 'lib/sql/index.ts')
  t.same(edges.filter((e) => e.from.startsWith('adapters/') && e.to.startsWith('lib/') && !allowed(e)), [])
})

t.test('only the adapters import the internal entry', async (t) => {
  // lib/internal.ts is what the shipped adapters need and users must not (no package.json export
  // names it); the engine's own modules import each other directly
  t.same(edges.filter((e) => e.to === 'lib/internal.ts' && !e.from.startsWith('adapters/')), [])
})

t.test('the examples import only public entries', async (t) => {
  // examples/ is user code: `epochdb` (lib/index.ts) and the adapters' entries (`epochdb/http`, ...)
  const publicEntry = (p: string) => p === 'lib/index.ts' || p === 'lib/sql/index.ts' || /^adapters\/[^/]+\/index\.ts$/.test(p)
  const bad = [...sources(join(root, 'examples'))].flatMap((f) => importsOf(f).map((to) => ({ from: relative(root, f), to })))
    .filter((e) => (e.to.startsWith('lib/') || e.to.startsWith('adapters/')) && !publicEntry(e.to))
  t.same(bad, [])
})

t.test('no adapter imports another adapter\'s files', async (t) => {
  const adapterOf = (p: string) => p.split('/')[1]
  // the standalone server's configuration (adapters/http/server) reads every adapter's keys, but
  // only through that adapter's public entry, as a host application would
  const allowed = (e: { from: string; to: string }) => e.from.startsWith('adapters/http/server/') && e.to === `adapters/${adapterOf(e.to)}/index.ts`
  t.same(edges.filter((e) => e.from.startsWith('adapters/') && e.to.startsWith('adapters/') && adapterOf(e.from) !== adapterOf(e.to) && !allowed(e)), [])
})

t.test('execution uses plans, it does not make them', async (t) => {
  // operators, parallel execution and expression evaluation take plan nodes as data: outside
  // exec/statements (which binds the queries a statement runs), exec imports from plan only the
  // node definitions and their pure walkers — never the binder or the planners (issue #15)
  const nodeModules = (p: string) => p === 'lib/plan/plan-node.ts' || p.startsWith('lib/plan/nodes/') || p === 'lib/plan/literal-list.ts' || p === 'lib/plan/optimize/walk.ts'
  const bad: string[] = []
  for (const f of sources(join(root, 'lib/exec'))) {
    const from = relative(root, f)
    if (from.startsWith('lib/exec/statements/')) continue
    const text = readFileSync(f, 'utf8')
    for (const m of text.matchAll(/^import\s+(type\s+)?[^'"]*from\s*['"](\.{1,2}\/[^'"]+)['"]/gm)) {
      const to = relative(root, resolve(dirname(f), m[2]!)).replace(/\.js$/, '.ts')
      if (m[1] === undefined && to.startsWith('lib/plan/') && !nodeModules(to)) bad.push(`${from} -> ${to}`)
    }
  }
  t.same(bad, [])
})

t.test('planning never imports execution', async (t) => {
  // plan/ binds and optimizes; what it needs evaluated when it binds (constant folding) is handed
  // in by the layer that runs statements (BindContext.constant), so plan/ stays below exec/
  t.same(edges.filter((e) => e.from.startsWith('lib/plan/') && e.to.startsWith('lib/exec/')), [])
})
