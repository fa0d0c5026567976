/**
 * Connection slots per client address: a server's connection limit bounds how many sockets it
 * holds, this bounds how many of them one address may hold, so a single client cannot take every
 * slot. Addresses count as the login throttle counts them ({@link addressKey}: IPv4, IPv6 by its
 * /64, IPv4-mapped IPv6 as IPv4). Used by the REST and pgwire adapters alike.
 */
import { SqlError, SqlState } from '../errors.js'
import { addressKey } from './login-throttle.js'

/** Counts open connections per client address against a limit. */
export class AddressSlots {
  private readonly open = new Map<string, number>()

  /** @param limit connections one address may hold at once; 0 (or Infinity) = no limit */
  constructor(readonly limit: number) {
    if (!(limit >= 0)) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, `the per-address connection limit must be 0 or more, got ${limit}`)
  }

  /**
   * Takes a slot for a connection from `address`: a function that gives it back (call it once,
   * when the connection closes), or undefined when the address already holds `limit`.
   */
  take(address: string | undefined): (() => void) | undefined {
    if (this.limit === 0 || this.limit === Infinity) return () => undefined
    const key = addressKey(address)
    const n = this.open.get(key) ?? 0
    if (n >= this.limit) return undefined
    this.open.set(key, n + 1)
    let given = false
    return () => {
      if (given) return
      given = true
      const left = (this.open.get(key) ?? 1) - 1
      if (left <= 0) this.open.delete(key)
      else this.open.set(key, left)
    }
  }

  /** Connections `address` holds now. */
  held(address: string | undefined): number {
    return this.open.get(addressKey(address)) ?? 0
  }
}
