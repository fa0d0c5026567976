/**
 * Errors of a Parquet file a user names (`read_parquet('f')`): the reader reports 58030 when a
 * file cannot be opened and XX001 when its bytes are not Parquet, the codes of a fault in the
 * engine's own data (a converted partition), which the REST adapter answers with HTTP 500. A
 * user's missing or damaged file is the client's mistake, as QuestDB answers it (HTTP 400), so
 * at that boundary the error gets the SQLSTATE PostgreSQL gives a file a statement names
 * (`errcode_for_file_access`, and `bad_copy_file_format` for its contents):
 *
 * | the file | SQLSTATE |
 * | --- | --- |
 * | missing (ENOENT) | 58P01 undefined_file |
 * | not readable (EACCES, EPERM) | 42501 insufficient_privilege |
 * | a directory, or a path through a file (EISDIR, ENOTDIR) | 42809 wrong_object_type |
 * | a name too long (ENAMETOOLONG) | 42622 name_too_long |
 * | no file descriptor left (EMFILE, ENFILE) | 53000 insufficient_resources |
 * | not Parquet, truncated or damaged | 22P04 bad_copy_file_format |
 * | any other OS error (EIO) | 58030 io_error, still a server fault |
 *
 * A file that cannot be opened is named as QuestDB names it: `error reading parquet file
 * [<errno>]: could not open read-only [file=<path as given>]`.
 */
import { constants } from 'node:os'
import { SqlError, SqlState, type SqlStateCode } from '../errors.js'

const OPEN_CODES: Readonly<Record<string, SqlStateCode>> = {
  ENOENT: SqlState.UNDEFINED_FILE,
  EACCES: SqlState.INSUFFICIENT_PRIVILEGE,
  EPERM: SqlState.INSUFFICIENT_PRIVILEGE,
  EISDIR: SqlState.WRONG_OBJECT_TYPE,
  ENOTDIR: SqlState.WRONG_OBJECT_TYPE,
  ENAMETOOLONG: SqlState.NAME_TOO_LONG,
  EMFILE: SqlState.INSUFFICIENT_RESOURCES,
  ENFILE: SqlState.INSUFFICIENT_RESOURCES,
}

/**
 * `err`, from reading the user's file `name`, as the client error above, placed at `pos` (the
 * path argument) when it has no position of its own. Errors other than the reader's 58030 / XX001
 * pass through (only their position is filled in).
 */
export function userFileError(err: unknown, name: string, pos: number): unknown {
  if (!(err instanceof SqlError)) return err
  const at = err.position < 0 ? pos : err.position
  if (err.code === SqlState.DATA_CORRUPTED) return new SqlError(SqlState.BAD_COPY_FILE_FORMAT, err.message, at, { cause: err })
  if (err.code === SqlState.IO_ERROR && isErrno(err.cause)) {
    const os = err.cause.code ?? 'EIO'
    const errno = (constants.errno as Record<string, number | undefined>)[os] ?? Math.abs(err.cause.errno ?? 0)
    const code = OPEN_CODES[os] ?? SqlState.IO_ERROR
    return new SqlError(code, `error reading parquet file [${errno}]: could not open read-only [file=${name}]`, at, { cause: err.cause })
  }
  return at === err.position ? err : new SqlError(err.code, err.message, at, { detail: err.detail, hint: err.hint, cause: err.cause })
}

function isErrno(x: unknown): x is NodeJS.ErrnoException {
  return x instanceof Error && typeof (x as NodeJS.ErrnoException).code === 'string'
}
