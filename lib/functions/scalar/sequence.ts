/**
 * timestamp_sequence(start, step): a stateful generator — each evaluation returns the previous
 * value plus `step` microseconds, starting at `start` (QuestDB's row generator for test data).
 * The state lives per call site and statement execution, so every query starts again at `start`.
 */
import { LONG_NULL } from '../../types/column-type.js'
import { type I64Vector, allocate, materialize } from '../../types/vector.js'
import type { ScalarFunctionDef } from '../registry-types.js'

interface State { next: number }

/** The sequence functions. */
export const SEQUENCE_FUNCTIONS: readonly ScalarFunctionDef[] = [
  {
    kind: 'scalar', name: 'timestamp_sequence', family: 'time',
    description: 'A timestamp that starts at start and grows by step microseconds on every row (stateful).',
    example: "SELECT timestamp_sequence('2024-01-01', 1000000) ts FROM long_sequence(3)",
    signatures: [{ args: ['TIMESTAMP', 'LONG'], returns: 'TIMESTAMP' }],
    deterministic: false,
    init: (): State => ({ next: Number.NaN }),
    vector: (args, n, _ctx, state) => {
      const st = state as State
      const start = materialize(args[0]!) as I64Vector
      const step = materialize(args[1]!) as I64Vector
      const out = allocate('TIMESTAMP', n) as I64Vector
      const d = out.data as Float64Array
      for (let i = 0; i < n; i++) {
        if (Number.isNaN(st.next)) st.next = Number(start.data[i]!)
        const s = Number(step.data[i]!)
        if (st.next === LONG_NULL || s === LONG_NULL) { d[i] = LONG_NULL; continue }
        d[i] = st.next
        st.next += s
      }
      return out
    },
  },
]
