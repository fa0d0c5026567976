/**
 * Maps the (process id, secret key) pairs handed out in BackendKeyData to live connections, so
 * a CancelRequest arriving on another socket can cancel the statement running on its connection.
 */
import { randomInt } from 'node:crypto'

/** Something whose running statement can be cancelled. */
export interface Cancellable {
  cancel(): void
}

/** A registry shared by the connections of one server. */
export class CancelRegistry {
  private readonly entries = new Map<number, { secret: number; target: Cancellable }>()
  private nextPid = 1

  /** Registers `target`; returns its key pair. */
  register(target: Cancellable): { pid: number; secret: number } {
    const pid = this.nextPid
    this.nextPid = this.nextPid >= 0x7fffffff ? 1 : this.nextPid + 1
    const secret = randomInt(-0x80000000, 0x7fffffff)
    this.entries.set(pid, { secret, target })
    return { pid, secret }
  }

  /** Forgets `pid` (its connection closed). */
  unregister(pid: number): void {
    this.entries.delete(pid)
  }

  /** Cancels the statement of `pid` when `secret` matches; true when it did. */
  cancel(pid: number, secret: number): boolean {
    const e = this.entries.get(pid)
    if (e === undefined || e.secret !== secret) return false
    e.target.cancel()
    return true
  }

  /** Live connections. */
  get size(): number {
    return this.entries.size
  }
}
