/**
 * AST builders for access-control statements (grammar/acl.ne): permission names from their
 * words, ALTER USER changes, GRANT/REVOKE targets.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { syntaxError } from '../../errors.js'
import type { AclName, AclOn, AclPermission, AclTableTarget, AlterAccountChange } from '../ast-acl.js'
import type { Token } from '../lexer.js'
import type { Name } from './tokens.js'
import { valueText } from './tokens.js'
import { type Seq, deferred, toArray } from './seq.js'

/** A permission from its words (`CREATE TABLE`), upper-cased, one space apart; checked when it runs. */
export function permission(words: Seq<Token>): AclPermission {
  return deferred(() => {
    const toks = toArray(words)
    return { name: toks.map((t) => t.text.toUpperCase()).join(' '), pos: toks[0]!.offset }
  })
}

/** `WITH PASSWORD 'p'` or `WITH NO PASSWORD` (null password). */
export function password(tok: Token | null): { password: string | undefined; pos: number } {
  return tok === null ? { password: undefined, pos: -1 } : { password: valueText(tok), pos: tok.offset }
}

/** `CREATE TOKEN TYPE REST WITH TTL '1d' [REFRESH]` or `CREATE TOKEN TYPE JWK`. */
export function createToken(type: Name, ttl: Token | null, refresh: boolean): AlterAccountChange {
  // checked after the parse: the rule also completes before its optional TTL is read
  return deferred(() => {
    const t = tokenType(type)
    if (t === 'REST' && ttl === null) throw syntaxError(`unexpected end of statement, expected WITH TTL`, type.pos + type.name.length)
    return { change: 'create_token', tokenType: t, ttl: ttl === null ? '' : valueText(ttl), ttlPos: ttl?.offset ?? type.pos, refresh }
  })
}

/** `DROP TOKEN TYPE REST ['token']` or `DROP TOKEN TYPE JWK`. */
export function dropToken(type: Name, token: Token | null): AlterAccountChange {
  return deferred(() => ({ change: 'drop_token', tokenType: tokenType(type), ...(token === null ? {} : { token: valueText(token) }) }))
}

function tokenType(n: Name): 'REST' | 'JWK' {
  const t = n.name.toUpperCase()
  if (t !== 'REST' && t !== 'JWK') throw syntaxError(`unexpected '${n.name}', expected REST or JWK`, n.pos)
  return t
}

/** `ON t[(c, ...)], ...`. */
export function onTables(list: Seq<AclTableTarget>): AclOn {
  return deferred(() => ({ kind: 'tables', tables: toArray(list) }))
}

/** One table of a target, with its columns. */
export function tableTarget(table: Name, columns: Seq<Name> | null): AclTableTarget {
  return columns === null ? { table: aclName(table) } : { table: aclName(table), columns: deferred(() => toArray(columns).map(aclName)) }
}

/** `t(*)` or `t(* EXCLUDE (c, ...))`; expanded against the table's columns when the statement runs. */
export function tableWildcard(table: Name, star: Token, exclude: Seq<Name> | null): AclTableTarget {
  return { table: aclName(table), wildcard: deferred(() => ({ pos: star.offset, exclude: toArray(exclude).map(aclName) })) as unknown as AclTableTarget['wildcard'] }
}

/** A name with its position. */
export function aclName(n: Name): AclName {
  return { name: n.name, pos: n.pos }
}
