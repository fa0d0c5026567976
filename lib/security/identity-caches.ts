/**
 * Caches of external identities that live outside the engine (an OIDC guard's tokens →
 * identities), registered here so `SELECT flush_identity_cache(['<subject>'])` can empty them at
 * once. The engine knows only this registry, never the guard.
 */

/** Drops cached identities (all when `subject` is undefined); returns how many. */
export type IdentityFlusher = (subject: string | undefined) => number

/** The identity caches of one database. */
export class IdentityCaches {
  private readonly flushers = new Set<IdentityFlusher>()

  /** Registers a cache; the returned function unregisters it. */
  register(f: IdentityFlusher): () => void {
    this.flushers.add(f)
    return () => { this.flushers.delete(f) }
  }

  /** Empties every registered cache (or one subject's entries); returns the entries dropped. */
  flush(subject?: string): number {
    let n = 0
    for (const f of this.flushers) n += f(subject)
    return n
  }
}
