/**
 * What the parser expected: the terminals the live Earley states can scan at a column, named for
 * humans (`FROM`, `','`, `identifier`, `end of statement`), and the syntax error message built
 * from them.
 */

/** The parts of nearley's internal state that we read (nearley does not type them). */
export interface EarleyState {
  readonly rule: { readonly name: string; readonly symbols: readonly unknown[] }
  readonly dot: number
  readonly reference: number
}

/** One column of nearley's parse table. */
export interface EarleyColumn {
  readonly states: readonly EarleyState[]
}

const TYPE_NAMES: Record<string, string> = {
  ident: 'identifier', qident: 'identifier', string: 'string', integer: 'number', long: 'number',
  float: 'number', decimal: 'number', hex: 'number', NAN: 'number', geohash: 'geohash literal', duration: 'duration', param: 'parameter', variable: 'variable',
}

/** The human name of one grammar terminal. */
export function terminalName(symbol: unknown): string | undefined {
  if (typeof symbol !== 'object' || symbol === null) return undefined
  if ('display' in symbol && typeof symbol.display === 'string') return symbol.display
  if ('type' in symbol && typeof symbol.type === 'string') return TYPE_NAMES[symbol.type] ?? symbol.type
  if ('literal' in symbol) return `'${String(symbol.literal)}'`
  return undefined
}

/** The second words of PostgreSQL's multi-word type names: accepted after a type, never suggested. */
const QUIET_AFTER_TYPE: ReadonlySet<string> = new Set(['WITH', 'WITHOUT', 'PRECISION', 'VARYING'])

function quiet(ruleName: string, symbol: unknown): boolean {
  return ruleName.startsWith('typeName') && typeof symbol === 'object' && symbol !== null && 'type' in symbol &&
    QUIET_AFTER_TYPE.has(String(symbol.type))
}

/** The names of the terminals that can come next at `column`, in grammar order, deduplicated. */
export function expectedTerminals(column: EarleyColumn): string[] {
  const seen = new Set<string>()
  for (const s of column.states) {
    if (quiet(s.rule.name, s.rule.symbols[s.dot])) continue
    const name = terminalName(s.rule.symbols[s.dot])
    if (name !== undefined) seen.add(name)
  }
  return [...seen]
}

/** True when the input read so far is a complete statement. */
export function canEndAt(column: EarleyColumn, start: string): boolean {
  return column.states.some((s) => s.rule.name === start && s.reference === 0 && s.dot === s.rule.symbols.length)
}

/** Terminals that start an expression; listed together as "an expression". */
const EXPRESSION_START = new Set([
  'identifier', 'number', 'geohash literal', 'duration', 'string', 'parameter', 'variable', "'('", "'-'", "'+'", "'~'",
  'CASE', 'CAST', 'EXISTS', 'EXTRACT', 'NOT', 'NULL', 'TRUE', 'FALSE', 'LEFT', 'RIGHT',
])

/** Operators that may continue an expression (an array subscript `[` among them); listed together as "an operator". */
const OPERATORS = new Set([
  "'::'", "'['", "'*'", "'/'", "'%'", "'+'", "'-'", "'<<'", "'>>'", "'<<='", "'>>='", "'||'", "'&'", "'^'",
  "'|'", "'='", "'!='", "'<>'", "'~'", "'!~'", "'<'", "'<='", "'>'", "'>='", 'IN', 'BETWEEN',
  'LIKE', 'ILIKE', 'IS', 'NOT', 'AND', 'OR', 'WITHIN',
])

/** At most this many alternatives are listed by name. */
const MAX_LISTED = 10

/**
 * The "expected ..." part of a syntax error: expression starters collapse into "an expression",
 * "end of statement" comes last, and a long list is cut.
 */
export function describeExpected(names: readonly string[], canEnd: boolean): string {
  let list: string[] = [...names]
  if (list.includes('identifier') && list.includes('number') && list.includes('string')) {
    const at = list.findIndex((n) => EXPRESSION_START.has(n))
    list = list.filter((n) => !EXPRESSION_START.has(n))
    list.splice(at, 0, 'an expression')
  }
  if (list.filter((n) => OPERATORS.has(n)).length >= 3) {
    list = [...list.filter((n) => !OPERATORS.has(n)), 'an operator']
  }
  if (list.length > MAX_LISTED) list = [...list.slice(0, MAX_LISTED - 1), 'other keywords']
  if (canEnd) list.push('end of statement')
  if (list.length === 0) return 'nothing more'
  if (list.length === 1) return list[0] as string
  return `${list.slice(0, -1).join(', ')} or ${list[list.length - 1]}`
}
