/** inTurns: one step per turn of the event loop, `finish` runs the rest now (not from inside a step), a throw rejects. */
import t from 'tap'
import { inTurns, rowsPerTurn } from '../../../lib/storage/in-turns.js'
import type { Steps } from '../../../lib/storage/durable/steps.js'

const turn = (): Promise<void> => new Promise((r) => setImmediate(r))

t.test('one step now, then one per turn', async (t) => {
  const done: number[] = []
  function* steps(): Steps<string> {
    for (let i = 0; i < 4; i++) { done.push(i); if (i < 3) yield }
    return 'end'
  }
  const run = inTurns(steps())
  t.same(done, [0], 'the first step runs at once')
  await turn()
  t.same(done, [0, 1])
  await turn()
  t.same(done, [0, 1, 2])
  t.equal(await run.done, 'end')
  t.same(done, [0, 1, 2, 3])
})

t.test('finish runs every remaining step now; from inside a step it does nothing', async (t) => {
  const done: number[] = []
  let inner: (() => void) | undefined
  function* steps(): Steps<void> {
    for (let i = 0; i < 5; i++) {
      done.push(i)
      // a step that calls finish (as a table change inside the last step does, e.g. TTL) is not re-entered
      inner?.()
      yield
    }
  }
  const run = inTurns(steps())
  inner = () => run.finish()
  t.same(done, [0])
  run.finish()
  t.same(done, [0, 1, 2, 3, 4], 'all at once')
  await run.done
  run.finish()
  t.same(done, [0, 1, 2, 3, 4], 'finish after the end does nothing')
})

t.test('a step that throws rejects `done`, and no step runs after it', async (t) => {
  let after = false
  function* steps(): Steps<void> {
    yield
    throw new Error('boom')
    after = true
  }
  const run = inTurns(steps())
  await t.rejects(run.done, /boom/)
  t.equal(after, false)
  run.finish()
})

t.test('rowsPerTurn: about 4 MiB of rows, at least one', async (t) => {
  t.equal(rowsPerTurn(['DOUBLE', 'TIMESTAMP']), (4 << 20) / 16)
  t.ok(rowsPerTurn(['DOUBLE']) > rowsPerTurn(['DOUBLE', 'DOUBLE', 'INT']))
  t.ok(rowsPerTurn([]) >= 1)
})
