/**
 * Meta functions about the session and the engine: version(), current_user(),
 * pg_postmaster_start_time(), current_database(), current_schema() and typeOf(x).
 *
 * Browser-safe: imports nothing from `node:*`.
 */
import { SqlError, SqlState } from '../../errors.js'
import { typeName } from '../../types/column-type.js'
import { constVector } from '../../types/vector.js'
import type { ScalarFunctionDef } from '../registry-types.js'

/** The meta functions. */
export const META_FUNCTIONS: readonly ScalarFunctionDef[] = [
  {
    kind: 'scalar', name: 'version', family: 'meta', description: 'The engine version string.', example: 'SELECT version()',
    signatures: [{ args: [], returns: 'STRING' }], row: (_a, ctx) => ctx.version,
  },
  {
    kind: 'scalar', name: 'build', family: 'meta',
    description: 'Build information: the engine name and version (QuestDB prints its version, JDK and commit).', example: 'SELECT build()',
    signatures: [{ args: [], returns: 'STRING' }],
    row: (_a, ctx) => `Build Information: ${/EpochDB [^,]*/.exec(ctx.version)?.[0] ?? ctx.version}`,
  },
  {
    kind: 'scalar', name: 'current_user', family: 'meta', description: 'The session user name.', example: 'SELECT current_user()',
    signatures: [{ args: [], returns: 'STRING' }], row: (_a, ctx) => ctx.user,
  },
  {
    kind: 'scalar', name: 'flush_identity_cache', family: 'meta',
    description: 'Drops the cached identities of external users (an OIDC guard\'s validated tokens): all, or one subject\'s. Their next request is validated at the identity provider again. Needs DISABLE USER. Returns the entries dropped.',
    example: "SELECT flush_identity_cache('alice')",
    signatures: [{ args: [], returns: 'LONG' }, { args: ['STRING'], returns: 'LONG' }],
    deterministic: false, nullStrict: false,
    row: (a, ctx) => ctx.flushIdentities?.(a.length === 0 || a[0] === null ? undefined : String(a[0])) ?? 0,
  },
  {
    kind: 'scalar', name: 'flush_query_cache', family: 'meta',
    description: 'Empties the cache of parsed and bound statements, so the next run of a SQL text is planned anew; true when done.',
    example: 'SELECT flush_query_cache()',
    signatures: [{ args: [], returns: 'BOOLEAN' }],
    deterministic: false,
    row: (_a, ctx) => ctx.flushQueryCache?.() ?? false,
  },
  {
    kind: 'scalar', name: 'cancel_query', family: 'meta',
    description: 'Asks running statement id (from query_activity()) to stop; it fails with 57014 at its next check. True when it was found. Another user\'s statement needs SQL ENGINE ADMIN.',
    example: 'SELECT cancel_query(42)',
    signatures: [{ args: ['LONG'], returns: 'BOOLEAN' }],
    deterministic: false,
    init: (site) => site.argPositions[0] ?? site.pos,
    row: (a, ctx, pos) => {
      const id = Number(a[0])
      if (id < 0) throw new SqlError(SqlState.INVALID_PARAMETER_VALUE, 'non-negative integer literal expected as query id', typeof pos === 'number' ? pos : -1)
      return ctx.cancelQuery?.(id) ?? false
    },
  },
  {
    kind: 'scalar', name: 'pg_postmaster_start_time', family: 'meta',
    description: 'When the engine started (its main thread loaded), as QuestDB returns its server start time; the same in every statement of a process.',
    example: 'SELECT pg_postmaster_start_time()',
    signatures: [{ args: [], returns: 'TIMESTAMP' }], row: (_a, ctx) => ctx.startedAt ?? null,
  },
  {
    kind: 'scalar', name: 'current_database', family: 'meta', description: "The database name, always 'qdb'.", example: 'SELECT current_database()',
    signatures: [{ args: [], returns: 'STRING' }], row: () => 'qdb',
  },
  {
    kind: 'scalar', name: 'current_schema', family: 'meta', description: "The schema name, always 'public'.", example: 'SELECT current_schema()',
    signatures: [{ args: [], returns: 'STRING' }], row: () => 'public',
  },
  {
    kind: 'scalar', name: 'wait_wal_table', family: 'meta',
    description: 'Waits until the WAL of a table is applied; EpochDB applies every commit before acknowledging it, so this returns true at once.',
    example: "SELECT wait_wal_table('trades')",
    signatures: [{ args: ['STRING'], returns: 'BOOLEAN' }],
    init: (site, ctx) => {
      const name = site.constants[0]
      if (typeof name === 'string' && ctx.catalog.table(name) === undefined) {
        throw new SqlError(SqlState.UNDEFINED_TABLE, `table does not exist [table=${name}]`, site.argPositions[0] ?? site.pos)
      }
      return undefined
    },
    row: () => true,
  },
  {
    kind: 'scalar', name: 'typeof', family: 'meta', description: 'The type name of the argument, as QuestDB prints it.', example: 'SELECT typeOf(1.5)',
    signatures: [{ args: ['ANY'], returns: 'STRING' }],
    vector: (args, n) => constVector('STRING', typeName(args[0]!.type), n),
  },
]
