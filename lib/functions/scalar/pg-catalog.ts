/**
 * PostgreSQL catalog functions that client tools call while introspecting a database over the
 * PostgreSQL wire protocol (pgJDBC's DatabaseMetaData, SQLAlchemy, Grafana, psql):
 * format_type, pg_get_expr, pg_table_is_visible, pg_type_is_visible, pg_get_userbyid,
 * obj_description, col_description, pg_encoding_to_char and has_*_privilege. QuestDB has the same
 * set in its engine. EpochDB has one schema (`public`), no comments and no column defaults, so
 * most answers are constants; format_type knows the built-in type OIDs.
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import type { ScalarFunctionDef, Signature } from '../registry-types.js'
import { pgType } from '../../types/pg-types.js'

/**
 * `format_type(oid, typmod)` as PostgreSQL prints it: `character varying(20)` for a varchar of
 * typmod 24, `numeric(10,2)`, `???` for an unknown OID.
 */
export function formatType(oid: number, typmod: number | null): string {
  const name = pgType(oid)?.formatName
  if (name === undefined) return '???'
  if (typmod === null || typmod < 0) return oid === 1042 ? 'bpchar' : name
  if (oid === 1042 || oid === 1043) return `${name}(${typmod - 4})`
  if (oid === 1700 && typmod >= 4) return `numeric(${((typmod - 4) >> 16) & 0xffff},${(typmod - 4) & 0xffff})`
  return name
}

/** A function whose answer does not depend on its arguments. */
function always(name: string, overloads: readonly Signature['args'][], returns: 'BOOLEAN' | 'STRING', value: boolean | null, description: string, example: string): ScalarFunctionDef {
  return { kind: 'scalar', name, family: 'meta', description, example, nullStrict: false, signatures: overloads.map((args) => ({ args, returns })), row: () => value }
}

/** The PostgreSQL catalog functions. */
export const PG_CATALOG_FUNCTIONS: readonly ScalarFunctionDef[] = [
  {
    kind: 'scalar', name: 'format_type', family: 'meta', nullStrict: false,
    description: "PostgreSQL's SQL name of a type OID with a type modifier (-1 or NULL: none).",
    example: 'SELECT format_type(1043, 24)',
    signatures: [{ args: ['INT', 'INT'], returns: 'STRING' }],
    row: (a) => (a[0] === null ? null : formatType(Number(a[0]), a[1] === null ? null : Number(a[1]))),
  },
  {
    kind: 'scalar', name: 'pg_get_expr', family: 'meta',
    description: 'The text of a stored expression (a column default); EpochDB stores them as text, so it is returned as is.',
    example: "SELECT pg_get_expr('now()', 0)",
    signatures: [{ args: ['STRING', 'INT'], returns: 'STRING' }, { args: ['STRING', 'INT', 'BOOLEAN'], returns: 'STRING' }],
    row: (a) => a[0] ?? null,
  },
  always('pg_table_is_visible', [['INT']], 'BOOLEAN', true, 'True: every table is in the one schema on the search path.', 'SELECT pg_table_is_visible(16384)'),
  always('pg_type_is_visible', [['INT']], 'BOOLEAN', true, 'True: every type is visible.', 'SELECT pg_type_is_visible(23)'),
  {
    kind: 'scalar', name: 'pg_get_userbyid', family: 'meta', description: 'The name of a role by OID: the session user (EpochDB reports one role).',
    example: 'SELECT pg_get_userbyid(10)', signatures: [{ args: ['INT'], returns: 'STRING' }], row: (_a, ctx) => ctx.user,
  },
  always('obj_description', [['INT'], ['INT', 'STRING']], 'STRING', null, 'The comment of an object: always NULL (EpochDB keeps no comments).', 'SELECT obj_description(16384)'),
  always('col_description', [['INT', 'INT']], 'STRING', null, 'The comment of a table column: always NULL (EpochDB keeps no comments).', 'SELECT col_description(16384, 1)'),
  always('shobj_description', [['INT', 'STRING']], 'STRING', null, 'The comment of a shared object: always NULL.', "SELECT shobj_description(1, 'pg_database')"),
  {
    kind: 'scalar', name: 'pg_encoding_to_char', family: 'meta', description: "The name of an encoding number: 6 is 'UTF8', the only encoding EpochDB speaks.",
    example: 'SELECT pg_encoding_to_char(6)', signatures: [{ args: ['INT'], returns: 'STRING' }], row: (a) => (Number(a[0]) === 6 ? 'UTF8' : ''),
  },
  always('has_table_privilege', [['STRING', 'STRING'], ['INT', 'STRING'], ['STRING', 'STRING', 'STRING']], 'BOOLEAN', true, 'True: access is checked when a statement runs, not through this function.', "SELECT has_table_privilege('trades', 'select')"),
  always('has_schema_privilege', [['STRING', 'STRING'], ['INT', 'STRING'], ['STRING', 'STRING', 'STRING']], 'BOOLEAN', true, 'True: there is one schema, open to every user.', "SELECT has_schema_privilege('public', 'usage')"),
  always('has_database_privilege', [['STRING', 'STRING'], ['INT', 'STRING'], ['STRING', 'STRING', 'STRING']], 'BOOLEAN', true, 'True: there is one database, open to every user.', "SELECT has_database_privilege('qdb', 'connect')"),
]
