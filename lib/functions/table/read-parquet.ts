/**
 * `read_parquet('file.parquet')`: the rows of a Parquet file under the import root
 * (`cairo.sql.copy.root`), as QuestDB 9. Columns are typed from the file (SYMBOL comes back as
 * VARCHAR, as in QuestDB); a file EpochDB or QuestDB wrote with a designated timestamp keeps it.
 * The optimizer pushes column pruning and designated-timestamp intervals into the read, so only
 * the needed column chunks of the row groups whose statistics overlap the filter are decoded.
 * `parquet_scan('file.parquet')` is the same function under DuckDB's name, as QuestDB registers it
 * (ParquetScanFunctionFactory, for the sqllogictest files written with that name).
 */
import { SqlError, SqlState } from '../../errors.js'
import type { CallSite, FunctionContext, ParquetSchema, TableFunctionDef } from '../registry-types.js'

/** The schema each call site bound to (the binder asks for columns, then the timestamp index). */
const bound = new WeakMap<CallSite, ParquetSchema>()

function pathArg(site: CallSite): string {
  const v = site.constants[0]
  if (typeof v !== 'string') throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'parquet file path expected', site.argPositions[0] ?? site.pos)
  return v
}

function access(ctx: FunctionContext, site: CallSite): NonNullable<FunctionContext['parquet']> {
  if (ctx.parquet === undefined) throw new SqlError(SqlState.FEATURE_NOT_SUPPORTED, 'read_parquet() is not available here (no file system)', site.pos)
  return ctx.parquet
}

/** read_parquet. */
export const READ_PARQUET: TableFunctionDef = {
  kind: 'table',
  name: 'read_parquet',
  family: 'table',
  signatures: [{ args: ['STRING'], constant: [0], returns: 'STRING' }],
  description: "Rows of a Parquet file under the import root (cairo.sql.copy.root); columns typed from the file's schema.",
  example: "SELECT * FROM read_parquet('trades.parquet') WHERE side = 'buy'",
  pushdown: true,
  columns: (site, ctx) => {
    const schema = access(ctx, site).schema(pathArg(site), site.argPositions[0] ?? site.pos)
    bound.set(site, schema)
    return schema.columns
  },
  timestampIndex: (site) => bound.get(site)?.timestampIndex ?? -1,
  open: (site, ctx, scan) => access(ctx, site).read(pathArg(site), site.argPositions[0] ?? site.pos, scan ?? {}),
}

/** parquet_scan: QuestDB's alias of read_parquet (same file access, same pushdown). */
export const PARQUET_SCAN: TableFunctionDef = {
  ...READ_PARQUET,
  name: 'parquet_scan',
  description: 'Alias of read_parquet (the name DuckDB and QuestDB\'s sqllogictest files use).',
  example: "SELECT * FROM parquet_scan('trades.parquet') WHERE side = 'buy'",
}
