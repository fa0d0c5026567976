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

/** Names (and aliases) defined more than once across the built-ins; empty when all is well. */
export function duplicateNames(defs: readonly FunctionDef[] = BUILTINS): string[] {
  const seen = new Set<string>()
  const dups: string[] = []
  for (const d of defs) {
    for (const n of new Set([d.name, ...(d.aliases ?? [])].map((x) => x.toLowerCase()))) {
      if (seen.has(n)) dups.push(n)
      seen.add(n)
    }
  }
  return dups
}
