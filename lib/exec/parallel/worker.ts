/**
 * Worker-thread entry point: runs shares of parallel aggregations (see partial.ts) on shared
 * column memory and posts the partial groups back (keys, and the kernels' state).
 */
import { parentPort } from 'node:worker_threads'
import { runPartial } from './partial.js'
import { toWireBatch } from './batch-wire.js'
import { kernelState } from './kernel-state.js'
import type { WirePartial, WireTask } from './wire.js'

parentPort?.on('message', (msg: { id: number; task: WireTask }) => {
  runPartial(msg.task).then(
    (p) => {
      const partial: WirePartial = { count: p.count, keys: toWireBatch({ length: p.count, vectors: [...p.keys] }), states: p.kernels.map(kernelState) }
      parentPort!.postMessage({ id: msg.id, partial })
    },
    (err: unknown) => parentPort!.postMessage({ id: msg.id, error: err instanceof Error ? { message: err.message, code: (err as { code?: string }).code, position: (err as { position?: number }).position } : { message: String(err) } }),
  )
})
