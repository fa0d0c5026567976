/**
 * Judges one driver's run of the compat suite: what a step returned (rows normalised the way
 * QuestDB's runners print them: timestamps `YYYY-MM-DDTHH:MM:SS.ffffffZ`, arrays `{...}`,
 * numbers as numbers) against the step's expectation, and a test's outcome from its steps.
 */
import type { CompatExpect, CompatStep, CompatTest } from './questdb-compat-cases.js'

/** What one step gave: rows (query) or the affected count (execute), or an error. */
export type StepResult =
  | { readonly ok: true; readonly rows?: readonly (readonly unknown[])[]; readonly rowcount?: number }
  | { readonly ok: false; readonly error: string }

/** A test's outcome for one driver. */
export interface TestOutcome {
  readonly test: string
  readonly status: 'pass' | 'fail' | 'excluded'
  readonly message?: string
}

const TS_TEXT = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.(\d+))?(?:Z|[+-]00(?::?00)?)?$/

/** A timestamp's text (any of the forms drivers give) as `YYYY-MM-DDTHH:MM:SS.ffffffZ`. */
export function isoMicros(text: string): string | undefined {
  const m = TS_TEXT.exec(text)
  if (m === null) return undefined
  return `${m[1]}T${m[2]}.${(m[3] ?? '').padEnd(6, '0').slice(0, 6)}Z`
}

/** A JS driver value in the suite's printed form. */
export function normalizeJs(v: unknown): unknown {
  if (v === null || v === undefined) return null
  if (typeof v === 'bigint') return Number(v)
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? String(v) : v.toISOString().replace(/Z$/, '000Z')
  if (Array.isArray(v)) return `{${v.map((x) => { const n = normalizeJs(x); return typeof n === 'number' && Number.isInteger(n) ? `${n}.0` : String(n) }).join(',')}}`
  if (typeof v === 'string') return isoMicros(v) ?? v
  if (typeof v === 'number' || typeof v === 'boolean') return v
  if (v instanceof Uint8Array) return Buffer.from(v).toString('hex')
  return String(v)
}

function numeric(x: unknown): number | undefined {
  if (typeof x === 'number') return x
  if (typeof x === 'string' && x.trim() !== '' && !Number.isNaN(Number(x))) return Number(x)
  return undefined
}

/** One expected cell against one actual (normalised) cell. */
export function cellMatches(expected: unknown, actual: unknown): boolean {
  if (expected === null || expected === undefined) return actual === null
  if (typeof expected === 'boolean') return actual === expected || actual === (expected ? 't' : 'f')
  if (typeof expected === 'number') {
    const a = numeric(actual)
    return a !== undefined && Math.abs(a - expected) <= 1e-9 * Math.max(1, Math.abs(expected))
  }
  const e = String(expected)
  // numeric text compares normalised, as QuestDB's runners do (`Number(value).toString()`: a
  // DECIMAL(18,3)'s "2.500" is the suite's "2.5")
  if (typeof actual === 'string' && numeric(actual) !== undefined && numeric(e) !== undefined) return numeric(actual) === numeric(e)
  if (typeof actual === 'string') return actual === e || isoMicros(actual) === e
  const a = numeric(actual)
  return a !== undefined && numeric(e) === a
}

function rowMatches(expected: readonly unknown[], actual: readonly unknown[]): boolean {
  return expected.length === actual.length && expected.every((e, k) => cellMatches(e, actual[k]))
}

const show = (x: unknown): string => JSON.stringify(x)?.slice(0, 200) ?? String(x)

/** Why `result` does not meet `expect` (undefined when it does). */
export function checkExpect(step: CompatStep, expect: CompatExpect | undefined, result: StepResult): string | undefined {
  if (!result.ok) return result.error
  if (expect === undefined) return undefined
  const actual = step.action === 'execute' ? [[result.rowcount ?? -1]] : result.rows ?? []
  if (expect.kind === 'result') {
    if (actual.length !== expect.rows.length) return `expected ${expect.rows.length} rows, got ${actual.length}: ${show(actual.slice(0, 3))}`
    for (let i = 0; i < actual.length; i++) {
      if (!rowMatches(expect.rows[i]!, actual[i]!)) return `row ${i + 1}: expected ${show(expect.rows[i])}, got ${show(actual[i])}`
    }
    return undefined
  }
  for (const e of expect.rows) {
    if (!actual.some((a) => rowMatches(e, a))) return `missing row ${show(e)} (got ${actual.length} rows, first ${show(actual[0])})`
  }
  return undefined
}

/** The outcome of `test` given one result per step (teardown failures do not count). */
export function judge(test: CompatTest, results: readonly StepResult[]): TestOutcome {
  for (let i = 0; i < test.steps.length; i++) {
    const step = test.steps[i]!
    if (step.phase === 'teardown') continue
    const r = results[i] ?? { ok: false, error: 'not run' }
    const why = checkExpect(step, step.expect, r)
    if (why !== undefined) return { test: test.name, status: 'fail', message: `${step.phase} \`${step.query.slice(0, 80)}\`: ${why.split('\n')[0]}` }
  }
  return { test: test.name, status: 'pass' }
}
