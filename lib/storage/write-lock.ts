/**
 * A table's write lock: writers (INSERT, `db.append`, COMMIT) share it; a statement that
 * rewrites the table from a snapshot of its rows (UPDATE) holds it alone, so no append lands
 * between its read and its write. A waiting exclusive holder goes before writers that come after
 * it, so a steady stream of INSERTs cannot starve an UPDATE.
 */

/** Gives the lock back. */
export type Release = () => void

interface Waiter {
  readonly exclusive: boolean
  readonly grant: () => void
}

/** Shared/exclusive lock, granted in arrival order. */
export class WriteLock {
  private shared = 0
  private held = false
  private readonly queue: Waiter[] = []

  /** The shared lock now, or undefined when it must be waited for ({@link WriteLock.share}). */
  tryShare(): Release | undefined {
    if (this.held || this.queue.length > 0) return undefined
    this.shared++
    return this.releaser(false)
  }

  /** Waits for the shared lock. */
  async share(): Promise<Release> {
    return this.tryShare() ?? new Promise((resolve) => { this.queue.push({ exclusive: false, grant: () => resolve(this.releaser(false)) }) })
  }

  /** Waits for the lock alone: every shared holder has released and nobody else holds it. */
  async exclusive(): Promise<Release> {
    if (!this.held && this.shared === 0 && this.queue.length === 0) {
      this.held = true
      return this.releaser(true)
    }
    return new Promise((resolve) => { this.queue.push({ exclusive: true, grant: () => resolve(this.releaser(true)) }) })
  }

  /** True while someone holds the lock alone. */
  get heldAlone(): boolean {
    return this.held
  }

  /** True while nobody holds or waits for the lock. */
  get idle(): boolean {
    return !this.held && this.shared === 0 && this.queue.length === 0
  }

  private releaser(exclusive: boolean): Release {
    let done = false
    return () => {
      if (done) return
      done = true
      if (exclusive) this.held = false
      else this.shared--
      this.wake()
    }
  }

  /** Grants the lock to the waiters at the head of the queue that can have it now. */
  private wake(): void {
    while (this.queue.length > 0 && !this.held) {
      const next = this.queue[0]!
      if (next.exclusive) {
        if (this.shared > 0) return
        this.queue.shift()
        this.held = true
        next.grant()
        return
      }
      this.queue.shift()
      this.shared++
      next.grant()
    }
  }
}
