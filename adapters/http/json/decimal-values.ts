/**
 * DECIMAL cells for REST: JSON as a quoted exact string (`"12.50"`, null `null`), as QuestDB's
 * `/exec` writes them, so no client reads them through a double; CSV as the bare exact text
 * (null an empty field).
 */
import type { DecimalType, Vector } from '../../../lib/index.js'
import { formatDecimal, getScalar } from '../../../lib/internal.js'

/** The JSON encoder of a DECIMAL column vector. */
export function decimalJsonEncoder(type: DecimalType, v: Vector): (i: number) => string {
  return (i) => { const x = getScalar(v, i); return x === null ? 'null' : '"' + formatDecimal(type, x as number | bigint | string) + '"' }
}

/** The CSV encoder of a DECIMAL column vector. */
export function decimalCsvEncoder(type: DecimalType, v: Vector): (i: number) => string {
  return (i) => { const x = getScalar(v, i); return x === null ? '' : formatDecimal(type, x as number | bigint | string) }
}
