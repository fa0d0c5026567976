/**
 * Builders of the Parquet statements (grammar/parquet.ne): COPY ... TO's option list is read
 * from the tokens after the destination, so option names stay plain words (no new keywords).
 */
import { syntaxError } from '../../errors.js'
import type { Expr, Query } from '../ast.js'
import type { ConvertPartition, CopyOption, CopyTo } from '../ast-copy.js'
import { type Token, unquoteString } from '../lexer.js'
import type { Name } from './tokens.js'

function valueOf(t: Token): string {
  return t.type === 'string' ? unquoteString(t.text) : t.text
}

/** `COPY source TO 'dest' WITH FORMAT PARQUET option value ...`. */
export function copyTo(copy: Token, source: { table?: Name; query?: Query }, dest: Token, rest: readonly Token[]): CopyTo {
  const [w, f, fmt] = rest
  const formatError = (pos: number): Error => syntaxError("export format must be specified, supported formats: 'parquet'", pos)
  if (w === undefined) throw formatError(dest.offset + dest.text.length)
  if (w.type !== 'WITH') throw syntaxError(`unexpected '${w.text}', expected WITH`, w.offset)
  if (f === undefined || f.type !== 'FORMAT') throw formatError(f?.offset ?? w.offset + w.text.length)
  if (fmt === undefined || fmt.text.toLowerCase() !== 'parquet') throw syntaxError("unsupported format, only 'parquet' is supported", fmt?.offset ?? f.offset + f.text.length)
  const options: CopyOption[] = []
  for (let i = 3; i < rest.length; i += 2) {
    const n = rest[i]!
    const v = rest[i + 1]
    if (v === undefined) throw syntaxError(`option value expected [option=${n.text}]`, n.offset + n.text.length)
    // a signed number is two tokens
    const signed = (v.text === '-' || v.text === '+') && rest[i + 2] !== undefined
    options.push({ name: n.text.toLowerCase(), value: signed ? v.text + rest[i + 2]!.text : valueOf(v), pos: n.offset, valuePos: v.offset })
    if (signed) i++
  }
  const base = { kind: 'copy_to' as const, pos: copy.offset, dest: unquoteString(dest.text), destPos: dest.offset, options }
  const t = source.table
  if (t === undefined) return { ...base, query: source.query! }
  // a table is exported as SELECT * FROM it, so binding, permissions and execution see one shape
  const query: Query = { kind: 'select', pos: t.pos, distinct: false, columns: [{ expr: { kind: 'star', pos: t.pos } }], from: { kind: 'table', pos: t.pos, name: t.name }, joins: [] }
  return { ...base, table: t.name, tablePos: t.pos, query }
}

/** `CONVERT PARTITION TO PARQUET | NATIVE ...`; `word` must be CONVERT (the caller rejects otherwise). */
export function convertPartition(word: Name, format: Name, target: { list?: readonly { value: string; pos: number }[]; where?: Expr }): ConvertPartition {
  const f = format.name.toLowerCase()
  if (f !== 'parquet' && f !== 'native') throw syntaxError(`unexpected '${format.name}', expected PARQUET or NATIVE`, format.pos)
  return { kind: 'convert_partition', pos: word.pos, to: f, ...target }
}
