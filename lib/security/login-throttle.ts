/**
 * Failed-login limits shared by the adapters (pgwire passwords and SCRAM, REST Basic auth): a
 * client address, or a user name, that has failed too often is refused — even with the right
 * password — until its lock-out window has passed, so password guessing runs at a few attempts
 * per window instead of thousands per second.
 *
 * Two counters per attempt. The per-address limit is the tight one: it stops a guesser at its
 * source without touching anyone else. The per-user limit is looser and catches guessing spread
 * over many addresses; because a remote attacker can trip it on purpose, an address that has
 * logged in successfully as that user before (a remembered pair) is exempt from the user's lock
 * and only bound by its own address limit, so the admin's usual machines keep working while
 * someone else hammers the admin account.
 *
 * Memory is bounded: each table (addresses, users, remembered pairs) holds at most `maxEntries`
 * entries, the least recently touched evicted first, expired entries swept as new ones arrive.
 * IPv6 addresses count by their /64 prefix (one host usually owns a whole /64) and IPv4-mapped
 * IPv6 addresses as IPv4, so rotating source addresses within one network does not reset the
 * limit. Browser-safe: no `node:*` imports; the clock is injected.
 */

/** Limits of a {@link LoginThrottle}; 0 turns a limit off. */
export interface LoginThrottleOptions {
  /** failed logins from one client address before it is locked out (`auth.login.failures.max`, default 5) */
  readonly maxFailuresPerAddress?: number
  /** failed logins for one user name, from anywhere, before it is locked out (`auth.login.user.failures.max`, default 20) */
  readonly maxFailuresPerUser?: number
  /** the counting window and the lock-out length, in milliseconds (`auth.login.lockout.ms`, default 60 000) */
  readonly lockoutMs?: number
  /** entries per table at most (addresses, users, remembered pairs), default 10 000 */
  readonly maxEntries?: number
  /**
   * attempts being checked at once beyond the failure limit (async `authenticate` hooks), per
   * address and per user; more are refused for a second, without a lock-out. Default 32
   */
  readonly maxPending?: number
  /** how long a successful (user, address) pair is remembered, default 7 days */
  readonly rememberMs?: number
  /** the clock in milliseconds, default `Date.now` */
  readonly now?: () => number
  /** called when a lock-out starts (for a log line): the address key or user name, and its length */
  readonly onLockout?: (e: LockoutEvent) => void
}

/** A lock-out that just started. */
export interface LockoutEvent {
  readonly scope: 'address' | 'user'
  /** the address as counted (IPv4 as is, IPv6 by its /64 prefix, a Unix socket as `local`) or the user name */
  readonly key: string
  readonly failures: number
  readonly lockoutMs: number
}

/** One admitted login attempt: report its outcome exactly once. */
export interface LoginAttempt {
  readonly allowed: true
  /** the password was right: nothing is counted and the (user, address) pair is remembered */
  succeeded(): void
  /** the password was wrong: the attempt counts as a failure (this may start a lock-out) */
  failed(): void
}

/**
 * A refused attempt: the client must wait `retryAfterMs`. `locked` after too many failures;
 * `busy` when too many attempts are being checked at once (no lock-out follows).
 */
export interface LoginRefusal {
  readonly allowed: false
  readonly reason: 'locked' | 'busy'
  readonly retryAfterMs: number
}

/** Default failures per address before a lock-out. */
export const DEFAULT_MAX_FAILURES_PER_ADDRESS = 5
/** Default failures per user name before a lock-out. */
export const DEFAULT_MAX_FAILURES_PER_USER = 20
/** Default window and lock-out length. */
export const DEFAULT_LOCKOUT_MS = 60_000
/** Default bound on each table. */
export const DEFAULT_MAX_ENTRIES = 10_000

/** Longest user name kept as a key; longer names share a counter with their prefix. */
const MAX_KEY_LENGTH = 128
/** Expired entries looked at (from the oldest) per new entry. */
const SWEEP = 4

interface Counter {
  failures: number
  /** attempts admitted and not yet settled */
  pending: number
  windowEnd: number
  lockedUntil: number
}

/** A bounded map whose iteration order is least recently touched first. */
class Lru<V> {
  private readonly m = new Map<string, V>()
  constructor(private readonly max: number, private readonly expired: (v: V) => boolean) {}
  get size(): number { return this.m.size }
  peek(k: string): V | undefined { return this.m.get(k) }
  touch(k: string, make: () => V): V {
    let v = this.m.get(k)
    if (v !== undefined) { this.m.delete(k); this.m.set(k, v); return v }
    this.sweep()
    v = make()
    this.m.set(k, v)
    while (this.m.size > this.max) this.m.delete(this.m.keys().next().value!)
    return v
  }
  delete(k: string): void { this.m.delete(k) }
  private sweep(): void {
    let n = 0
    for (const [k, v] of this.m) {
      if (n++ >= SWEEP || !this.expired(v)) return
      this.m.delete(k)
    }
  }
}

/**
 * Counts failed logins per client address and per user name and refuses attempts while either
 * is locked out. One instance may be shared by several adapters, so switching protocol does not
 * buy an attacker more guesses.
 *
 * @example
 * ```ts
 * const throttle = new LoginThrottle({ maxFailuresPerAddress: 5, lockoutMs: 60_000 })
 * const a = throttle.begin(user, socket.remoteAddress)
 * if (!a.allowed) return refuse(`too many failed login attempts, retry in ${Math.ceil(a.retryAfterMs / 1000)} s`)
 * if (await checkPassword()) a.succeeded(); else a.failed()
 * ```
 */
export class LoginThrottle {
  private readonly maxAddress: number
  private readonly maxUser: number
  private readonly lockoutMs: number
  private readonly rememberMs: number
  private readonly maxPending: number
  private readonly now: () => number
  private readonly onLockout: ((e: LockoutEvent) => void) | undefined
  private readonly addresses: Lru<Counter>
  private readonly users: Lru<Counter>
  private readonly pairs: Lru<number>

  constructor(o: LoginThrottleOptions = {}) {
    this.maxAddress = o.maxFailuresPerAddress ?? DEFAULT_MAX_FAILURES_PER_ADDRESS
    this.maxUser = o.maxFailuresPerUser ?? DEFAULT_MAX_FAILURES_PER_USER
    this.lockoutMs = o.lockoutMs ?? DEFAULT_LOCKOUT_MS
    this.rememberMs = o.rememberMs ?? 7 * 24 * 3600_000
    this.maxPending = o.maxPending ?? 32
    this.now = o.now ?? Date.now
    this.onLockout = o.onLockout
    const max = Math.max(1, o.maxEntries ?? DEFAULT_MAX_ENTRIES)
    const idle = (c: Counter): boolean => { const t = this.now(); return c.pending === 0 && c.lockedUntil <= t && c.windowEnd <= t }
    this.addresses = new Lru(max, idle)
    this.users = new Lru(max, idle)
    this.pairs = new Lru(max, (until) => until <= this.now())
  }

  /** Entries held, per table (to check the memory bound). */
  get size(): { readonly addresses: number; readonly users: number; readonly pairs: number } {
    return { addresses: this.addresses.size, users: this.users.size, pairs: this.pairs.size }
  }

  /**
   * Milliseconds until `user` may try again from `address` (0 when it may now). Counts nothing:
   * adapters call it before asking for a password, to refuse a locked-out client at once.
   */
  retryAfter(user: string, address: string | undefined): number {
    const t = this.now()
    const a = this.addresses.peek(addressKey(address))
    const u = this.userLockApplies(user, address, t) ? this.users.peek(userKey(user)) : undefined
    return Math.max(0, (a?.lockedUntil ?? 0) - t, (u?.lockedUntil ?? 0) - t)
  }

  /**
   * Admits one attempt before its password is checked, or refuses it. Attempts still being
   * checked count against the limit too (up to {@link LoginThrottleOptions.maxPending} beyond
   * it), so a burst of concurrent guesses cannot all get past the limit before the first one
   * fails, while a client opening a pool of connections at once is not locked out: only failed
   * attempts lock.
   */
  begin(user: string, address: string | undefined): LoginAttempt | LoginRefusal {
    const t = this.now()
    const wait = this.retryAfter(user, address)
    if (wait > 0) return { allowed: false, reason: 'locked', retryAfterMs: wait }
    const userCounts = this.userLockApplies(user, address, t)
    const a = this.maxAddress > 0 ? this.counter(this.addresses, addressKey(address), t) : undefined
    const u = this.maxUser > 0 ? this.counter(this.users, userKey(user), t) : undefined
    const crowded = (a !== undefined && a.failures + a.pending >= this.maxAddress + this.maxPending) ||
      (userCounts && u !== undefined && u.failures + u.pending >= this.maxUser + this.maxPending)
    if (crowded) return { allowed: false, reason: 'busy', retryAfterMs: 1000 }
    if (a !== undefined) a.pending++
    if (u !== undefined) u.pending++
    let settled = false
    const settle = (): boolean => {
      if (settled) return false
      settled = true
      if (a !== undefined) a.pending--
      if (u !== undefined) u.pending--
      return true
    }
    return {
      allowed: true,
      succeeded: () => {
        if (settle()) this.rememberPair(user, address)
      },
      failed: () => {
        if (!settle()) return
        const now = this.now()
        if (a !== undefined && this.fail(a, this.maxAddress, now)) this.onLockout?.({ scope: 'address', key: addressKey(address), failures: a.failures, lockoutMs: this.lockoutMs })
        if (u !== undefined && this.fail(u, this.maxUser, now, userCounts)) this.onLockout?.({ scope: 'user', key: userKey(user), failures: u.failures, lockoutMs: this.lockoutMs })
      },
    }
  }

  /**
   * Counts one failure; locks the counter when it reaches `max` (a user's only where its lock
   * applies). True when this failure started a lock-out.
   */
  private fail(c: Counter, max: number, now: number, locks = true): boolean {
    if (c.windowEnd <= now && c.lockedUntil <= now) { c.failures = 0; c.windowEnd = now + this.lockoutMs }
    c.failures++
    if (!locks || c.failures < max) return false
    const started = c.lockedUntil <= now
    c.lockedUntil = Math.max(c.lockedUntil, now + this.lockoutMs)
    return started
  }

  private rememberPair(user: string, address: string | undefined): void {
    const k = pairKey(user, address)
    this.pairs.delete(k)
    this.pairs.touch(k, () => this.now() + this.rememberMs)
  }

  /** The user's lock binds this address unless the pair logged in successfully before. */
  private userLockApplies(user: string, address: string | undefined, t: number): boolean {
    const until = this.pairs.peek(pairKey(user, address))
    return until === undefined || until <= t
  }

  private counter(table: Lru<Counter>, key: string, t: number): Counter {
    const c = table.touch(key, () => ({ failures: 0, pending: 0, windowEnd: 0, lockedUntil: 0 }))
    if (c.windowEnd <= t && c.lockedUntil <= t) { c.failures = 0; c.windowEnd = t + this.lockoutMs }
    return c
  }
}

function userKey(user: string): string {
  return user.length > MAX_KEY_LENGTH ? user.slice(0, MAX_KEY_LENGTH) : user
}

function pairKey(user: string, address: string | undefined): string {
  return `${addressKey(address)} ${userKey(user)}`
}

/**
 * The counting key of a client address: IPv4 as is (also when IPv4-mapped, `::ffff:a.b.c.d`),
 * IPv6 by its /64 prefix, anything else (a Unix socket: undefined) as `local`.
 */
export function addressKey(address: string | undefined): string {
  if (address === undefined || address === '') return 'local'
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped !== null) return mapped[1]!
  if (!address.includes(':')) return address
  const zone = address.indexOf('%')
  const a = (zone < 0 ? address : address.slice(0, zone)).toLowerCase()
  const [head, tail] = a.split('::') as [string, string | undefined]
  const left = head === '' ? [] : head.split(':')
  const right = tail === undefined || tail === '' ? [] : tail.split(':')
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right]
  return groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':') + '::/64'
}
