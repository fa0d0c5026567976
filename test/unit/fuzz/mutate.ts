/**
 * Deterministic statement mutation for the fuzz test: a seeded PRNG, a tokenizer and the
 * mutation operators (delete, insert, swap, duplicate, replace, truncate, random soup).
 */

/** A seeded PRNG returning floats in [0, 1) (mulberry32). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let x = a
    x = Math.imul(x ^ (x >>> 15), x | 1)
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61)
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
}

const TOKEN = /'(?:[^']|'')*'|"[^"]*"|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?[a-zA-Z]*|[A-Za-z_][A-Za-z0-9_]*|::|<=|>=|!=|<>|\|\||\S/g

/** Splits SQL into rough tokens (strings, numbers, words, operators). */
export function tokenize(sql: string): string[] {
  return sql.match(TOKEN) ?? []
}

function pick<T>(rnd: () => number, xs: readonly T[]): T {
  return xs[Math.floor(rnd() * xs.length)]!
}

/** Applies one random mutation to a token list, in place. */
function mutateOnce(rnd: () => number, tokens: string[], pool: readonly string[]): void {
  const at = Math.floor(rnd() * (tokens.length + 1))
  switch (Math.floor(rnd() * 6)) {
    case 0: if (tokens.length > 0) tokens.splice(Math.min(at, tokens.length - 1), 1); break
    case 1: tokens.splice(at, 0, pick(rnd, pool)); break
    case 2: {
      if (tokens.length < 2) break
      const i = Math.floor(rnd() * tokens.length)
      const j = Math.floor(rnd() * tokens.length)
      const tmp = tokens[i]!
      tokens[i] = tokens[j]!
      tokens[j] = tmp
      break
    }
    case 3: if (tokens.length > 0) tokens.splice(at, 0, tokens[Math.min(at, tokens.length - 1)]!); break
    case 4: if (tokens.length > 0) tokens[Math.min(at, tokens.length - 1)] = pick(rnd, pool); break
    default: tokens.length = Math.min(tokens.length, at)
  }
}

/**
 * Makes one fuzz statement: mostly a corpus statement with 1-3 mutations, sometimes an
 * unmutated one (so state changes happen), sometimes a soup of random pool tokens.
 */
export function makeStatement(rnd: () => number, corpus: readonly string[], pool: readonly string[]): string {
  const roll = rnd()
  if (roll < 0.1) {
    const n = 1 + Math.floor(rnd() * 12)
    const soup: string[] = []
    for (let k = 0; k < n; k++) soup.push(pick(rnd, pool))
    return soup.join(' ')
  }
  const base = pick(rnd, corpus)
  if (roll < 0.2) return base
  const tokens = tokenize(base)
  const mutations = 1 + Math.floor(rnd() * 3)
  for (let k = 0; k < mutations; k++) mutateOnce(rnd, tokens, pool)
  return tokens.join(' ')
}
