/**
 * Table functions used in FROM: row generators (`long_sequence`, `generate_series`) and catalog
 * views (`tables()`, `table_columns('t')`), and files (`read_parquet('f.parquet')`, alias `parquet_scan`).
 */
import type { FunctionDef } from '../registry-types.js'
import { CATALOG_TABLE_FUNCTIONS } from './catalog-tables.js'
import { GENERATE_SERIES } from './generate-series.js'
import { LONG_SEQUENCE } from './long-sequence.js'
import { TABLE_PARTITIONS } from './table-partitions.js'
import { ALL_PERMISSIONS } from './all-permissions.js'
import { UNNEST_FUNCTIONS } from './unnest.js'
import { UNNEST_JSON_FUNCTIONS } from './unnest-json.js'
import { PARQUET_SCAN, READ_PARQUET } from './read-parquet.js'
import { FUNCTIONS_LIST } from './functions-list.js'
import { SYSTEM_TABLE_FUNCTIONS } from './system-tables.js'
import { MATERIALIZED_VIEWS } from './mat-views-table.js'

/** Every table function. */
export const TABLE_FUNCTIONS: readonly FunctionDef[] = [LONG_SEQUENCE, GENERATE_SERIES, ...CATALOG_TABLE_FUNCTIONS, TABLE_PARTITIONS, ALL_PERMISSIONS, ...UNNEST_FUNCTIONS, ...UNNEST_JSON_FUNCTIONS, READ_PARQUET, PARQUET_SCAN, FUNCTIONS_LIST, ...SYSTEM_TABLE_FUNCTIONS, MATERIALIZED_VIEWS]
