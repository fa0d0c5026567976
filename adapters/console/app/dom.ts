/// <reference lib="dom" />
/** Small DOM helpers. */

/** Creates an element with attributes and children (strings become text). */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Readonly<Record<string, string>> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag)
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v)
  e.append(...children)
  return e
}

/** A name as SQL text: bare when it is a plain identifier, double-quoted otherwise. */
export function quoteName(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`
}

/** A cell value as text (null shown as `null`, BINARY as its hex, long strings cut for display). */
export function cellText(v: unknown, max = 1000): string {
  if (v === null || v === undefined) return 'null'
  const binary = typeof v === 'object' ? (v as { binary?: unknown }).binary : undefined // BINARY as hex (binary.ts)
  const s = typeof v === 'string' ? v : typeof binary === 'string' ? binary : typeof v === 'object' ? JSON.stringify(v) : String(v)
  return s.length > max ? s.slice(0, max) + '…' : s
}
