/**
 * Random text: `rnd_str` and `rnd_varchar`, in the forms `()` (3 to 10 characters, no nulls),
 * `(lo, hi, nullRate)` and `(list...)` (one of the given constants).
 *
 * Draws: a null gate (one `nextInt()`), then for a variable length one `nextPositiveInt()`;
 * rnd_str draws one `nextPositiveInt()` per letter (B..Z); variable-length rnd_varchar draws a
 * boolean choosing printable ASCII or mixed 1-4 byte UTF-8 (`rnd-utf8.ts`), fixed-length
 * rnd_varchar always uses mixed UTF-8.
 */
import { SqlError, SqlState } from '../../errors.js'
import type { CallSite, FunctionDef } from '../registry-types.js'
import { checkRate, constInt, invalidRange, rndFunction, type RndDraw } from './rnd-def.js'
import type { Rnd } from './rnd.js'
import { nextUtf8Str } from './rnd-utf8.js'

/** The constant strings of a list form (`rnd_str('a','b')`, `rnd_symbol('a','b')`). */
export function constStrings(site: CallSite): (string | null)[] {
  const out: (string | null)[] = []
  for (let i = 0; i < site.argTypes.length; i++) {
    const v = site.constants[i]
    if (v === undefined || (v !== null && typeof v !== 'string')) {
      throw new SqlError(SqlState.DATATYPE_MISMATCH, 'STRING constant expected', site.argPositions[i] ?? site.pos)
    }
    out.push(v)
  }
  return out
}

function listDraw(site: CallSite, type: 'STRING' | 'VARCHAR'): RndDraw {
  const list = constStrings(site)
  const n = list.length
  return { type, next: (rnd) => list[Math.abs(rnd.nextPositiveInt() % n)]! }
}

function textFunction(name: string, type: 'STRING' | 'VARCHAR'): FunctionDef {
  const isVarchar = type === 'VARCHAR'
  const body = isVarchar
    ? (rnd: Rnd, len: number, fixed: boolean): string => (!fixed && rnd.nextBoolean() ? rnd.nextAsciiStr(len) : nextUtf8Str(rnd, len))
    : (rnd: Rnd, len: number): string => rnd.nextChars(len)
  return rndFunction({
    name,
    signatures: [
      { args: [], returns: type },
      { args: ['INT', 'INT', 'INT'], constant: [0, 1, 2], returns: type },
      { args: [type], variadic: type, returns: type },
    ],
    description: isVarchar
      ? 'A random varchar (mixed ASCII and multi-byte UTF-8): 3 to 10 characters, or lo to hi characters with nulls at about 1 in nullRate rows, or one of the given values.'
      : 'A random string of letters B..Z: 3 to 10 characters, or lo to hi characters with nulls at about 1 in nullRate rows, or one of the given values.',
    example: `SELECT ${name}(), ${name}(2, 5, 0), ${name}('a', 'b', 'c') FROM long_sequence(3)`,
    prepare: (site): RndDraw => {
      const nArgs = site.argTypes.length
      if (nArgs === 3 && site.argTypes[0] === 'INT') {
        const lo = constInt(site, 0)
        const hi = constInt(site, 1)
        const rate = checkRate(site, 2, isVarchar ? 'null rate must be positive' : 'rate must be positive')
        if (lo === hi) return { type, next: (rnd) => (rnd.nullGate(rate) ? null : body(rnd, lo, true)) }
        if (!(lo < hi && lo > 0)) throw invalidRange(site)
        return variable(type, lo, hi, rate, body)
      }
      if (nArgs === 0) return variable(type, 3, 10, 0, body)
      return listDraw(site, type)
    },
  })
}

function variable(type: 'STRING' | 'VARCHAR', lo: number, hi: number, rate: number, body: (rnd: Rnd, len: number, fixed: boolean) => string): RndDraw {
  const range = hi - lo + 1
  return { type, next: (rnd) => (rnd.nullGate(rate) ? null : body(rnd, lo + (rnd.nextPositiveInt() % range), false)) }
}

/** rnd_str and rnd_varchar. */
export const RND_TEXT_FUNCTIONS: readonly FunctionDef[] = [textFunction('rnd_str', 'STRING'), textFunction('rnd_varchar', 'VARCHAR')]
