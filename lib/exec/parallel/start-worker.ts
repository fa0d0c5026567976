/**
 * Starts a worker thread on a module beside the caller (`./worker.ts` from sources, `./worker.js`
 * from `dist/`). Shared by the parallel-operator pool and the Parquet compression pool.
 */
import { Worker } from 'node:worker_threads'

/**
 * A worker running `name` (without extension) resolved against `callerUrl` (the caller's
 * `import.meta.url`). Run from TypeScript sources (tests, tsx), the worker registers tsx's loader
 * before importing the module.
 */
export function startModuleWorker(callerUrl: string, name: string): Worker {
  const fromSource = callerUrl.endsWith('.ts')
  const url = new URL(`./${name}${fromSource ? '.ts' : '.js'}`, callerUrl)
  return fromSource
    ? new Worker(`import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(url.href)}) })`, { eval: true })
    : new Worker(url)
}
