/**
 * Non-null values per column of a Parquet file, from its footer alone: each row group's column
 * chunk records `num_values` (values and nulls, for a flat column one per row) and, in its
 * statistics, `null_count`. Unkeyed `count(x)` over a Parquet partition answers from these
 * without decoding a page (exec/operators/count-from-stats.ts).
 *
 * Trusted only for files EpochDB wrote (its footer key): its writer stores every value the engine
 * reads as null (a NaN double, a null IPv4, a null symbol) as a Parquet null, so the file's nulls
 * are the engine's; another writer's NaN is a Parquet value that reads as NULL. A column whose
 * chunks do not all record a null count (or whose count does not fit its rows) has no answer.
 */
import type { ParquetFile } from './reader.js'
import { FOOTER_KEY } from './schema.js'

/**
 * The non-null values of each flat column of `file` by its name in the file (undefined: not known
 * from the footer: a nested column, a chunk without `null_count`, a file EpochDB did not write).
 */
export function parquetNonNullCounts(file: ParquetFile): Map<string, number | undefined> {
  const out = new Map<string, number | undefined>()
  const md = file.metadata
  const ours = md.key_value_metadata?.some((k) => k.key === FOOTER_KEY) === true
  const required = new Set(md.schema.filter((el) => el.repetition_type === 'REQUIRED' && (el.num_children ?? 0) === 0).map((el) => el.name))
  for (const leaf of file.leaves) {
    let nonNull: number | undefined = ours ? 0 : undefined
    for (const g of md.row_groups) {
      if (nonNull === undefined) break
      const rows = Number(g.num_rows)
      const chunks = g.columns.filter((c) => c.meta_data?.path_in_schema[0] === leaf)
      const m = chunks.length === 1 ? chunks[0]!.meta_data : undefined
      // a flat column: one path element, one value (or null) per row
      if (m === undefined || m.path_in_schema.length !== 1 || Number(m.num_values) !== rows) { nonNull = undefined; break }
      const nc = m.statistics?.null_count
      const nulls = nc === undefined ? (required.has(leaf) ? 0 : undefined) : Number(nc)
      if (nulls === undefined || !Number.isInteger(nulls) || nulls < 0 || nulls > rows) { nonNull = undefined; break }
      nonNull += rows - nulls
    }
    out.set(leaf, nonNull)
  }
  return out
}
