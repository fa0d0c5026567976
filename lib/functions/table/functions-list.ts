/**
 * `functions()` (QuestDB's meta page): one row per signature of every built-in function —
 * `name`, `signature` (QuestDB's letter codes, lower case for a constant argument, `V` for
 * variadic), `signature_translated` (type names), `runtime_constant` (false for every built-in)
 * and `type` (`STANDARD`, `GROUP_BY`, `WINDOW` or `CURSOR` for a table function). Argument
 * classes EpochDB accepts as one signature (`NUMERIC`, `TEXT`, `ANY`, ...) print as their name.
 *
 * The list is handed in by `builtins.ts` ({@link setFunctionList}), which imports this module.
 */
import type { ColumnType } from '../../types/column-type.js'
import { typeName } from '../../types/column-type.js'
import type { Scalar } from '../../types/vector.js'
import type { ArgType, FunctionDef } from '../registry-types.js'
import { batchOf } from './catalog-tables.js'

let ALL: readonly FunctionDef[] = []

/** Sets the functions `functions()` lists (called once by builtins.ts). */
export function setFunctionList(defs: readonly FunctionDef[]): void {
  ALL = defs
}

const CODES: Partial<Record<string, string>> = {
  BOOLEAN: 'T', BYTE: 'B', SHORT: 'E', CHAR: 'A', INT: 'I', LONG: 'L', FLOAT: 'F', DOUBLE: 'D', STRING: 'S',
  SYMBOL: 'K', VARCHAR: 'Ø', TIMESTAMP: 'N', DATE: 'M', BINARY: 'U', UUID: 'Z', LONG256: 'H', IPV4: 'X',
  TIMESTAMP_NS: 'N', INTERVAL: 'Δ', 'DOUBLE[]': 'D[]',
}

function argName(a: ArgType): string {
  return typeof a === 'string' && /^[A-Z_]+$/.test(a) ? typeName(a as ColumnType).toLowerCase() : String(a).toLowerCase()
}

const COLUMNS: readonly { name: string; type: ColumnType }[] = [
  { name: 'name', type: 'STRING' },
  { name: 'signature', type: 'STRING' },
  { name: 'signature_translated', type: 'STRING' },
  { name: 'runtime_constant', type: 'BOOLEAN' },
  { name: 'type', type: 'STRING' },
]

const KIND: Record<FunctionDef['kind'], string> = { scalar: 'STANDARD', aggregate: 'GROUP_BY', table: 'CURSOR' }

function rows(): Scalar[][] {
  const out: Scalar[][] = []
  for (const d of ALL) {
    for (const name of [d.name, ...(d.aliases ?? [])]) {
      for (const s of d.signatures) {
        const constant = new Set(s.constant ?? [])
        const codes = s.args.map((a, i) => { const c = CODES[a] ?? a; return constant.has(i) ? c.toLowerCase() : c })
        const names = s.args.map(argName)
        if (s.variadic !== undefined) { codes.push('V'); names.push(`${argName(s.variadic)}...`) }
        out.push([name, `${name}(${codes.join('')})`, `${name}(${names.join(', ')})`, false, d.family === 'window' ? 'WINDOW' : KIND[d.kind]])
      }
    }
  }
  return out
}

/** functions(). */
export const FUNCTIONS_LIST: FunctionDef = {
  kind: 'table',
  name: 'functions',
  family: 'meta',
  signatures: [{ args: [], returns: 'STRING' }],
  description: 'One row per signature of every built-in function: name, signature codes, argument types, runtime_constant and type (STANDARD, GROUP_BY, WINDOW, CURSOR).',
  example: "SELECT name, signature_translated FROM functions() WHERE name = 'bar'",
  columns: () => COLUMNS,
  timestampIndex: () => -1,
  open: () => [batchOf(COLUMNS.map((c) => c.type), rows())],
}
