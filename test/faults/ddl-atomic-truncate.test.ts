/**
 * TRUNCATE of several tables is atomic against storage failures (ddl-atomic-harness.ts): a
 * failure anywhere leaves every table as it was (in memory, and after a crash or a restart), never
 * the first truncated and the second not. The crash points between the tables' own commits are
 * in test/storage/truncate-atomic.test.ts.
 */
import { atomicCases } from './ddl-atomic-harness.js'

atomicCases([
  'truncate table t, u',
  'truncate table u, t',
])
