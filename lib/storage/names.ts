/**
 * Table and column names: which names are valid (QuestDB's rules, `TableUtils.isValidTableName` /
 * `isValidColumnName`), how two names compare, and how a table name becomes a directory name.
 *
 * A name never reaches the file system as it is: a table's directory is a sanitised, bounded
 * form of its name plus its id (`<name>~<id>`), and the real name lives in the table's `_meta`.
 * Column files do carry the column name (`<column>.d`), which is why column names are held to
 * the stricter rules and to a length in bytes.
 */
import { SqlError, SqlState } from '../errors.js'

/** QuestDB's `cairo.max.file.name.length` default: the longest table or column name. */
export const DEFAULT_MAX_NAME_LENGTH = 127

/** Bytes of a table name kept in its directory name (the id follows). */
const DIR_NAME_BYTES = 64

/** Characters no table name may hold (QuestDB's list, and every C0 control character and DEL). */
const TABLE_FORBIDDEN = /[?,'"\\/:)(+*%~\u0000-\u001f\u007f\ufeff]/
/** Column names also refuse `.` and `-` (column files are `<name>.d`). */
const COLUMN_FORBIDDEN = /[?.,'"\\/:)(+\-*%~\u0000-\u001f\u007f\ufeff]/

/** The name with control characters shown as `\uXXXX`, for error messages. */
export function printable(name: string): string {
  return name.replace(/[\u0000-\u001f\u007f\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/**
 * Checks a table name: not empty, at most `maxLength` characters, none of
 * `? , ' " \ / : ) ( + * % ~`, no control character, no leading or trailing space, and a `.`
 * only alone between other characters (so `.`, `..`, `.x`, `x.` and `a..b` are refused).
 * Throws 42602 (invalid name) or 42622 (name too long) at `pos`.
 */
export function checkTableName(name: string, pos: number, maxLength = DEFAULT_MAX_NAME_LENGTH): void {
  if (name.length > maxLength) throw tooLong('table', name, pos, maxLength)
  const bad = name.length === 0 || TABLE_FORBIDDEN.test(name) || name.startsWith(' ') || name.endsWith(' ') ||
    name.startsWith('.') || name.endsWith('.') || name.includes('..')
  if (bad) throw new SqlError(SqlState.INVALID_NAME, `invalid table name [table=${printable(name)}]`, pos)
}

/**
 * Checks a column name: not empty, at most `maxLength` characters and bytes of UTF-8 (it names
 * files), none of `? . , ' " \ / : ) ( + - * % ~`, no control character. Throws 42602 or 42622 at `pos`.
 */
export function checkColumnName(name: string, pos: number, maxLength = DEFAULT_MAX_NAME_LENGTH): void {
  if (name.length > maxLength || Buffer.byteLength(name) > maxLength) throw tooLong('column', name, pos, maxLength)
  if (name.length === 0 || COLUMN_FORBIDDEN.test(name)) throw new SqlError(SqlState.INVALID_NAME, `invalid column name [name=${printable(name)}]`, pos)
}

function tooLong(what: 'table' | 'column', name: string, pos: number, maxLength: number): SqlError {
  return new SqlError(SqlState.NAME_TOO_LONG, `${what} name is too long [name=${printable(name.slice(0, 32))}..., maxLength=${maxLength}]`, pos)
}

/**
 * The key two column names are compared by: equal keys are the same column. Beyond ignoring
 * case, it folds Unicode normalisation and compatibility forms, so that two names a
 * case-insensitive or normalising file system (macOS, Windows) would store as one file are one name.
 */
export function nameKey(name: string): string {
  return name.normalize('NFKC').toUpperCase().toLowerCase()
}

/**
 * The directory of table `id` named `name`: letters, digits, `_` and `-` of the name (others
 * become `_`), at most {@link DIR_NAME_BYTES} bytes of it, then `~` and the id. The id makes it
 * unique whatever the file system folds; internal files of the data directory never contain `~`.
 */
export function tableDirName(name: string, id: number): string {
  let out = ''
  let bytes = 0
  for (const ch of name.normalize('NFC')) {
    const c = /^[\p{L}\p{N}_-]$/u.test(ch) ? ch : '_'
    const n = Buffer.byteLength(c)
    if (bytes + n > DIR_NAME_BYTES) break
    out += c
    bytes += n
  }
  return `${out}~${id}`
}

/** True for a directory entry that is a table directory (`<anything>~<digits>`). */
export function isTableDirName(entry: string): boolean {
  return /~\d+$/.test(entry)
}
