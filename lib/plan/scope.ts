/**
 * Name resolution: the columns visible to an expression, with the table alias each came from.
 */
import { SqlError, SqlState } from '../errors.js'
import type { ColumnRef } from '../sql/ast.js'
import type { OutputColumn } from './plan-node.js'

/** A column an expression can name. */
export interface ScopeColumn extends OutputColumn {
  /** index in the input batch */
  readonly index: number
}

/** The columns of a plan node's output, resolvable by `name` or `table.name`. */
export class Scope {
  readonly columns: readonly ScopeColumn[]

  constructor(output: readonly OutputColumn[]) {
    this.columns = output.map((c, index) => ({ ...c, index }))
  }

  /** Finds a column, or undefined (ambiguity is an error). */
  find(ref: ColumnRef): ScopeColumn | undefined {
    const name = ref.name.toLowerCase()
    const table = ref.table?.toLowerCase()
    let found: ScopeColumn | undefined
    for (const c of this.columns) {
      if (c.name.toLowerCase() !== name) continue
      if (table !== undefined && c.table?.toLowerCase() !== table) continue
      if (found !== undefined) {
        if (table === undefined && found.table !== c.table) {
          throw new SqlError(SqlState.AMBIGUOUS_COLUMN, `Ambiguous column [name=${ref.name}]`, ref.pos)
        }
        continue
      }
      found = c
    }
    return found
  }

  /**
   * Resolves a column or raises 42703 `Invalid column: name`; a qualifier that names no table in
   * scope is 42P01 `Invalid table name or alias`, as in QuestDB.
   */
  resolve(ref: ColumnRef): ScopeColumn {
    const c = this.find(ref)
    if (c !== undefined) return c
    const table = ref.table?.toLowerCase()
    if (table !== undefined && !this.columns.some((col) => col.table?.toLowerCase() === table)) {
      throw new SqlError(SqlState.UNDEFINED_TABLE, 'Invalid table name or alias', ref.pos)
    }
    throw new SqlError(SqlState.UNDEFINED_COLUMN, `Invalid column: ${ref.table === undefined ? '' : ref.table + '.'}${ref.name}`, ref.pos)
  }
}

/**
 * Raises QuestDB's `Ambiguous column [name=x]` (42702, at the name) for an unqualified column
 * among `refs` that both `left` and `right` have. A join condition's equality is bound one side
 * at a time (to find its key pair), so without this check `ON r.x = x` would quietly take `x`
 * from whichever side it was tried against first.
 */
export function rejectAmbiguousRefs(refs: readonly ColumnRef[], left: Scope, right: Scope): void {
  for (const ref of refs) {
    if (ref.table !== undefined) continue
    if (left.find(ref) !== undefined && right.find(ref) !== undefined) {
      throw new SqlError(SqlState.AMBIGUOUS_COLUMN, `Ambiguous column [name=${ref.name}]`, ref.pos)
    }
  }
}
