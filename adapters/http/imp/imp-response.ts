/**
 * /imp answers as QuestDB writes them: a text table (default) or JSON (`fmt=json`).
 */
import type { ColumnType, DecimalType } from '../../../lib/index.js'
import { decimalPrecision, geohashBits, isArrayType, isGeohash } from '../../../lib/internal.js'
import { jsonString } from '../json/json-string.js'
import type { ImportResult } from './importer.js'

/** Bytes per value of a type, as QuestDB reports `size` (0 for variable-size types). */
function sizeOf(t: ColumnType): number {
  switch (t) {
    case 'BOOLEAN': case 'BYTE': return 1
    case 'SHORT': case 'CHAR': return 2
    case 'INT': case 'IPV4': case 'FLOAT': case 'SYMBOL': return 4
    case 'LONG': case 'DOUBLE': case 'DATE': case 'TIMESTAMP': case 'TIMESTAMP_NS': return 8
    case 'UUID': return 16
    case 'LONG256': return 32
    case 'STRING': case 'VARCHAR': case 'BINARY': case 'INTERVAL': case 'INTERVAL_NS': case 'NULL': return 0
    default: {
      if (isArrayType(t)) return 0 // the array types are variable-size
      if (isGeohash(t)) { const b = geohashBits(t); return b < 8 ? 1 : b < 16 ? 2 : b < 32 ? 4 : 8 } // QuestDB's storage widths
      const p = decimalPrecision(t as DecimalType); return p <= 2 ? 1 : p <= 4 ? 2 : p <= 9 ? 4 : p <= 18 ? 8 : p <= 38 ? 16 : 32 // DECIMAL8..256
    }
  }
}

const typeName = (t: ColumnType): string => (t === 'IPV4' ? 'IPv4' : t)

/** The JSON answer. */
export function importJson(r: ImportResult): string {
  const ts = r.timestamp === undefined ? '' : `,"timestamp":${jsonString(r.timestamp)}`
  const warnings = r.warnings.length === 0 ? '' : `,"warnings":[${r.warnings.map(jsonString).join(',')}]`
  const cols = r.columns.map((c) => `{"name":${jsonString(c.name)},"type":"${typeName(c.type)}","size":${sizeOf(c.type)},"errors":${c.errors}}`).join(',')
  return `{"status":"OK","location":${jsonString(r.table)},"rowsRejected":${r.rowsHandled - r.rowsImported},"rowsImported":${r.rowsImported},` +
    `"header":${r.header},"partitionBy":${jsonString(r.partitionBy)}${ts}${warnings},"columns":[${cols}]}`
}

const RULE = '+' + '-'.repeat(113) + '+\r\n'
const pad = (s: string | number, n: number): string => String(s).padStart(n)

function line(a: string, b: string | number, c = '', d = '', e = ''): string {
  return `|${pad(a, 15)}  |${pad(b, 50)}  |${pad(c, 15)}  |${pad(d, 7)}  |${pad(e, 12)}  |\r\n`
}

/** The text-table answer. */
export function importText(r: ImportResult): string {
  const fromTable = r.warnings.length > 0 ? 'From Table' : ''
  let out = RULE
  out += line('Location:', r.table, 'Pattern', 'Locale', 'Errors')
  out += line('Partition by', r.partitionBy, '', '', fromTable)
  out += line('Timestamp', r.timestamp ?? 'NONE', '', '', fromTable)
  out += RULE
  out += line('Rows handled', r.rowsHandled)
  out += line('Rows imported', r.rowsImported)
  out += RULE
  r.columns.forEach((c, i) => { out += `|${pad(i, 15)}  |${pad(c.name, 50)}  |${pad(typeName(c.type), 25)}  |${pad(c.errors, 12)}  |\r\n` })
  out += RULE
  return out + '\r\n'
}
