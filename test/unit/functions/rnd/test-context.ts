/**
 * A small FunctionContext for unit tests of function kernels: a real Rnd (QuestDB's default
 * seeds), a fixed `now`, and an in-memory catalog view.
 */
import type { CallSite, CatalogView, FunctionContext, TableInfo } from '../../../../lib/functions/registry-types.js'
import { Rnd } from '../../../../lib/functions/rnd/rnd.js'
import type { ColumnType } from '../../../../lib/types/column-type.js'
import type { Scalar } from '../../../../lib/types/vector.js'

/** A test context; `tables` back the catalog view. */
export function testContext(tables: TableInfo[] = []): FunctionContext {
  const catalog: CatalogView = {
    tableNames: () => tables.map((t) => t.name),
    table: (name) => tables.find((t) => t.name.toLowerCase() === name.toLowerCase()),
    partitions: () => undefined,
  }
  return { now: 1_700_000_000_000_000, clock: () => 1_700_000_000_000_000, rnd: new Rnd(), user: 'admin', catalog, version: 'test' }
}

/** A call site whose arguments are the given constants (types as given). */
export function site(argTypes: ColumnType[], constants: Scalar[] = [], returns: ColumnType = 'NULL'): CallSite {
  return {
    argTypes,
    constants: argTypes.map((_, i) => constants[i]),
    returns,
    argPositions: argTypes.map((_, i) => 10 + i * 3),
    pos: 3,
  }
}
