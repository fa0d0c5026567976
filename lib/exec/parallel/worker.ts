/**
 * Worker-thread entry point: runs shares of parallel aggregations and filters (see partial.ts)
 * on shared column memory and posts back the partial groups (keys, and the kernels' state) or
 * the row numbers a filter keeps.
 */
import { parentPort } from 'node:worker_threads'
import { type Partial, runPartial, runSelect } from './partial.js'
import { takePieces } from './pieces.js'
import { toWireBatch } from './batch-wire.js'
import { kernelState } from './kernel-state.js'
import type { WirePartial, WirePieces, WireSelected, WireTask } from './wire.js'

function toWire(p: Partial): WirePartial {
  return { count: p.count, keys: toWireBatch({ length: p.count, vectors: [...p.keys] }), states: p.kernels.map(kernelState) }
}

async function run(task: WireTask): Promise<WirePartial | WirePieces | WireSelected> {
  if (task.select === true) return runSelect(task)
  if (task.pieces !== undefined) {
    const { ordinals, partials } = await takePieces(task)
    return { ordinals, partials: partials.map(toWire) }
  }
  return toWire(await runPartial(task))
}

parentPort?.on('message', (msg: { id: number; task: WireTask }) => {
  run(msg.task).then(
    // a select share's arrays are this thread's own: moved to the statement's thread, not copied
    (result) => parentPort!.postMessage({ id: msg.id, result }, 'rows' in result ? [result.rows.buffer as ArrayBuffer, ...result.columns.map((c) => c.buffer as ArrayBuffer)] : []),
    (err: unknown) => parentPort!.postMessage({ id: msg.id, error: err instanceof Error ? { message: err.message, code: (err as { code?: string }).code, position: (err as { position?: number }).position } : { message: String(err) } }),
  )
})

// loaded: the pool counts this worker as ready (tasks posted while it loaded are queued for it meanwhile)
parentPort?.postMessage({ ready: true })
