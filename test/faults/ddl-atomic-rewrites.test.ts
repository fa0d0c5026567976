/**
 * DDL is atomic against storage failures (ddl-atomic-harness.ts): the statements that change a
 * table's columns or rows (ALTER TABLE, TRUNCATE, DROP PARTITION, and UPDATE, not DDL but a
 * rewrite of the table's files like one).
 */
import { atomicCases } from './ddl-atomic-harness.js'

atomicCases([
  'alter table t add column w long',
  'alter table t add column w1 long, w2 string',
  'alter table t drop column v',
  'alter table t rename column v to v2',
  'truncate table t',
  "alter table t drop partition list '2024-01-01'",
  'update t set v = v + 10 where s = \'a\'',
])
