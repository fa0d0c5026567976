/**
 * IPv4 text codec. An IPv4 value is an unsigned 32-bit address; vectors store it as int32 bits
 * (`u | 0`) and the scalar form is the unsigned number. `0.0.0.0` is QuestDB's IPv4 null.
 *
 * Browser-safe: imports nothing from `node:*`.
 */

/**
 * Parses dotted-quad text (`192.168.0.1`) to the unsigned address, or null when `text` is not
 * four decimal octets 0–255. `0.0.0.0` parses to 0, which is the null value.
 */
export function parseIpv4(text: string): number | null {
  const len = text.length
  if (len < 7 || len > 15) return null
  let addr = 0
  let octet = 0
  let digits = 0
  let parts = 0
  for (let i = 0; i <= len; i++) {
    const c = i < len ? text.charCodeAt(i) : 46
    if (c === 46 /* . */) {
      if (digits === 0 || octet > 255) return null
      addr = addr * 256 + octet
      parts++
      octet = 0
      digits = 0
    } else {
      const d = c - 48
      if (d < 0 || d > 9 || digits === 3) return null
      octet = octet * 10 + d
      digits++
    }
  }
  return parts === 4 ? addr : null
}

/** Prints an address (unsigned, or its int32 bits) as dotted-quad text. */
export function formatIpv4(addr: number): string {
  const u = addr >>> 0
  return `${u >>> 24}.${(u >>> 16) & 255}.${(u >>> 8) & 255}.${u & 255}`
}

/** An IPv4 subnet: the network address and its mask (both unsigned). */
export interface Ipv4Subnet {
  readonly network: number
  readonly mask: number
}

/**
 * Parses `a.b.c.d/n` (or a bare address, mask /32) for the `<<` / `<<=` operators.
 * The network address is the address with host bits cleared. Null when malformed.
 */
export function parseIpv4Subnet(text: string): Ipv4Subnet | null {
  const slash = text.indexOf('/')
  if (slash < 0) {
    const a = parseIpv4(text)
    return a === null ? null : { network: a, mask: 0xffffffff }
  }
  const a = parseIpv4(text.slice(0, slash))
  const bitsText = text.slice(slash + 1)
  if (a === null || !/^\d{1,2}$/.test(bitsText)) return null
  const bits = Number(bitsText)
  if (bits > 32) return null
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0
  return { network: (a & mask) >>> 0, mask }
}
