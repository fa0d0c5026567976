// The parser's template cache never changes an AST: every query of the parser corpus and of the
// SQL test files is parsed by the grammar, kept as a template, and then texts of the same shape
// with other literals (other lengths, quotes, digits) come from the template; each must equal
// the grammar's own parse of that text, positions included.
import t from 'tap'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { tokenize } from '../../../lib/sql/lexer.js'
import type { Token } from '../../../lib/sql/lexer.js'
import { parseByGrammar, parseStatement } from '../../../lib/sql/parse.js'
import { TemplateCache, shapeOf } from '../../../lib/sql/parse-templates.js'
import { CORPUS } from './corpus.js'
import { Rng } from '../../adapters/random-vectors.js'

const root = fileURLToPath(new URL('../../sql/', import.meta.url))

/** The query statements of the SQL test files. */
function sltQueries(): string[] {
  const out: string[] = []
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name)
      if (e.isDirectory()) walk(p)
      else if (e.name.endsWith('.test')) {
        for (const block of readFileSync(p, 'utf8').split(/\n\s*\n/)) {
          const lines = block.split('\n').filter((l) => !l.startsWith('#'))
          if (!/^(query|statement ok)/.test(lines[0] ?? '')) continue
          const sql = lines.slice(1, lines.indexOf('----') < 0 ? undefined : lines.indexOf('----')).join('\n').trim()
          if (/^(select|with|explain|\()/i.test(sql) && !sql.includes(';')) out.push(sql)
        }
      }
    }
  }
  walk(root)
  return out
}

/** `sql` with its literals replaced by random ones of the same token type (and integer size class). */
function rewrite(sql: string, r: Rng): string | undefined {
  let tokens: Token[]
  try { tokens = tokenize(sql) } catch { return undefined }
  let out = ''
  let at = 0
  for (const tok of tokens) {
    let text: string | undefined
    if (tok.type === 'string') text = "'" + r.pick(['', 'x', "it''s", '2024-01-01', 'host_12345', 'a,b', '\u00e9\u00e9', 'ab'.repeat(r.int(20))]) + "'"
    else if (tok.type === 'integer') text = Number(tok.text.replace(/_/g, '')) > 2147483647 ? String(3_000_000_000 + r.int(1e6)) : String(r.int(r.pick([10, 1000, 2147483647])))
    else if (tok.type === 'float') text = String(r.int(1000)) + '.' + String(r.int(1000))
    else if (tok.type === 'long') text = String(r.int(1e9)) + 'L'
    if (text === undefined) continue
    out += sql.slice(at, tok.offset) + ' '.repeat(r.int(3)) + text
    at = tok.offset + tok.text.length
  }
  return out + sql.slice(at)
}

/** The text of tokens laid out at their offsets. */
function textOf(tokens: readonly Token[]): string {
  let out = ''
  for (const k of tokens) out = out.padEnd(k.offset, ' ') + k.text
  return out
}

t.test('template copies equal the grammar parse of every rewritten query', async (t) => {
  const r = new Rng(16)
  const queries = [...CORPUS, ...sltQueries()]
  let templates = 0
  let hits = 0
  for (const sql of queries) {
    let tokens: Token[]
    let stmt
    try {
      tokens = tokenize(sql)
      stmt = parseByGrammar(sql)
    } catch { continue }
    if (stmt.length !== 1) continue
    const shape = shapeOf(tokens)
    if (shape === undefined) continue
    const cache = new TemplateCache()
    cache.remember(shape, tokens, stmt[0]!, (other) => parseByGrammar(textOf(other))[0]!)
    let used = false
    for (let k = 0; k < 4; k++) {
      const other = rewrite(sql, r)
      if (other === undefined) continue
      const otherTokens = tokenize(other)
      const otherShape = shapeOf(otherTokens)
      if (otherShape !== shape) continue
      const copy = cache.lookup(otherShape, otherTokens)
      if (copy === undefined) continue
      used = true
      hits++
      let want: unknown
      try { want = parseByGrammar(other)[0] } catch (e) { want = (e as Error).message }
      if (JSON.stringify(copy) !== JSON.stringify(want)) {
        t.fail(`${other}\n  template: ${JSON.stringify(copy).slice(0, 400)}\n  grammar:  ${JSON.stringify(want).slice(0, 400)}`)
        return
      }
    }
    if (used) templates++
  }
  t.ok(templates > 200, `${templates} shapes served from templates`)
  t.ok(hits > 800, `${hits} copies equal the grammar's parse`)
})

t.test('the parser serves a second text of a shape from the template, and DDL never', async (t) => {
  const a = "select ts, max(usage_user) from cpu where hostname in ('host_1', 'host_2') and ts >= '2016-01-01 05:00:00' sample by 1m"
  const b = "select ts, max(usage_user) from cpu where hostname in ('host_17', 'host_225') and ts >= '2016-01-02 07:00:00' sample by 1m"
  parseStatement(a)
  t.same(parseStatement(b), parseByGrammar(b)[0])
  const ddl = "create table x (a int, s string) timestamp(ts) partition by day"
  t.same(parseStatement(ddl), parseByGrammar(ddl)[0])
  const c = "insert into x values (1, 'a')"
  parseStatement(c)
  t.same(parseStatement("insert into x values (22, 'bbb')"), parseByGrammar("insert into x values (22, 'bbb')")[0])
})
