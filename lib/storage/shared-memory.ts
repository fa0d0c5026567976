/**
 * Shared memory for column data, and its collection.
 *
 * Column values live in SharedArrayBuffers where the platform has them, so worker threads scan a
 * table without copying (lib/exec/parallel). On Node 20 (V8 11.3), allocating a SharedArrayBuffer
 * does not count toward V8's GC triggers as a plain ArrayBuffer's memory does: a process whose
 * JS heap stays small runs no full GC for a long time, and the buffers that checkpoints, regrown
 * columns and finished queries let go of pile up outside the heap (a steady ILP stream took a
 * server from 0.2 to 3.4 GB in 6 minutes with the memory budget's own figure flat; 1,000 dropped
 * 8 MB buffers stay 8.4 GB of RSS). So every column buffer is allocated here, the bytes are
 * counted, and after every {@link SHARED_GC_SLACK} bytes a full GC is run on the next turn of the
 * event loop: at most one GC (a few ms on a small heap) per 256 MiB of column memory allocated.
 *
 * The GC function is `globalThis.gc` when the process runs with `--expose-gc` (examples/launch.ts
 * gives it); otherwise it is obtained once through `v8.setFlagsFromString('--expose-gc')` and a
 * new VM context, the documented way to reach it at run time. Where neither works, nothing is
 * collected early (V8 still collects the buffers at its own next full GC).
 */
import v8 from 'node:v8'
import vm from 'node:vm'

/** True where SharedArrayBuffer exists (it can be absent without cross-origin isolation). */
export const HAS_SAB = typeof SharedArrayBuffer === 'function'

/** Bytes of shared column memory allocated between two collections. */
export const SHARED_GC_SLACK = 256 * 1024 * 1024

let sinceGc = 0
let scheduled = false
let collect: (() => void) | null | undefined

/** The process's full-GC function, looked up once; null where none can be had. */
function gcFunction(): (() => void) | null {
  if (collect !== undefined) return collect
  const exposed = (globalThis as { gc?: unknown }).gc
  if (typeof exposed === 'function') return (collect = exposed as () => void)
  try {
    v8.setFlagsFromString('--expose-gc')
    const fn = vm.runInNewContext('gc') as unknown
    collect = typeof fn === 'function' ? (fn as () => void) : null
  } catch {
    collect = null
  }
  return collect
}

/** Runs the full GC now; false where none is available. */
function collectSharedMemory(): boolean {
  sinceGc = 0
  const gc = gcFunction()
  if (gc === null) return false
  gc()
  return true
}

/**
 * A buffer of `bytes` for column data: a SharedArrayBuffer where available (a plain ArrayBuffer
 * elsewhere). Counts the bytes and schedules a full GC after every {@link SHARED_GC_SLACK}.
 */
export function sharedBuffer(bytes: number): SharedArrayBuffer | ArrayBuffer {
  if (!HAS_SAB) return new ArrayBuffer(bytes)
  sinceGc += bytes
  if (sinceGc >= SHARED_GC_SLACK && !scheduled) {
    scheduled = true
    setImmediate(() => {
      scheduled = false
      collectSharedMemory()
    }).unref()
  }
  return new SharedArrayBuffer(bytes)
}
