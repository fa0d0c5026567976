/**
 * Lookup of function definitions by name over {@link BUILTINS}: names and aliases are matched
 * lower-case. The index is built on first use.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { BUILTINS } from './builtins.js'
import type { FunctionDef } from './registry-types.js'

let index: Map<string, FunctionDef> | undefined

function buildIndex(): Map<string, FunctionDef> {
  const m = new Map<string, FunctionDef>()
  for (const d of BUILTINS) {
    for (const n of [d.name, ...(d.aliases ?? [])]) {
      const key = n.toLowerCase()
      if (!m.has(key)) m.set(key, d)
    }
  }
  return m
}

/** The definition named `name` (case-insensitive, aliases included), or undefined. */
export function lookupFunction(name: string): FunctionDef | undefined {
  index ??= buildIndex()
  return index.get(name.toLowerCase())
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
