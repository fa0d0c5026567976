/**
 * The parser's entry points: split a script at `;`, parse each statement with the Earley parser
 * generated from grammar.ne, and turn failures into precise syntax errors (42601).
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import nearley from 'nearley'
import type { Statement } from './ast.js'
import { syntaxError } from '../errors.js'
import type { EarleyColumn } from './expected.js'
import { canEndAt, describeExpected, expectedTerminals } from './expected.js'
import grammar from './grammar.js'
import type { Token } from './lexer.js'
import { tokenize, tokenizeAsync } from './lexer.js'
import { TokenStream } from './token-stream.js'
import { isOnAfterCrossJoin, isUsingAfterJoin, joinUsingError } from './join-clause-errors.js'
import { compileViewError } from './compile-view-errors.js'
import { finishAst, finishAstAsync } from './build/seq.js'
import type { ParseLimits } from './limits.js'
import { checkLength, checkTokens, checkTokenSteps, DEFAULT_PARSE_LIMITS } from './limits.js'
import { shrinkLists, shrinkSteps } from './fast-lists.js'
import { TemplateCache, shapeOf } from './parse-templates.js'
import { type ScannedValues, appendRows, scanValues } from './fast-values.js'

const compiled = nearley.Grammar.fromCompiled(grammar as unknown as nearley.CompiledRules)

/** One statement of a script with where it sits in the text. */
export interface ParsedStatement {
  readonly statement: Statement
  /** offset of the statement's first token */
  readonly start: number
  /** offset just past its last token */
  readonly end: number
  /** the statement's text, `sql.slice(start, end)` */
  readonly text: string
}

/** nearley's parser with the internals we read. */
interface EarleyParser extends nearley.Parser {
  table: EarleyColumn[]
  reportError: (token: unknown) => string
}

/**
 * The statements of `sql` as token runs, after the limits: the length before lexing, lists and
 * depth before the Earley parser (limits.ts).
 */
function lexChecked(sql: string, limits: ParseLimits): { tokens: Token[]; end: number }[] {
  checkLength(sql, limits)
  const tokens = tokenize(sql)
  checkTokens(tokens, limits)
  return splitTokens(tokens, sql.length)
}

/** The tokens of each non-empty statement of `tokens`, cut at `;`. */
function splitTokens(tokens: readonly Token[], sqlLength: number): { tokens: Token[]; end: number }[] {
  // cut at the `;` tokens with slices (one copy of pointers), not a push per token: a statement
  // of 300,000 tokens is split in a millisecond
  const out: { tokens: Token[]; end: number }[] = []
  let from = 0
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as Token
    if (t.type === 'op' && t.text === ';') {
      if (i > from) out.push({ tokens: tokens.slice(from, i), end: t.offset })
      from = i + 1
    }
  }
  if (tokens.length > from) out.push({ tokens: tokens.slice(from), end: sqlLength })
  return out
}

/** True for identifiers and keywords (keyword token types are upper-case words). */
function isWord(tok: Token): boolean {
  return tok.type === 'ident' || tok.type === 'qident' || /^[A-Z]/.test(tok.type ?? '')
}

/** Where the Earley parser stands: its results, or the token it failed at. */
interface Run { parser: EarleyParser; failed?: Token }

/**
 * Tokens the async parser feeds the Earley parser between two calls of its `pause` (about a
 * millisecond of parsing for list-heavy statements on a slow machine).
 */
export const PARSE_SLICE_TOKENS = 256

/** A new Earley parser reading from `stream`. */
function newParser(stream: TokenStream): EarleyParser {
  const parser = new nearley.Parser(compiled, { lexer: stream as unknown as nearley.Lexer }) as EarleyParser
  parser.reportError = () => 'syntax error' // nearley's own report walks every state; we build ours
  return parser
}

/** Feeds the parser what `stream` holds; false when it failed (then `run.failed` is the token). */
function feed(run: Run): boolean {
  try {
    run.parser.feed('')
    return true
  } catch (e) {
    const failed = (e as { token?: Token }).token
    if (failed === undefined) throw e // a SqlError thrown by a postprocessor, or a bug
    run.failed = failed
    return false
  }
}

/** Runs the Earley parser over tokens; returns the parser (results or the column where it failed). */
function run(tokens: readonly Token[]): Run {
  const stream = new TokenStream()
  stream.load(tokens)
  const r: Run = { parser: newParser(stream) }
  feed(r)
  return r
}

/**
 * {@link run} in slices of {@link PARSE_SLICE_TOKENS} tokens, awaiting `pause()` between them
 * (nearley parses incrementally: each `feed` continues from the last token of the previous one).
 */
async function runSliced(tokens: readonly Token[], pause: () => Promise<void>): Promise<Run> {
  const stream = new TokenStream()
  const r: Run = { parser: newParser(stream) }
  for (let from = 0; ; from += PARSE_SLICE_TOKENS) {
    stream.load(tokens, from, from + PARSE_SLICE_TOKENS)
    if (!feed(r) || from + PARSE_SLICE_TOKENS >= tokens.length) return r
    await pause()
  }
}

/**
 * Parses the tokens of one statement. `end` is where an incomplete statement is reported.
 * Long lists of simple values take the fast path (fast-lists.ts); whatever it cannot put back,
 * and every syntax error, comes from the grammar reading all the tokens.
 */
function parseTokens(tokens: readonly Token[], end: number): Statement {
  return withViewText(parseTemplated(tokens, end), tokens)
}

function parseTemplated(tokens: readonly Token[], end: number): Statement {
  const shape = shapeOf(tokens)
  if (shape === undefined) return parseGrammar(tokens, end)
  const hit = templates.lookup(shape, tokens)
  if (hit !== undefined) return hit
  const stmt = parseGrammar(tokens, end)
  if (!templates.known(shape)) templates.remember(shape, tokens, stmt, (other) => parseGrammar(other, end))
  return stmt
}

/** Statement shapes parsed before (parse-templates.ts). */
const templates = new TemplateCache()

/**
 * The statements of `sql` parsed by the grammar alone, never from a template (the reference the
 * template cache is tested against).
 */
export function parseByGrammar(sql: string, limits: ParseLimits = DEFAULT_PARSE_LIMITS): Statement[] {
  return lexChecked(sql, limits).map(({ tokens, end }) => withViewText(parseGrammar(tokens, end), tokens))
}

/**
 * A CREATE / ALTER VIEW with its query's text (`sql`): the tokens between its parentheses, a
 * space where the text had whitespace or a comment between two of them (the statement's tokens
 * are all there is here; a template hit has moved the offsets to these tokens).
 */
function withViewText(stmt: Statement, tokens: readonly Token[]): Statement {
  if (stmt.kind !== 'create_view' && !(stmt.kind === 'mat_view' && stmt.op === 'create')) return stmt
  let text = ''
  let prevEnd = -1
  for (const t of tokens) {
    if (t.offset < stmt.bodyStart || t.offset >= stmt.bodyEnd) continue
    if (prevEnd >= 0 && t.offset > prevEnd) text += ' '
    text += t.text
    prevEnd = t.offset + t.text.length
  }
  return { ...stmt, sql: text }
}

/** {@link parseTokens} by the grammar (with the fast path for long lists). */
function parseGrammar(tokens: readonly Token[], end: number): Statement {
  const shrunk = shrinkLists(tokens)
  if (shrunk !== undefined) {
    const r = run(shrunk.tokens)
    if (r.failed === undefined && r.parser.results.length > 0) {
      const stmt = statementOf(r, shrunk.tokens, end)
      if (shrunk.patch(stmt)) return stmt
    }
  }
  return statementOf(run(tokens), tokens, end)
}

/** {@link parseTokens} in slices with `pause()` between them. */
async function parseTokensAsync(tokens: readonly Token[], end: number, pause: () => Promise<void>): Promise<Statement> {
  const steps = shrinkSteps(tokens)
  let step = steps.next()
  while (step.done !== true) {
    await pause()
    step = steps.next()
  }
  const shrunk = step.value
  if (shrunk !== undefined) {
    const r = await runSliced(shrunk.tokens, pause)
    if (r.failed === undefined && r.parser.results.length > 0) {
      const stmt = await finishAstAsync(rawStatementOf(r, shrunk.tokens, end), pause)
      if (shrunk.patch(stmt)) return withViewText(stmt, tokens)
    }
  }
  return withViewText(await finishAstAsync(rawStatementOf(await runSliced(tokens, pause), tokens, end), pause), tokens)
}

/** The statement the parser read, or the syntax error where it failed or stopped short. */
function statementOf(run: Run, tokens: readonly Token[], end: number): Statement {
  return finishAst(rawStatementOf(run, tokens, end))
}

/** {@link statementOf} before its lists are made arrays (`finishAst`). */
function rawStatementOf({ parser, failed }: Run, tokens: readonly Token[], end: number): Statement {
  const column = parser.table[parser.current]
  if (failed !== undefined) {
    const compile = compileViewError(tokens, failed)
    if (compile !== undefined) throw compile
    const first = tokens[0] as Token
    if (failed === tokens[1] && first.type === 'ident' && !isWord(failed)) {
      // `selec 1`: an unknown first word read as the query shorthand `table WHERE ...`
      throw syntaxError(`unexpected '${first.text}', expected a statement such as SELECT, INSERT, CREATE or a table name`, first.offset)
    }
    // QuestDB's parser refuses the ON before reading it (SqlParser.parseJoin)
    if (isOnAfterCrossJoin(tokens, failed)) throw syntaxError('Cross joins cannot have join clauses', failed.offset)
    if (isUsingAfterJoin(tokens, tokens.indexOf(failed))) throw joinUsingError(failed.offset)
    const expected = column === undefined ? 'nothing more' : describeExpected(expectedTerminals(column), canEndAt(column, compiled.start))
    throw syntaxError(`unexpected '${failed.text}', expected ${expected}`, failed.offset)
  }
  const results = parser.results as Statement[]
  if (results.length === 0) {
    const compile = compileViewError(tokens, undefined)
    if (compile !== undefined) throw compile
    const expected = column === undefined ? 'more input' : describeExpected(expectedTerminals(column), false)
    throw syntaxError(`unexpected end of statement, expected ${expected}`, end)
  }
  return results[0] as Statement
}

/**
 * Shorter texts are not tried by the VALUES scanner: a one-row INSERT would be lexed twice, and
 * the token path reads a few rows in microseconds.
 */
export const VALUES_SCAN_MIN_TEXT = 1024

/** {@link scanValues} and {@link parsedValues} in one go. */
function scannedValues(sql: string, limits: ParseLimits): ParsedStatement | undefined {
  const steps = scanValues(sql, limits)
  let step = steps.next()
  while (step.done !== true) step = steps.next()
  return step.value === undefined ? undefined : parsedValues(sql, step.value)
}

/**
 * The one INSERT ... VALUES statement `scanned` read (fast-values.ts): its head parsed as usual,
 * the other rows put after the first; undefined when the head does not parse as that (then the
 * whole text is parsed as usual, and reports any error).
 */
function parsedValues(sql: string, scanned: ScannedValues): ParsedStatement | undefined {
  const head = scanned.head
  let statement: Statement
  try {
    statement = parseTokens(head, scanned.end)
  } catch {
    return undefined
  }
  if (!appendRows(statement, scanned)) return undefined
  const start = (head[0] as Token).offset
  return { statement, start, end: scanned.end, text: sql.slice(start, scanned.end) }
}

/**
 * Parses a script of statements separated by `;` (a trailing `;` is fine, empty statements
 * are skipped), keeping each statement's span in the text.
 *
 * @throws SqlError 42601 with the 0-based position of the offending token; 54000 / 54001 when
 * `sql` is over one of `limits` (default {@link DEFAULT_PARSE_LIMITS}).
 */
export function parseScript(sql: string, limits: ParseLimits = DEFAULT_PARSE_LIMITS): ParsedStatement[] {
  checkLength(sql, limits)
  const fast = sql.length < VALUES_SCAN_MIN_TEXT ? undefined : scannedValues(sql, limits)
  if (fast !== undefined) return [fast]
  const chunks = lexChecked(sql, limits)
  return chunks.map(({ tokens, end }) => {
    const first = tokens[0] as Token
    const last = tokens[tokens.length - 1] as Token
    const stop = last.offset + last.text.length
    return { statement: parseTokens(tokens, end), start: first.offset, end: stop, text: sql.slice(first.offset, stop) }
  })
}

/**
 * {@link parseScript} for a server: lexes and parses in slices, awaiting `pause()` between them,
 * so a statement of hundreds of kilobytes does not hold the event loop for seconds. `pause` is
 * where the caller yields to the event loop and throws to stop the parse (a cancelled statement,
 * a timeout); the Database passes its cooperative scheduler (`ExecContext.maybeYield`).
 *
 * @throws SqlError as {@link parseScript}; whatever `pause` throws.
 */
export async function parseScriptAsync(sql: string, limits: ParseLimits, pause: () => Promise<void>): Promise<ParsedStatement[]> {
  checkLength(sql, limits)
  if (sql.length >= VALUES_SCAN_MIN_TEXT) {
    const steps = scanValues(sql, limits)
    let step = steps.next()
    while (step.done !== true) {
      await pause()
      step = steps.next()
    }
    const fast = step.value === undefined ? undefined : parsedValues(sql, step.value)
    if (fast !== undefined) return [fast]
  }
  const tokens = await tokenizeAsync(sql, pause)
  const checking = checkTokenSteps(tokens, limits)
  while (checking.next().done !== true) await pause()
  const out: ParsedStatement[] = []
  for (const { tokens: stmt, end } of splitTokens(tokens, sql.length)) {
    const first = stmt[0] as Token
    const last = stmt[stmt.length - 1] as Token
    const stop = last.offset + last.text.length
    const statement = await parseTokensAsync(stmt, end, pause)
    out.push({ statement, start: first.offset, end: stop, text: sql.slice(first.offset, stop) })
    await pause()
  }
  return out
}

/**
 * Parses a script of statements separated by `;`.
 *
 * @example
 * ```ts
 * parseStatements('create table t (ts timestamp) timestamp(ts); select * from t;').map((s) => s.kind)
 * // ['create_table', 'select']
 * ```
 * @throws SqlError 42601 with the 0-based position of the offending token; 54000 / 54001 when
 * `sql` is over one of `limits`.
 */
export function parseStatements(sql: string, limits: ParseLimits = DEFAULT_PARSE_LIMITS): Statement[] {
  return parseScript(sql, limits).map((p) => p.statement)
}

/**
 * Parses exactly one statement (a trailing `;` is allowed).
 *
 * @example
 * ```ts
 * const q = parseStatement('SELECT sym, avg(price) FROM trades SAMPLE BY 1h')
 * q.kind // 'select'
 * ```
 * @throws SqlError 42601 on a syntax error, on an empty text, or when there is more than one
 * statement; 54000 / 54001 when `sql` is over one of `limits`.
 */
export function parseStatement(sql: string, limits: ParseLimits = DEFAULT_PARSE_LIMITS): Statement {
  const chunks = lexChecked(sql, limits)
  const [first, second] = chunks
  if (first === undefined) throw syntaxError('empty statement', 0)
  if (second !== undefined) throw syntaxError('only one statement is allowed here', (second.tokens[0] as Token).offset)
  return parseTokens(first.tokens, first.end)
}

/**
 * The terminals the grammar accepts at `offset` in `sql` (for completion): keyword names
 * upper-case, punctuation quoted, `identifier`, `number`, `string`, ... A word that touches the
 * cursor is the one being typed, so the answer is what may stand in its place.
 * Returns [] when the text before the cursor does not parse or is over the default limits.
 */
export function expectedTokensAt(sql: string, offset: number): string[] {
  let tokens: Token[]
  try {
    const before = sql.slice(0, offset)
    checkLength(before, DEFAULT_PARSE_LIMITS)
    tokens = tokenize(before)
    checkTokens(tokens, DEFAULT_PARSE_LIMITS)
  } catch {
    return []
  }
  const last = tokens[tokens.length - 1]
  if (last !== undefined && last.offset + last.text.length === offset && /\w$/.test(last.text)) tokens.pop()
  let start = 0
  tokens.forEach((t, i) => { if (t.type === 'op' && t.text === ';') start = i + 1 })
  try {
    const { parser, failed } = run(tokens.slice(start))
    const column = parser.table[parser.current]
    return failed !== undefined || column === undefined ? [] : expectedTerminals(column)
  } catch {
    return []
  }
}

/**
 * Every derivation of a single statement (diagnostics: the grammar is meant to give exactly
 * one; the ambiguity test asserts it).
 */
export function allParses(sql: string): Statement[] {
  const chunks = lexChecked(sql, DEFAULT_PARSE_LIMITS)
  const first = chunks[0]
  if (first === undefined) return []
  const { parser, failed } = run(first.tokens)
  return failed === undefined ? (parser.results as Statement[]).map((r) => finishAst(r)) : []
}
