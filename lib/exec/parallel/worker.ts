/**
 * Worker-thread entry point: runs partial aggregations (see partial.ts) on shared column memory
 * and posts the partial groups back.
 */
import { parentPort } from 'node:worker_threads'
import { runPartial } from './partial.js'
import { toWireBatch } from './batch-wire.js'
import type { WireTask } from './wire.js'

parentPort?.on('message', (msg: { id: number; task: WireTask }) => {
  runPartial(msg.task).then(
    (batch) => parentPort!.postMessage({ id: msg.id, batch: toWireBatch(batch) }),
    (err: unknown) => parentPort!.postMessage({ id: msg.id, error: err instanceof Error ? { message: err.message, code: (err as { code?: string }).code, position: (err as { position?: number }).position } : { message: String(err) } }),
  )
})
