/**
 * The access-control catalog: users, service accounts, groups, grants and who may assume which
 * service account. Plain state with the lookups and changes statements make; the statement
 * executor checks the rules (names, existence, the grant option) before it changes anything,
 * and the owner persists a snapshot after every change ({@link AclCatalog.snapshot}).
 */
import type { Account, Entity, Group } from './principals.js'
import { keyOf } from './principals.js'
import type { Grant } from './grants.js'
import type { PasswordVerifier } from './access-control.js'
import type { TableIntent } from './table-changes.js'

/** The persisted form of the catalog (msgpack; Buffers for verifier bytes). */
export interface AclSnapshot {
  readonly version: 1
  readonly entities: readonly Entity[]
  /** grants by principal key (also of principals that do not exist yet) */
  readonly grants: readonly [string, readonly Grant[]][]
  /** ASSUME SERVICE ACCOUNT grants: principal key → [service account key, grant option][] */
  readonly assume: readonly [string, readonly [string, boolean][]][]
  /** grant changes waiting for their table change (table-changes.ts); absent in older files */
  readonly intents?: readonly TableIntent[]
}

/** Users, service accounts, groups and their grants. */
export class AclCatalog {
  /** by key (lower-case name) */
  readonly entities = new Map<string, Entity>()
  /** grants by principal key; a key without an entity holds grants waiting for it to appear */
  readonly grants = new Map<string, Grant[]>()
  /** principal key → service account key → grant option */
  readonly assume = new Map<string, Map<string, boolean>>()
  /** group key by external alias (exact text) */
  readonly aliases = new Map<string, string>()
  /** grant changes saved ahead of their table change, until settled (table-changes.ts) */
  readonly intents: TableIntent[] = []

  /** An id for a new intent. */
  nextIntentId(): number {
    return this.intents.reduce((m, i) => Math.max(m, i.id), 0) + 1
  }

  /** The entity named `name`, any kind. */
  find(name: string): Entity | undefined {
    return this.entities.get(keyOf(name))
  }

  /** The user or service account named `name`. */
  account(name: string): Account | undefined {
    const e = this.find(name)
    return e === undefined || e.kind === 'group' ? undefined : e
  }

  /** The group named `name`. */
  group(name: string): Group | undefined {
    const e = this.find(name)
    return e?.kind === 'group' ? e : undefined
  }

  addAccount(kind: Account['kind'], name: string, password: PasswordVerifier | undefined, owner?: string): Account {
    const a: Account = { kind, name, enabled: true, password, tokens: [], groups: [], ...(owner === undefined ? {} : { owner }) }
    this.entities.set(keyOf(name), a)
    return a
  }

  addGroup(name: string): Group {
    const g: Group = { kind: 'group', name, aliases: [] }
    this.entities.set(keyOf(name), g)
    return g
  }

  /** Removes an entity with its grants, memberships, aliases and ASSUME grants of or to it. */
  drop(name: string): void {
    const key = keyOf(name)
    const e = this.entities.get(key)
    if (e === undefined) return
    this.entities.delete(key)
    this.grants.delete(key)
    this.assume.delete(key)
    for (const m of this.assume.values()) m.delete(key)
    if (e.kind === 'group') {
      for (const a of e.aliases) this.aliases.delete(a)
      for (const x of this.entities.values()) if (x.kind === 'user') x.groups = x.groups.filter((g) => g !== key)
    }
  }

  /** The grants held directly by the principal `key` (a new list each change). */
  grantsOf(key: string): readonly Grant[] {
    return this.grants.get(key) ?? []
  }

  setGrants(key: string, list: Grant[]): void {
    if (list.length === 0) this.grants.delete(key)
    else this.grants.set(key, list)
  }

  /** Aliases of `group`, and the alias index, changed together. */
  addAlias(group: Group, alias: string): void {
    group.aliases.push(alias)
    this.aliases.set(alias, keyOf(group.name))
  }

  removeAlias(group: Group, alias: string): void {
    group.aliases = group.aliases.filter((a) => a !== alias)
    this.aliases.delete(alias)
  }

  /** The catalog as plain data, for persistence. */
  snapshot(): AclSnapshot {
    return {
      version: 1,
      entities: [...this.entities.values()],
      grants: [...this.grants],
      assume: [...this.assume].map(([k, m]) => [k, [...m]]),
      ...(this.intents.length === 0 ? {} : { intents: this.intents.map((i) => ({ ...i })) }),
    }
  }

  /** Replaces the catalog with a snapshot's. */
  restore(s: AclSnapshot): void {
    this.entities.clear(); this.grants.clear(); this.assume.clear(); this.aliases.clear()
    this.intents.length = 0
    for (const i of s.intents ?? []) this.intents.push({ ...i })
    for (const e of s.entities) {
      if (e.kind === 'group') {
        const g: Group = { kind: 'group', name: e.name, aliases: [...e.aliases] }
        this.entities.set(keyOf(g.name), g)
        for (const a of g.aliases) this.aliases.set(a, keyOf(g.name))
      } else {
        const p = e.password
        const a: Account = {
          kind: e.kind, name: e.name, enabled: e.enabled, tokens: e.tokens.map((t) => ({ ...t })), groups: [...e.groups],
          password: p === undefined || p === null ? undefined : { salt: Buffer.from(p.salt), iterations: p.iterations, storedKey: Buffer.from(p.storedKey), serverKey: Buffer.from(p.serverKey) },
          ...(e.owner === undefined || e.owner === null ? {} : { owner: e.owner }),
          ...(e.jwk === undefined || e.jwk === null ? {} : { jwk: { x: e.jwk.x, y: e.jwk.y } }),
        }
        this.entities.set(keyOf(a.name), a)
      }
    }
    for (const [k, list] of s.grants) this.grants.set(k, list.map((g) => ({ ...g })))
    for (const [k, list] of s.assume) this.assume.set(k, new Map(list))
  }
}
