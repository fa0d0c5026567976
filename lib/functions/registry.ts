/**
 * The one index of function definitions by name over {@link BUILTINS}: names and aliases are
 * matched lower-case; a name may have several definitions (a scalar and an aggregate, or split
 * overloads). The index is built on first use.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { BUILTINS } from './builtins.js'
import type { FunctionDef } from './registry-types.js'

let byName: Map<string, FunctionDef[]> | undefined

/**
 * Every definition named `name` (case-insensitive, aliases included), in declaration order: the
 * overloads the binder resolves a call among (`plan/resolve-function.ts`).
 */
export function functionsNamed(name: string): readonly FunctionDef[] {
  if (byName === undefined) {
    byName = new Map()
    for (const def of BUILTINS) {
      for (const n of [def.name, ...(def.aliases ?? [])]) {
        const key = n.toLowerCase()
        const list = byName.get(key)
        if (list === undefined) byName.set(key, [def])
        else list.push(def)
      }
    }
  }
  const key = name.toLowerCase()
  // `pg_catalog.version()`: PostgreSQL's schema-qualified names of the built-ins
  return byName.get(key) ?? (key.startsWith('pg_catalog.') ? byName.get(key.slice(11)) : undefined) ?? []
}

/** Every built-in definition, in declaration order. */
export function allFunctions(): readonly FunctionDef[] {
  return BUILTINS
}

/**
 * Names (and aliases) defined more than once across the built-ins for one kind of function (a
 * scalar and an aggregate may share a name, as `array_elem_min`'s multi-argument and aggregate
 * forms do); empty when all is well.
 */
export function duplicateNames(defs: readonly FunctionDef[] = BUILTINS): string[] {
  const seen = new Set<string>()
  const dups: string[] = []
  for (const d of defs) {
    for (const n of new Set([d.name, ...(d.aliases ?? [])].map((x) => x.toLowerCase()))) {
      const key = `${d.kind === 'aggregate' ? 'aggregate' : 'other'} ${n}`
      if (seen.has(key)) dups.push(n)
      seen.add(key)
    }
  }
  return dups
}

/**
 * True when a call of `argCount` arguments to a function with definitions `defs` is an aggregate:
 * some definition is an aggregate and no scalar one takes that many arguments (`array_elem_min(a)`
 * aggregates, `array_elem_min(a, b)` is the scalar).
 */
export function isAggregateOf(defs: readonly FunctionDef[], argCount: number): boolean {
  if (!defs.some((d) => d.kind === 'aggregate')) return false
  return !defs.some((d) => d.kind === 'scalar' && d.signatures.some((s) => s.args.length === argCount || (s.variadic !== undefined && argCount >= s.args.length)))
}
