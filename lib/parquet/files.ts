/**
 * File access for SQL: `read_parquet()` reads under the import root (`cairo.sql.copy.root`),
 * `COPY ... TO` writes under the export root (`cairo.sql.copy.export.root`), never outside them.
 *
 * Path rules (QuestDB's, plus a symlink check): a relative path resolves under the root; an
 * absolute one must lie inside the root; any `..` segment is refused ("relative path is not
 * allowed"); and the real path (symlinks followed) must still lie inside the root's real path.
 * Refusals are 22023 (REST 400, as QuestDB). A file read there that is missing or damaged is the client's mistake (user-file-error.ts).
 */
import { existsSync, mkdirSync, realpathSync } from 'node:fs'
import { dirname, isAbsolute, relative, resolve } from 'node:path'
import { SqlError, SqlState } from '../errors.js'
import type { ParquetAccess, ParquetSchema, TableScan } from '../functions/registry-types.js'
import { overlaps } from './prune.js'
import { ParquetFile } from './reader.js'
import { userFileError } from './user-file-error.js'
import type { Batch } from '../types/vector.js'

/** The import and export roots; either may be unset (the feature is then refused). */
export interface FileRoots {
  /** `cairo.sql.copy.root`: where read_parquet() reads */
  readonly copyRoot?: string | undefined
  /** `cairo.sql.copy.export.root`: where COPY ... TO writes */
  readonly exportRoot?: string | undefined
}

function inside(root: string, p: string): boolean {
  const r = relative(root, p)
  return r === '' || (!r.startsWith('..') && !isAbsolute(r))
}

/**
 * A path the statement names that leads out of its root: 22023, as the other refusals of a path
 * argument here (an empty path), not 42501, which is the access control's (a principal without a
 * permission, REST 403): QuestDB answers this refusal as any SqlException, with HTTP 400.
 */
function refuse(message: string, pos: number): SqlError {
  return new SqlError(SqlState.INVALID_PARAMETER_VALUE, message, pos)
}

/**
 * The absolute path of `name` under `root` (which must be set: `key` names it in the error), or a
 * SqlError at `pos`. `forWrite` creates the missing directories (inside the root) and checks the
 * parent's real path; otherwise the file's own real path is checked.
 */
export function resolveUnder(root: string | undefined, key: string, name: string, pos: number, forWrite = false): string {
  if (root === undefined || root.trim() === '') {
    throw new SqlError(SqlState.FEATURE_NOT_SUPPORTED, forWrite ? `COPY TO is disabled ['${key}' is not set?]` : `parquet files cannot be read ['${key}' is not set?]`, pos)
  }
  if (name.trim() === '') throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'parquet file path pattern is empty', pos)
  if (name.includes('\0')) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'invalid file path', pos)
  if (name.split(/[\\/]/).includes('..')) throw refuse('relative path is not allowed', pos)
  const absRoot = resolve(root)
  const target = isAbsolute(name) ? resolve(name) : resolve(absRoot, name)
  if (target === absRoot || !inside(absRoot, target)) throw refuse(`path is outside '${key}' [path=${name}]`, pos)
  if (forWrite) mkdirSync(dirname(target), { recursive: true })
  const realRoot = existsSync(absRoot) ? realpathSync(absRoot) : absRoot
  const probe = forWrite ? dirname(target) : target
  if (existsSync(probe) && !inside(realRoot, realpathSync(probe))) throw refuse(`path is outside '${key}' [path=${name}]`, pos)
  return target
}

/** The {@link ParquetAccess} of a database: read_parquet() under the import root. */
export class ParquetFiles implements ParquetAccess {
  constructor(readonly roots: FileRoots) {}

  private open(path: string, pos: number): ParquetFile {
    const file = resolveUnder(this.roots.copyRoot, 'cairo.sql.copy.root', path, pos)
    try {
      return ParquetFile.open(file, { displayName: path })
    } catch (err) {
      throw userFileError(err, path, pos)
    }
  }

  schema(path: string, pos: number): ParquetSchema {
    const f = this.open(path, pos)
    return { columns: f.columns, timestampIndex: f.timestampIndex }
  }

  read(path: string, pos: number, scan: TableScan): AsyncIterable<Batch> {
    const f = this.open(path, pos)
    const projection = scan.columns ?? f.columns.map((_, i) => i)
    const intervals = scan.intervals
    return asUserFile(f.batches(projection, intervals === undefined ? undefined : (g) => overlaps(g, intervals)), path, pos)
  }
}

/** `batches` of the user's file `name`, its errors client errors placed at the call's `pos` (user-file-error.ts). */
async function* asUserFile(batches: AsyncGenerator<Batch>, name: string, pos: number): AsyncGenerator<Batch> {
  try {
    yield* batches
  } catch (err) {
    throw userFileError(err, name, pos)
  }
}
