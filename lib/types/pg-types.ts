/**
 * PostgreSQL's built-in types as EpochDB presents them to PostgreSQL clients: the one table of
 * type OIDs, `pg_type` names, sizes, categories, array types and the names `format_type` prints.
 * The engine's `format_type` reads it, and so do the pgwire adapter's `pg_type` and
 * `information_schema` emulation and its connect-time array lookup.
 *
 * Browser-safe: imports nothing from `node:*`.
 */

/** One built-in PostgreSQL type. */
export interface PgBuiltinType {
  readonly oid: number
  /** `pg_type.typname` (`int4`, `_int4` for its array) */
  readonly name: string
  /** as `format_type(oid, NULL)` prints it (`integer`, `integer[]`) */
  readonly formatName: string
  /** `pg_type.typlen`: bytes, or -1 for a variable length */
  readonly length: number
  /** `pg_type.typcategory` (`N` numeric, `S` string, `D` date/time, `A` array, ...) */
  readonly category: string
  /** the element type's OID (arrays), else 0 */
  readonly elementOid: number
  /** the array type's OID, else 0 */
  readonly arrayOid: number
}

/** [oid, typname, format_type name, typlen, typcategory, array oid] of the scalar types. */
const SCALARS: readonly (readonly [number, string, string, number, string, number])[] = [
  [16, 'bool', 'boolean', 1, 'B', 1000], [17, 'bytea', 'bytea', -1, 'U', 1001], [18, 'char', '"char"', 1, 'S', 0],
  [19, 'name', 'name', 64, 'S', 0], [20, 'int8', 'bigint', 8, 'N', 1016], [21, 'int2', 'smallint', 2, 'N', 1005],
  [23, 'int4', 'integer', 4, 'N', 1007], [25, 'text', 'text', -1, 'S', 1009], [26, 'oid', 'oid', 4, 'N', 0],
  [700, 'float4', 'real', 4, 'N', 1021], [701, 'float8', 'double precision', 8, 'N', 1022],
  [1042, 'bpchar', 'character', -1, 'S', 1014], [1043, 'varchar', 'character varying', -1, 'S', 1015],
  [1082, 'date', 'date', 4, 'D', 0], [1083, 'time', 'time without time zone', 8, 'D', 0],
  [1114, 'timestamp', 'timestamp without time zone', 8, 'D', 1115], [1184, 'timestamptz', 'timestamp with time zone', 8, 'D', 1185],
  [1186, 'interval', 'interval', 16, 'T', 0], [1700, 'numeric', 'numeric', -1, 'N', 0], [2950, 'uuid', 'uuid', 16, 'U', 2951],
]

/** The scalar types, in OID order. */
export const PG_SCALAR_TYPES: readonly PgBuiltinType[] = SCALARS.map(([oid, name, formatName, length, category, arrayOid]) => ({
  oid, name, formatName, length, category, elementOid: 0, arrayOid,
}))

/** The array types of the scalar types that have one, in their element types' order. */
export const PG_ARRAY_TYPES: readonly PgBuiltinType[] = PG_SCALAR_TYPES.filter((t) => t.arrayOid !== 0).map((t) => ({
  oid: t.arrayOid, name: `_${t.name}`, formatName: `${t.formatName}[]`, length: -1, category: 'A', elementOid: t.oid, arrayOid: 0,
}))

const BY_OID = new Map([...PG_SCALAR_TYPES, ...PG_ARRAY_TYPES].map((t) => [t.oid, t]))

/** The built-in type with OID `oid` (scalar or array), or undefined. */
export function pgType(oid: number): PgBuiltinType | undefined {
  return BY_OID.get(oid)
}
