import t from 'tap'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

// The public surface (issue #15): `epochdb` (lib/index.ts) exports the library API — the
// database, its options and results, errors, the types those mention — and nothing that only the
// shipped adapters need; those helpers live in lib/internal.ts, which no package.json export
// names. A name added to lib/index.ts is a public API decision: add it to PUBLIC below in the
// same change, after asking whether a user (not an adapter) needs it.
const root = fileURLToPath(new URL('../../', import.meta.url))

/** The names a module exports through `export { ... } from` / `export type { ... } from`. */
function exportNames(path: string): string[] {
  const file = ts.createSourceFile(path, readFileSync(root + path, 'utf8'), ts.ScriptTarget.ES2022)
  const names: string[] = []
  for (const s of file.statements) {
    if (ts.isExportDeclaration(s) && s.exportClause !== undefined && ts.isNamedExports(s.exportClause)) {
      for (const e of s.exportClause.elements) names.push(e.name.text)
    } else if (ts.canHaveModifiers(s) && ts.getModifiers(s)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) {
      names.push(`<declaration at ${file.getLineAndCharacterOfPosition(s.getStart(file)).line + 1}>`)
    }
  }
  return names.sort()
}

const PUBLIC = [
  // the database, statements, results, sessions
  'Database', 'PreparedStatement', 'VERSION', 'DatabaseOptions', 'CloseOptions', 'QueryResult', 'ResultBatch', 'ColumnInfo',
  'Execution', 'ExecOptions', 'CancelSignal', 'Session', 'ADMIN', 'Principal', 'StatementInfo', 'RequiredPermission', 'Statement',
  'DEFAULT_PARSE_LIMITS', 'ParseLimits',
  // errors
  'SqlError', 'SqlState', 'SqlStateCode', 'SqlErrorOptions', 'IlpError', 'IlpErrorCode',
  // values and column vectors, as results carry them
  'ColumnType', 'typeName', 'ArrayType', 'DecimalType', 'Vector', 'Batch', 'Scalar', 'SymbolTable', 'BoolVector', 'I8Vector', 'I16Vector',
  'U16Vector', 'I32Vector', 'I64Vector', 'F32Vector', 'F64Vector', 'SymVector', 'StrVector', 'BinVector', 'NullVector', 'ArrVector',
  'JsValue', 'JsArray', 'DoubleArray',
  // access control, logins and ILP/TCP's JWK challenge
  'AclOptions', 'Endpoint', 'PasswordVerifier', 'newJwkChallenge', 'verifyJwkSignature', 'CHALLENGE_LENGTH', 'StoredJwk',
  'LoginThrottle', 'LoginThrottleOptions', 'LoginAttempt', 'LoginRefusal', 'LockoutEvent', 'IdentityCaches', 'IdentityFlusher',
  // memory settings as the standalone server reads them
  'resolveTotalQueryMemory', 'formatBytes',
  // ILP ingestion and Parquet export
  'LineWriter', 'LineWriterOptions', 'LinePartitionBy', 'TimeUnit', 'ParquetExportResult', 'ParquetWriteOptions', 'ParquetCodec',
  'PARQUET_CODECS',
].sort()

t.test('lib/index.ts exports exactly the reviewed public API', async (t) => {
  const names = exportNames('lib/index.ts')
  t.same(names.filter((n) => !PUBLIC.includes(n)), [], 'no name beyond the reviewed list (an adapter helper belongs in lib/internal.ts)')
  t.same(PUBLIC.filter((n) => !names.includes(n)), [], 'every reviewed name is still exported')
})

t.test('no adapter helper is also public', async (t) => {
  const internal = exportNames('lib/internal.ts')
  t.ok(internal.length >= 40, `${internal.length} internal names`)
  t.ok(internal.includes('getScalar') && internal.includes('formatValue') && internal.includes('PG_SCALAR_TYPES'), 'the encoders\' helpers are internal')
  t.same(internal.filter((n) => PUBLIC.includes(n)), [])
})

t.test('no package export names the internal entry', async (t) => {
  const pkg = JSON.parse(readFileSync(root + 'package.json', 'utf8')) as { exports: Record<string, unknown> }
  t.same(JSON.stringify(pkg.exports).match(/internal/g), null)
})

t.test('the public entry loads and its values are there', async (t) => {
  const lib = (await import('../../lib/index.js')) as Record<string, unknown>
  for (const n of ['Database', 'SqlError', 'LineWriter', 'DoubleArray', 'LoginThrottle']) t.ok(lib[n] !== undefined, n)
  for (const n of ['getScalar', 'formatValue', 'ByteWriter', 'PG_SCALAR_TYPES', 'writeParquet']) t.equal(lib[n], undefined, `${n} is not public`)
})
