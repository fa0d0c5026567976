/**
 * The parser's template cache: statements that differ only in their literals (TSBS sends the same
 * query shape with other hosts and time windows each time) are parsed by the Earley parser once
 * per shape; later texts of that shape get a copy of the first one's AST with their own literal
 * nodes and positions, without running the grammar (~10 µs per token).
 *
 * A shape is the statement's token types and texts with each plain literal (string, integer,
 * long, float) replaced by its literal type (`int` and `long` integers are different shapes).
 * The grammar never looks at a literal's text, only at its token type, so two texts of one shape
 * parse along the same rules, and a literal's text reaches the AST only through its literal node
 * (`build/expr.ts`: `stringLiteral`, `numberLiteral`). A template is kept only when that holds
 * for the statement at hand — every literal token's node is found at its offset and equals what
 * the builder makes of the token, every position in the AST is a token's offset (so it can be
 * moved to the new text's), and the grammar's parse of a variant with every literal changed
 * equals the template's copy — else the shape is marked as parsed by the grammar every time.
 * Only queries (SELECT, set operations, WITH, and EXPLAIN of them) are cached.
 * test/unit/sql/parse-templates.test.ts compares both ways over the SQL test corpus.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import type { Statement } from './ast.js'
import type { Token } from './lexer.js'
import { numberLiteral, stringLiteral } from './build/expr.js'

/** Shapes remembered (least recently added dropped first). */
export const TEMPLATE_CACHE_SIZE = 512
/** Statements with more tokens than this are parsed as they are (long lists have their own fast path). */
export const TEMPLATE_MAX_TOKENS = 400

const LITERAL_TOKENS = new Set(['string', 'integer', 'long', 'float'])
const QUERY_KINDS = new Set(['select', 'setop', 'with'])
const POS_KEY = /(?:^pos|Pos)$/

/** The literal node a literal token makes. */
function literalOf(tok: Token): { kind: 'literal'; pos: number; type: string } {
  return (tok.type === 'string' ? stringLiteral(tok) : numberLiteral(tok)) as { kind: 'literal'; pos: number; type: string }
}

/** The shape of a statement's tokens, or undefined when it has no literal or is too long. */
export function shapeOf(tokens: readonly Token[]): string | undefined {
  if (tokens.length > TEMPLATE_MAX_TOKENS) return undefined
  let key = ''
  let literals = 0
  for (const t of tokens) {
    if (LITERAL_TOKENS.has(t.type!)) {
      key += '\u0000' + (t.type === 'integer' ? literalOf(t).type : t.type)
      literals++
    } else {
      key += '\u0000' + t.type + '\u0001' + t.text
    }
  }
  return literals === 0 ? undefined : key
}

interface Template {
  /** the statement as parsed (never handed out) */
  readonly stmt: Statement
  /** the offsets of its tokens, in order */
  readonly offsets: readonly number[]
  /** offsets of its literal tokens */
  readonly literalAt: ReadonlySet<number>
}

/**
 * A copy of `t.stmt` for `tokens` (the same shape): positions moved token for token, literal
 * nodes rebuilt from the new tokens. Undefined when something does not map (never for a
 * checked template).
 */
function instantiate(t: Template, tokens: readonly Token[]): Statement | undefined {
  const moved = new Map<number, Token>()
  for (let i = 0; i < tokens.length; i++) moved.set(t.offsets[i]!, tokens[i]!)
  let ok = true
  const copy = (x: unknown): unknown => {
    if (x === null || typeof x !== 'object') return x
    if (Array.isArray(x)) return x.map(copy)
    const node = x as Record<string, unknown>
    if (node['kind'] === 'literal' && typeof node['pos'] === 'number' && t.literalAt.has(node['pos'])) {
      const tok = moved.get(node['pos'])
      if (tok === undefined) { ok = false; return x }
      return literalOf(tok)
    }
    const out: Record<string, unknown> = {}
    for (const k in node) {
      const v = node[k]
      if (typeof v === 'number' && POS_KEY.test(k) && v >= 0) {
        const tok = moved.get(v)
        if (tok === undefined) ok = false
        out[k] = tok === undefined ? v : tok.offset
      } else {
        out[k] = copy(v)
      }
    }
    return out
  }
  const stmt = copy(t.stmt) as Statement
  return ok ? stmt : undefined
}

/** True when the statement is a query (or EXPLAIN of one). */
function isQuery(stmt: Statement): boolean {
  return QUERY_KINDS.has(stmt.kind) || (stmt.kind === 'explain' && QUERY_KINDS.has(stmt.statement.kind))
}

/** True when every literal token has its own literal node and every position is a token's offset. */
function checkShape(stmt: Statement, tokens: readonly Token[]): boolean {
  const offsets = new Set(tokens.map((t) => t.offset))
  const literals = new Map<number, Token>()
  for (const t of tokens) if (LITERAL_TOKENS.has(t.type!)) literals.set(t.offset, t)
  const seen = new Set<number>()
  let ok = true
  const walk = (x: unknown): void => {
    if (!ok || x === null || typeof x !== 'object') return
    if (Array.isArray(x)) { for (const y of x) walk(y); return }
    const node = x as Record<string, unknown>
    for (const k in node) {
      const v = node[k]
      if (typeof v === 'number' && POS_KEY.test(k) && v >= 0 && !offsets.has(v)) { ok = false; return }
    }
    if (node['kind'] === 'literal' && typeof node['pos'] === 'number' && literals.has(node['pos'])) {
      if (JSON.stringify(node) !== JSON.stringify(literalOf(literals.get(node['pos'])!))) { ok = false; return }
      seen.add(node['pos'])
      return
    }
    for (const k in node) walk(node[k])
  }
  walk(stmt)
  return ok && seen.size === literals.size
}

/** `tokens` with every literal changed (longer strings, other digits), same shape. */
function variant(tokens: readonly Token[]): Token[] {
  let shift = 0
  return tokens.map((t) => {
    const offset = t.offset + shift
    if (!LITERAL_TOKENS.has(t.type!)) return { ...t, offset }
    let text = t.text
    if (t.type === 'string') text = text.slice(0, -1) + "x'"
    else if (t.type === 'integer') text = text === '0' ? '1' : text.replace(/\d$/, (d) => String((Number(d) + 1) % 10))
    else if (t.type === 'long') text = '9' + text
    else text = text.replace(/\d/, (d) => String((Number(d) + 1) % 10))
    shift += text.length - t.text.length
    return { ...t, text, value: text, offset }
  })
}

/** Parsed statement shapes; module-wide, since a parse depends on nothing but the text. */
export class TemplateCache {
  private readonly templates = new Map<string, Template | null>()

  constructor(private readonly size = TEMPLATE_CACHE_SIZE) {}

  /** The statement of `tokens` from a template of its shape, or undefined (parse it and {@link remember}). */
  lookup(shape: string, tokens: readonly Token[]): Statement | undefined {
    const t = this.templates.get(shape)
    return t === undefined || t === null ? undefined : instantiate(t, tokens)
  }

  /** True when the shape was seen (with a template, or marked as needing the grammar every time). */
  known(shape: string): boolean {
    return this.templates.has(shape)
  }

  /**
   * Keeps `stmt` (the grammar's parse of `tokens`) as its shape's template when the checks hold;
   * `parse` parses other tokens of the shape with the grammar, for the variant check.
   */
  remember(shape: string, tokens: readonly Token[], stmt: Statement, parse: (tokens: Token[]) => Statement): void {
    if (this.templates.size >= this.size) this.templates.delete(this.templates.keys().next().value!)
    let template: Template | null = null
    if (isQuery(stmt) && checkShape(stmt, tokens)) {
      const t: Template = {
        stmt: instantiate({ stmt, offsets: tokens.map((k) => k.offset), literalAt: new Set(tokens.filter((k) => LITERAL_TOKENS.has(k.type!)).map((k) => k.offset)) }, tokens)!,
        offsets: tokens.map((k) => k.offset),
        literalAt: new Set(tokens.filter((k) => LITERAL_TOKENS.has(k.type!)).map((k) => k.offset)),
      }
      const other = variant(tokens)
      try {
        if (shapeOf(other) === shape && JSON.stringify(parse(other)) === JSON.stringify(instantiate(t, other))) template = t
      } catch {
        template = null // the variant does not parse the same way: leave this shape to the grammar
      }
    }
    this.templates.set(shape, template)
  }
}
