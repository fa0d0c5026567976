/**
 * The guard's memory of tokens it has seen, keyed by a SHA-256 of the token (never the token
 * itself): identities for `acl.oidc.cache.ttl` (never beyond the token's own expiry), refusals
 * for a short while (a flood of one bad token costs one provider call), and the calls in
 * flight (concurrent requests with the same unknown token wait for one call).
 *
 * Both maps are bounded in entries and bytes; the oldest entries go first, so random tokens
 * cannot exhaust memory.
 */
import { createHash } from 'node:crypto'

/** Who a token belongs to. */
export interface Identity {
  /** the principal name (`acl.oidc.sub.claim`) */
  readonly subject: string
  /** the display name (`name`, `preferred_username`), for logs and the console */
  readonly name: string | undefined
  /** the provider's groups (`acl.oidc.groups.claim`) */
  readonly groups: readonly string[]
  /** the token's expiry in ms since the epoch, when known */
  readonly expiresAt: number | undefined
}

interface Entry<V> { readonly value: V; readonly until: number; readonly bytes: number }

/** A map with a deadline per entry, bounded in entries and bytes (oldest first out). */
class BoundedTtlMap<V> {
  private readonly map = new Map<string, Entry<V>>()
  private bytes = 0

  constructor(private readonly maxEntries: number, private readonly maxBytes: number) {}

  get(key: string, now: number): V | undefined {
    const e = this.map.get(key)
    if (e === undefined) return undefined
    if (e.until <= now) { this.delete(key); return undefined }
    return e.value
  }

  set(key: string, value: V, until: number, bytes: number): void {
    if (this.maxEntries === 0 || bytes > this.maxBytes) return
    this.delete(key)
    this.map.set(key, { value, until, bytes })
    this.bytes += bytes
    while (this.map.size > this.maxEntries || this.bytes > this.maxBytes) {
      const oldest = this.map.keys().next().value as string
      this.delete(oldest)
    }
  }

  delete(key: string): void {
    const e = this.map.get(key)
    if (e === undefined) return
    this.map.delete(key)
    this.bytes -= e.bytes
  }

  /** Removes entries whose value matches; returns how many. */
  deleteWhere(match: (v: V) => boolean): number {
    let n = 0
    for (const [k, e] of this.map) if (match(e.value)) { this.delete(k); n++ }
    return n
  }

  get size(): number { return this.map.size }
  get byteSize(): number { return this.bytes }
}

/** Limits of an {@link IdentityCache}. */
export interface IdentityCacheLimits {
  readonly ttlMs: number
  readonly negativeTtlMs: number
  readonly maxEntries: number
  readonly maxBytes: number
}

/** Counters, for tests, benchmarks and operators. */
export interface IdentityCacheStats {
  /** identities cached now */
  readonly entries: number
  readonly bytes: number
  /** refusals remembered now */
  readonly refusals: number
  /** validations started (provider calls in user-info mode) */
  readonly validations: number
  /** answers from the cache (positive or negative) */
  readonly hits: number
  /** requests that waited for another request's validation */
  readonly joined: number
}

/** The refusal remembered for a token. */
export interface Refusal { readonly message: string }

/** Tokens → identities, with single flight and negative caching. */
export class IdentityCache {
  private readonly identities: BoundedTtlMap<Identity>
  private readonly refusals: BoundedTtlMap<Refusal>
  private readonly inFlight = new Map<string, Promise<Identity>>()
  private counts = { validations: 0, hits: 0, joined: 0 }

  constructor(private readonly limits: IdentityCacheLimits, private readonly now: () => number) {
    this.identities = new BoundedTtlMap(limits.maxEntries, limits.maxBytes)
    // refusals are small and fixed-size: the same entry bound, a quarter of the bytes
    this.refusals = new BoundedTtlMap(limits.maxEntries, Math.max(1024, limits.maxBytes / 4))
  }

  /**
   * The identity of `token`: cached, or from `validate` (called once however many requests
   * ask at the same time). A refusal (an error with `failure: 'unauthenticated'`) is remembered
   * for the negative TTL; an unavailable provider is not remembered.
   */
  async resolve(token: string, validate: () => Promise<Identity>): Promise<Identity> {
    const key = createHash('sha256').update(token, 'utf8').digest('base64url')
    const now = this.now()
    const hit = this.identities.get(key, now)
    if (hit !== undefined) { this.counts.hits++; return hit }
    const refused = this.refusals.get(key, now)
    if (refused !== undefined) { this.counts.hits++; throw Object.assign(new Error(refused.message), { failure: 'unauthenticated', cached: true }) }
    const pending = this.inFlight.get(key)
    if (pending !== undefined) { this.counts.joined++; return pending }
    this.counts.validations++
    const p = validate().then(
      (id) => { this.remember(key, id); return id },
      (e: unknown) => {
        if ((e as { failure?: string }).failure === 'unauthenticated' && this.limits.negativeTtlMs > 0) {
          this.refusals.set(key, { message: (e as Error).message }, this.now() + this.limits.negativeTtlMs, 64 + key.length + (e as Error).message.length)
        }
        throw e
      },
    ).finally(() => this.inFlight.delete(key))
    this.inFlight.set(key, p)
    return p
  }

  private remember(key: string, id: Identity): void {
    if (this.limits.ttlMs === 0) return
    const now = this.now()
    const until = Math.min(now + this.limits.ttlMs, id.expiresAt ?? Number.POSITIVE_INFINITY)
    if (until <= now) return
    const bytes = 128 + key.length + 2 * (id.subject.length + (id.name?.length ?? 0) + id.groups.reduce((n, g) => n + g.length + 8, 0))
    this.identities.set(key, id, until, bytes)
  }

  /** Drops cached identities: all, or those of one subject. Returns how many. */
  invalidate(subject?: string): number {
    const n = this.identities.deleteWhere((id) => subject === undefined || id.subject === subject)
    if (subject === undefined) this.refusals.deleteWhere(() => true)
    return n
  }

  /** Counters and sizes. */
  stats(): IdentityCacheStats {
    return { entries: this.identities.size, bytes: this.identities.byteSize, refusals: this.refusals.size, ...this.counts }
  }
}
