/**
 * timestamp_sequence(start, step): a stateful generator — each evaluation returns the previous
 * value plus `step` microseconds, starting at `start` (QuestDB's row generator for test data).
 * The state lives per call site and statement execution, so every query starts again at `start`.
 * A TIMESTAMP_NS start (or a string literal with nanosecond digits, bind-expr's ns-literal rule)
 * makes it a TIMESTAMP_NS sequence whose step is in nanoseconds, as QuestDB 9's
 * TimestampSequenceFunctionFactory adds the step in the start's own unit.
 */
import { LONG_NULL } from '../../types/column-type.js'
import { type I64Vector, VectorWriter, allocate, getScalar, materialize } from '../../types/vector.js'
import { nsBig, nsScalar } from '../../types/timestamp-ns.js'
import type { ScalarFunctionDef } from '../registry-types.js'

interface State { next: number; nextNs?: bigint }

/** The sequence functions. */
export const SEQUENCE_FUNCTIONS: readonly ScalarFunctionDef[] = [
  {
    kind: 'scalar', name: 'timestamp_sequence', family: 'time',
    description: 'A timestamp that starts at start and grows by step microseconds (nanoseconds for a TIMESTAMP_NS start) on every row (stateful).',
    example: "SELECT timestamp_sequence('2024-01-01', 1000000) ts FROM long_sequence(3)",
    signatures: [{ args: ['TIMESTAMP', 'LONG'], returns: 'TIMESTAMP' }, { args: ['TIMESTAMP_NS', 'LONG'], returns: 'TIMESTAMP_NS' }],
    deterministic: false,
    init: (): State => ({ next: Number.NaN }),
    vector: (args, n, _ctx, state) => {
      const st = state as State
      if (args[0]!.type === 'TIMESTAMP_NS') {
        const start = materialize(args[0]!), step = materialize(args[1]!)
        const w = new VectorWriter('TIMESTAMP_NS', n)
        for (let i = 0; i < n; i++) {
          const s0 = getScalar(start, i), k = getScalar(step, i)
          if (st.nextNs === undefined) { if (s0 === null) { w.set(i, null); continue } st.nextNs = nsBig(s0 as number | bigint) }
          if (k === null) { w.set(i, null); continue }
          w.set(i, nsScalar(BigInt.asIntN(64, st.nextNs)))
          st.nextNs += nsBig(k as number | bigint)
        }
        return w.finish()
      }
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
