// The fast DataRow writer against the per-value reference encoders (value-encoders.ts): the
// same bytes, text and binary, over random values of every type.
import t from 'tap'
import type { ColumnType } from '../../../lib/index.js'
import { BufferWriter } from '../../../adapters/pgwire/buffer-writer.js'
import { columnWriter, writeRows } from '../../../adapters/pgwire/data-row-writer.js'
import { cellEncoder, writeDataRows } from '../../../adapters/pgwire/value-encoders.js'
import type { FormatCode } from '../../../adapters/pgwire/messages.js'
import { Rng, randomColumns } from '../random-vectors.js'

const ROWS = 300

for (const format of [0, 1] as FormatCode[]) {
  t.test(`format ${format}: every type, byte for byte`, async (t) => {
    for (let seed = 1; seed <= 20; seed++) {
      let cols = randomColumns(new Rng(seed), ROWS)
      for (const c of cols) {
        const a = outcome(() => { const w = new BufferWriter(); writeDataRows(w, [c.vector], [cellEncoder(c.type, format)], 0, ROWS); return w.flush() })
        const b = outcome(() => { const w = new BufferWriter(); writeRows(w, [columnWriter(c.type, format, w)(c.vector)], 0, ROWS); return w.flush() })
        if (typeof a === 'string' || typeof b === 'string') {
          // values the reference refuses (a binary timestamp past int64) must fail the same way
          if (a !== b) { t.fail(`seed ${seed}, ${c.label}: reference ${String(a)}, fast ${String(b)}`); return }
          continue
        }
        if (!a.equals(b)) {
          t.fail(`seed ${seed}, ${c.label}: ${firstDiff(a, b)}`)
          return
        }
      }
      // all columns in one row, as a result batch is sent (without the ones the reference refuses)
      cols = cols.filter((c) => typeof outcome(() => { const w = new BufferWriter(); writeDataRows(w, [c.vector], [cellEncoder(c.type, format)], 0, ROWS); return w.flush() }) !== 'string')
      const ref = new BufferWriter()
      writeDataRows(ref, cols.map((c) => c.vector), cols.map((c) => cellEncoder(c.type, format)), 0, ROWS)
      const fast = new BufferWriter()
      writeRows(fast, cols.map((c) => columnWriter(c.type, format, fast)(c.vector)), 0, ROWS)
      t.ok(ref.flush().equals(fast.flush()), `seed ${seed}: ${cols.length} columns in one row`)
    }
  })
}

t.test('a symbol column keeps its cached cells across batches and follows a new dictionary', async (t) => {
  const r = new Rng(99)
  const types: ColumnType[] = ['SYMBOL']
  const fast = new BufferWriter()
  const ref = new BufferWriter()
  const writer = columnWriter('SYMBOL', 0, fast)
  for (let b = 0; b < 4; b++) {
    const cols = randomColumns(r, 50).filter((c) => c.label === 'SYMBOL')
    writeRows(fast, [writer(cols[0]!.vector)], 0, 50)
    writeDataRows(ref, [cols[0]!.vector], types.map((ty) => cellEncoder(ty, 0)), 0, 50)
  }
  t.ok(ref.flush().equals(fast.flush()))
})

t.test('the output buffer grows mid-row without losing bytes', async (t) => {
  const cols = randomColumns(new Rng(7), 2000)
  const ref = new BufferWriter()
  writeDataRows(ref, cols.map((c) => c.vector), cols.map((c) => cellEncoder(c.type, 0)), 0, 2000)
  const fast = new BufferWriter()
  writeRows(fast, cols.map((c) => columnWriter(c.type, 0, fast)(c.vector)), 0, 2000)
  const a = ref.flush()
  t.ok(a.length > 1_000_000, `${a.length} bytes`)
  t.ok(a.equals(fast.flush()))
})

/** The bytes `f` writes, or its error's message. */
function outcome(f: () => Buffer): Buffer | string {
  try {
    return f()
  } catch (e) {
    return (e as Error).message
  }
}

function firstDiff(a: Buffer, b: Buffer): string {
  let i = 0
  while (i < a.length && i < b.length && a[i] === b[i]) i++
  return `lengths ${a.length}/${b.length}, first difference at ${i}: reference ${JSON.stringify(a.subarray(Math.max(0, i - 20), i + 20).toString('latin1'))} fast ${JSON.stringify(b.subarray(Math.max(0, i - 20), i + 20).toString('latin1'))}`
}
