/**
 * `COPY t | (query) TO 'dest' WITH FORMAT PARQUET [option value ...]`: writes the rows as Parquet
 * under the export root (`cairo.sql.copy.export.root`), as QuestDB 9 lays them out:
 * - one file per time partition: a table's own partitions (or `PARTITION_BY unit`, which also
 *   splits a query's rows by their designated timestamp), as `<partition>.parquet` in the
 *   directory `dest`; when that makes a single file, or with no partitioning (a query, a table not
 *   partitioned, `PARTITION_BY NONE`), the one file is `dest`, `.parquet` appended when missing;
 * - files are written to `tmp_<id>/` under the root and moved into place when complete, replacing
 *   files of the same name (nobody sees half a file); a table without rows writes no file.
 * QuestDB runs the export in the background and answers with its id; EpochDB answers with the
 * same one-row `id` result once the files are in place. As in QuestDB, a table's partition already
 * in Parquet is copied byte for byte (copy-parts.ts), not encoded again.
 */
import { randomBytes } from 'node:crypto'
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { CopyTo } from '../../sql/ast.js'
import { bindQuery, type BindContext } from '../../plan/bind-query.js'
import { optimize } from '../../plan/optimize/index.js'
import { physical } from './physical.js'
import { runPlan } from '../operators/runner.js'
import type { ExecContext } from '../context.js'
import { type Execution, rowsExecution } from '../../result.js'
import { writeParquetFile } from '../../parquet/export.js'
import { copyPartitionBy, parseParquetOptions } from '../../parquet/options.js'
import { writePartitionedParquet } from '../../parquet/partitioned-export.js'
import { tablePartRows } from './copy-parts.js'
import { type FileRoots, resolveUnder } from '../../parquet/files.js'
import { infoOf } from '../../result.js'
import { rowsOf } from './meta.js'
import { SqlError, SqlState } from '../../errors.js'

const KEY = 'cairo.sql.copy.export.root'

/** Runs COPY ... TO; answers with the export's id. */
export async function copyTo(stmt: CopyTo, bc: BindContext, ctx: ExecContext, roots: FileRoots | undefined): Promise<Execution> {
  const raw = stmt.options.map((o) => ({ name: o.name, value: o.value, pos: o.valuePos, namePos: o.pos }))
  const partitionBy = copyPartitionBy(raw)
  const options = parseParquetOptions(raw, { partitionBy: true })
  const fileName = /\.parquet$/i.test(stmt.dest) ? stmt.dest : `${stmt.dest}.parquet`
  const path = resolveUnder(roots?.exportRoot, KEY, fileName, stmt.destPos, true)
  const plan = optimize(bindQuery(stmt.query, bc))
  // a table keeps its own partitioning unless PARTITION_BY says otherwise; a query has none
  const source = stmt.table === undefined ? undefined : bc.catalog.get(stmt.table, stmt.tablePos ?? stmt.pos)
  const table = source?.meta
  const unit = partitionBy?.unit ?? (table !== undefined && table.timestampIndex >= 0 ? table.partitionBy : 'NONE')
  if (unit !== 'NONE' && plan.timestampIndex < 0) {
    throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'partitioning is possible only on tables with designated timestamps', partitionBy?.pos ?? stmt.pos)
  }
  const columns = infoOf(plan.output)
  const types = plan.output.map((c) => c.type)
  const id = randomBytes(8).toString('hex')
  if (unit === 'NONE') {
    const ex: Execution = { columns, types, timestampIndex: plan.timestampIndex, command: 'select', affected: -1, batches: runPlan(physical(plan, ctx), ctx) }
    await writeParquetFile(ex, path, options)
  } else {
    const root = resolve(roots!.exportRoot!)
    const tmp = join(root, `tmp_${id}`)
    // a table by its own partitions: those already Parquet are copied as they are
    const parts = source === undefined ? undefined : tablePartRows(source, unit, plan.output.map((c, i) => ({ name: columns[i]!.name, type: c.type })), ctx)
    try {
      const batches = parts?.batches ?? runPlan(physical(plan, ctx), ctx)
      const files = await writePartitionedParquet({ columns, types, timestampIndex: plan.timestampIndex, batches }, tmp, unit, options)
      if (files.length === 1) await rename(join(tmp, `${files[0]!.name}.parquet`), path)
      else if (files.length > 1) await moveDir(tmp, resolveUnder(roots?.exportRoot, KEY, stmt.dest, stmt.destPos, true))
    } finally {
      parts?.close()
      await rm(tmp, { recursive: true, force: true })
    }
  }
  return rowsExecution(rowsOf([{ name: 'id', type: 'VARCHAR' }], [[id]]))
}

/** Moves the files of `from` to the directory `to`: renamed whole when `to` is new, else file by file, replacing. */
async function moveDir(from: string, to: string): Promise<void> {
  const existing = await stat(to).catch(() => undefined)
  if (existing !== undefined && !existing.isDirectory()) await rm(to, { force: true })
  if (existing === undefined || !existing.isDirectory()) {
    await rename(from, to)
    return
  }
  await mkdir(to, { recursive: true })
  for (const f of await readdir(from)) await rename(join(from, f), join(to, f))
}
