/**
 * The N-dimensional DOUBLE array types, `DOUBLE[]` to `DOUBLE[]..[]` (32 dimensions, QuestDB's
 * limit): one {@link ColumnType} tag per dimension count, spelled as QuestDB prints the type.
 *
 * Imports nothing, so `column-type.ts` can join these tags to its own without a cycle.
 * Browser-safe.
 */

/** QuestDB's limit on an array's dimension count (`ColumnType.ARRAY_NDIMS_LIMIT`). */
export const ARRAY_MAX_DIMS = 32

/** The tag of a DOUBLE array type with 1..32 dimensions. */
export type ArrayType =
  'DOUBLE[]' | 'DOUBLE[][]' | 'DOUBLE[][][]' | 'DOUBLE[][][][]' | 'DOUBLE[][][][][]' |
  'DOUBLE[][][][][][]' | 'DOUBLE[][][][][][][]' | 'DOUBLE[][][][][][][][]' |
  'DOUBLE[][][][][][][][][]' | 'DOUBLE[][][][][][][][][][]' | 'DOUBLE[][][][][][][][][][][]' |
  'DOUBLE[][][][][][][][][][][][]' | 'DOUBLE[][][][][][][][][][][][][]' |
  'DOUBLE[][][][][][][][][][][][][][]' | 'DOUBLE[][][][][][][][][][][][][][][]' |
  'DOUBLE[][][][][][][][][][][][][][][][]' | 'DOUBLE[][][][][][][][][][][][][][][][][]' |
  'DOUBLE[][][][][][][][][][][][][][][][][][]' | 'DOUBLE[][][][][][][][][][][][][][][][][][][]' |
  'DOUBLE[][][][][][][][][][][][][][][][][][][][]' |
  'DOUBLE[][][][][][][][][][][][][][][][][][][][][]' |
  'DOUBLE[][][][][][][][][][][][][][][][][][][][][][]' |
  'DOUBLE[][][][][][][][][][][][][][][][][][][][][][][]' |
  'DOUBLE[][][][][][][][][][][][][][][][][][][][][][][][]' |
  'DOUBLE[][][][][][][][][][][][][][][][][][][][][][][][][]' |
  'DOUBLE[][][][][][][][][][][][][][][][][][][][][][][][][][]' |
  'DOUBLE[][][][][][][][][][][][][][][][][][][][][][][][][][][]' |
  'DOUBLE[][][][][][][][][][][][][][][][][][][][][][][][][][][][]' |
  'DOUBLE[][][][][][][][][][][][][][][][][][][][][][][][][][][][][]' |
  'DOUBLE[][][][][][][][][][][][][][][][][][][][][][][][][][][][][][]' |
  'DOUBLE[][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][]' |
  'DOUBLE[][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][]'

/** The array type of `dims` dimensions (1..{@link ARRAY_MAX_DIMS}). */
export function arrayType(dims: number): ArrayType {
  return `DOUBLE${'[]'.repeat(dims)}` as ArrayType
}

/** Every array tag, by dimension count (index 0 = `DOUBLE[]`). */
export const ARRAY_TYPES: readonly ArrayType[] = Array.from({ length: ARRAY_MAX_DIMS }, (_, i) => arrayType(i + 1))

/** The dimension count of an array type, or 0 for any other type. */
export function arrayDims(t: string): number {
  return t.length > 6 && t.charCodeAt(6) === 91 /* [ */ && t.startsWith('DOUBLE[') ? (t.length - 6) / 2 : 0
}

/** True for the array types. */
export function isArrayType(t: string): t is ArrayType {
  return arrayDims(t) > 0
}
