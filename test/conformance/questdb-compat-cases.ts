/**
 * Reads QuestDB's cross-driver suite (`questdb-compat/test_cases.yaml`, format in
 * ../shared/conformance/NOTICE.md) and expands it into a flat plan: `${var}` substituted,
 * loops unrolled, `iterations` repeated. Placeholders stay as `$[n]`; each driver rewrites them.
 */
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'

/** Parameter types the suite uses. */
export type CompatParamType = 'INT4' | 'INT8' | 'FLOAT8' | 'BOOLEAN' | 'DATE' | 'CHAR' | 'TIMESTAMP' | 'VARCHAR' | 'NUMERIC' | 'ARRAY_FLOAT8' | 'ARRAY_VARCHAR'

/** One typed parameter, its value as text. */
export interface CompatParam {
  readonly value: string
  readonly type: CompatParamType
}

/** What a step expects: exact ordered rows, or a subset of rows. */
export interface CompatExpect {
  readonly kind: 'result' | 'contains'
  readonly rows: readonly (readonly unknown[])[]
}

/** One statement to run. */
export interface CompatStep {
  readonly phase: 'prepare' | 'steps' | 'teardown'
  readonly action: 'execute' | 'query'
  readonly query: string
  readonly params: readonly CompatParam[]
  readonly expect?: CompatExpect
}

/** One test case, expanded. */
export interface CompatTest {
  readonly name: string
  readonly exclude: readonly string[]
  readonly steps: readonly CompatStep[]
}

type Vars = Readonly<Record<string, string>>

function subst(s: string, vars: Vars): string {
  return s.replace(/\$\{(\w+)\}/g, (m, k: string) => vars[k] ?? m)
}

function substValue(v: unknown, vars: Vars): unknown {
  if (typeof v === 'string') return subst(v, vars)
  if (Array.isArray(v)) return v.map((x) => substValue(x, vars))
  return v
}

function expandSteps(raw: unknown, phase: CompatStep['phase'], vars: Vars, out: CompatStep[]): void {
  if (!Array.isArray(raw)) return
  for (const s of raw as Record<string, unknown>[]) {
    const loop = s['loop'] as { range?: { start: number; end: number }; as?: string; steps?: unknown } | undefined
    if (loop !== undefined) {
      const { start = 1, end = 0 } = loop.range ?? {}
      for (let i = start; i <= end; i++) expandSteps(loop.steps, phase, { ...vars, [loop.as ?? 'i']: String(i) }, out)
      continue
    }
    const exp = s['expect'] as { result?: unknown[][]; result_contains?: unknown[][] } | undefined
    const expect: CompatExpect | undefined = exp?.result !== undefined
      ? { kind: 'result', rows: substValue(exp.result, vars) as unknown[][] }
      : exp?.result_contains !== undefined ? { kind: 'contains', rows: substValue(exp.result_contains, vars) as unknown[][] } : undefined
    const params = ((s['parameters'] as { value: unknown; type: CompatParamType }[] | undefined) ?? [])
      .map((p) => ({ value: subst(String(p.value), vars), type: p.type }))
    out.push({
      phase, action: s['action'] === 'execute' ? 'execute' : 'query', query: subst(String(s['query'] ?? ''), vars).trim(), params,
      ...(expect === undefined ? {} : { expect }),
    })
  }
}

/**
 * Parses the suite at `path` into expanded tests; `maxIterations` caps a test's `iterations`
 * (repeats of the same steps) for a quick run.
 */
export function loadCompatCases(path: string, maxIterations = Infinity): CompatTest[] {
  const doc = parse(readFileSync(path, 'utf8')) as { variables?: Record<string, unknown>; tests?: Record<string, unknown>[] }
  const vars: Vars = Object.fromEntries(Object.entries(doc.variables ?? {}).map(([k, v]) => [k, String(v)]))
  return (doc.tests ?? []).map((tc) => {
    const steps: CompatStep[] = []
    const iterations = Math.min(maxIterations, Number(tc['iterations'] ?? 1))
    for (let it = 0; it < iterations; it++) {
      expandSteps(tc['prepare'], 'prepare', vars, steps)
      expandSteps(tc['steps'], 'steps', vars, steps)
      expandSteps(tc['teardown'], 'teardown', vars, steps)
    }
    return { name: String(tc['name']), exclude: ((tc['exclude'] as string[] | undefined) ?? []).map(String), steps }
  })
}

/** The query with `$[n]` rewritten as `$n` (pg, postgres, asyncpg). */
export function dollarPlaceholders(query: string): string {
  return query.replace(/\$\[(\d+)\]/g, '$$$1')
}
