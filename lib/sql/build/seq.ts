/**
 * Linear-time lists for the grammar's postprocessors.
 *
 * An Earley parser completes a list rule after every item (each prefix of a list is a complete
 * list), so a postprocessor that copies the list so far (`d[0].concat([d[1]])`, `[h, ...t]`)
 * costs O(n) per item and O(n²) per list: a 30,000-item IN list used gigabytes. A {@link Seq} is
 * an immutable cons list: adding an item is O(1) and never changes the list it extends, so two
 * derivations that share a prefix (which nearley may build for alternative parses) cannot see
 * each other's items. Postprocessors keep lists as `Seq`s; {@link finishAst} turns every `Seq`
 * left in the final AST into an array, once, after the parse. A postprocessor that must look
 * inside a list does it with {@link toArray} in the rule that holds the list's closing token
 * (which completes once per list), or defers the work with {@link deferred}.
 *
 * Browser-safe: imports nothing from `node:*`.
 */

/** An immutable list built by appending: the last item and the list before it. */
export class Seq<T> {
  /** @param prev the list without its last item (null for a one-item list) */
  constructor(readonly prev: Seq<T> | null, readonly last: T, readonly length: number) {}
}

/** A one-item list. */
export function one<T>(item: T): Seq<T> {
  return new Seq(null, item, 1)
}

/** `list` with `item` appended; `list` itself is unchanged. A null list is the empty list. */
export function add<T>(list: Seq<T> | null, item: T): Seq<T> {
  return new Seq(list, item, list === null ? 1 : list.length + 1)
}

/** The items of a list, first to last, in O(n); a null list and an array pass through. */
export function toArray<T>(list: Seq<T> | readonly T[] | null): T[] {
  if (list === null) return []
  if (!(list instanceof Seq)) return list as T[]
  const out = new Array<T>(list.length)
  let at: Seq<T> | null = list
  for (let i = list.length - 1; at !== null; i--, at = at.prev) out[i] = at.last
  return out
}

/**
 * A value computed after the parse, by {@link finishAst}, from the final tree only: for builders
 * that read a whole list in a rule that completes after every item (`SET x = a b c ...`).
 */
export class Deferred<T> {
  /** @param compute called once, by finishAst */
  constructor(readonly compute: () => T) {}
}

/** Defers `compute` to {@link finishAst}; the AST holds its result. */
export function deferred<T>(compute: () => T): T {
  return new Deferred(compute) as unknown as T
}

/**
 * Replaces every {@link Seq} and {@link Deferred} reachable from `root` by its array or value,
 * in place, without recursion (a deep expression cannot overflow the stack here). Returns the
 * finished root.
 */
export function finishAst<T>(root: T): T {
  const w = astWalker(root)
  while (w.step(Infinity));
  return w.top as T
}

/** Nodes {@link finishAstAsync} resolves between two pauses. */
const FINISH_SLICE = 4096

/** {@link finishAst} awaiting `pause()` every few thousand nodes (the async parse of a huge statement). */
export async function finishAstAsync<T>(root: T, pause: () => Promise<void>): Promise<T> {
  const w = astWalker(root)
  while (w.step(FINISH_SLICE)) await pause()
  return w.top as T
}

/** The walk of {@link finishAst}, resumable: `step(n)` visits up to n nodes, true while some are left. */
function astWalker(root: unknown): { readonly top: unknown; step(budget: number): boolean } {
  const resolve = (v: unknown): unknown => {
    let x = v
    for (;;) {
      if (x instanceof Deferred) x = x.compute()
      else if (x instanceof Seq) x = toArray(x)
      else return x
    }
  }
  const top = resolve(root)
  const seen = new Set<object>()
  const stack: object[] = []
  if (typeof top === 'object' && top !== null) stack.push(top)
  return {
    top,
    step(budget: number): boolean {
      for (let n = 0; n < budget && stack.length > 0; n++) {
        const node = stack.pop() as Record<string | number, unknown>
        if (seen.has(node)) continue
        seen.add(node)
        const visit = (key: string | number): void => {
          const v = node[key]
          if (typeof v !== 'object' || v === null) return
          const r = resolve(v)
          if (r !== v) node[key] = r
          if (typeof r === 'object' && r !== null && !seen.has(r)) stack.push(r)
        }
        if (Array.isArray(node)) for (let i = 0; i < node.length; i++) visit(i)
        else for (const key of Object.keys(node)) visit(key)
      }
      return stack.length > 0
    },
  }
}
