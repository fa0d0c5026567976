/**
 * Hash functions (QuestDB's hash page): `md5`, `sha1`, `sha256` of a STRING, VARCHAR or BINARY
 * value, as lowercase hexadecimal VARCHAR (32, 40 and 64 characters); text is hashed as its UTF-8
 * bytes; NULL gives NULL. And `to_uuid(lo, hi)` (uuid page): the UUID of two LONG halves, `hi`
 * the first 16 hex digits.
 *
 * Browser-safe: the digest itself comes from the execution context ({@link FunctionContext.digest},
 * node:crypto in the engine); where there is none the call is 0A000.
 */
import { SqlError, SqlState } from '../../errors.js'
import { uuidFromHalves } from '../../types/uuid.js'
import type { Scalar } from '../../types/vector.js'
import type { DigestAlgorithm, FunctionContext, ScalarFunctionDef } from '../registry-types.js'

const utf8 = new TextEncoder()

function hashFunction(name: DigestAlgorithm, bits: number, example: string): ScalarFunctionDef {
  const digest = (v: Scalar, ctx: FunctionContext, pos: number): string => {
    if (ctx.digest === undefined) throw new SqlError(SqlState.FEATURE_NOT_SUPPORTED, `${name}() is not available here`, pos)
    return ctx.digest(name, v instanceof Uint8Array ? v : utf8.encode(String(v)))
  }
  return {
    kind: 'scalar', name, family: 'string',
    description: `The ${name.toUpperCase()} hash (${bits} bits) of text (its UTF-8 bytes) or binary data, as ${bits / 4} lowercase hex digits.`,
    example,
    signatures: [{ args: ['VARCHAR'], returns: 'VARCHAR' }, { args: ['STRING'], returns: 'VARCHAR' }, { args: ['BINARY'], returns: 'VARCHAR' }],
    init: (site) => site.pos,
    row: (a, ctx, pos) => digest(a[0]!, ctx, pos as number),
  }
}

/** md5, sha1, sha256, to_uuid. */
export const HASH_FUNCTIONS: readonly ScalarFunctionDef[] = [
  hashFunction('md5', 128, "SELECT md5('abc')"),
  hashFunction('sha1', 160, "SELECT sha1('abc')"),
  hashFunction('sha256', 256, "SELECT sha256('abc')"),
  {
    kind: 'scalar', name: 'to_uuid', family: 'string',
    description: 'The UUID of two LONG halves: to_uuid(lo, hi), hi being the first 16 hex digits.',
    example: 'SELECT to_uuid(2, 1)',
    signatures: [{ args: ['LONG', 'LONG'], returns: 'UUID' }],
    row: (a) => uuidFromHalves(BigInt(a[1] as number | bigint), BigInt(a[0] as number | bigint)),
  },
]
