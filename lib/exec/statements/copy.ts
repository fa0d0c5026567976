/**
 * `COPY t | (query) TO 'dest' WITH FORMAT PARQUET [option value ...]`: writes the rows as one
 * Parquet file under the export root (`cairo.sql.copy.export.root`), `.parquet` appended when
 * missing, replacing a file of that name. QuestDB runs the export in the background and answers
 * with its id; EpochDB answers with the same one-row `id` result once the file is complete
 * (written beside its name and renamed into place, so nobody sees half a file).
 */
import { randomBytes } from 'node:crypto'
import type { CopyTo } from '../../sql/ast.js'
import { bindQuery, type BindContext } from '../../plan/bind-query.js'
import { optimize } from '../../plan/optimize/index.js'
import { physical } from './physical.js'
import { runPlan } from '../operators/runner.js'
import type { ExecContext } from '../context.js'
import { type Execution, rowsExecution } from '../../result.js'
import { writeParquetFile } from '../../parquet/export.js'
import { parseParquetOptions } from '../../parquet/options.js'
import { type FileRoots, resolveUnder } from '../../parquet/files.js'
import { infoOf } from '../../result.js'
import { rowsOf } from './meta.js'

/** Runs COPY ... TO; answers with the export's id. */
export async function copyTo(stmt: CopyTo, bc: BindContext, ctx: ExecContext, roots: FileRoots | undefined): Promise<Execution> {
  const options = parseParquetOptions(stmt.options.map((o) => ({ name: o.name, value: o.value, pos: o.valuePos, namePos: o.pos })))
  const name = /\.parquet$/i.test(stmt.dest) ? stmt.dest : `${stmt.dest}.parquet`
  const path = resolveUnder(roots?.exportRoot, 'cairo.sql.copy.export.root', name, stmt.destPos, true)
  const plan = optimize(bindQuery(stmt.query, bc))
  const ex: Execution = {
    columns: infoOf(plan.output), types: plan.output.map((c) => c.type), timestampIndex: plan.timestampIndex,
    command: 'select', affected: -1, batches: runPlan(physical(plan), ctx),
  }
  await writeParquetFile(ex, path, options)
  const id = randomBytes(8).toString('hex')
  return rowsExecution(rowsOf([{ name: 'id', type: 'VARCHAR' }], [[id]]))
}
