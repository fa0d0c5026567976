/**
 * Collects unreferenced SharedArrayBuffers of a long-running server. Column data lives in
 * SharedArrayBuffers (worker threads scan it without copying), and on Node 20 (V8 11.3) allocating
 * them does not count toward V8's GC triggers as plain ArrayBuffers do: a server whose JS heap
 * stays small (about 25 MB) rarely runs a full GC, so the buffers a checkpoint or a regrown column
 * let go of pile up. A steady ILP stream took RSS from 0.2 to 3.4 GB in 6 minutes, linearly, with
 * the memory budget's own figure flat (docs/benchmarks.md, lane ilpcpu). When the process runs
 * with `--expose-gc` (examples/launch.ts gives it), this runs a full GC whenever the process's
 * (Shared)ArrayBuffers grew by `slack` bytes since the last one: at most one GC (a few ms on such
 * a heap) per `slack` of buffers allocated.
 */

/** Checks every `everyMs` (unref'd timer); returns the function that stops it. */
export function collectSharedBuffers(gc: () => void, slack = 256 * 1024 * 1024, everyMs = 1000): () => void {
  let floor = process.memoryUsage().arrayBuffers
  const timer = setInterval(() => {
    const now = process.memoryUsage().arrayBuffers
    if (now - floor < slack) { floor = Math.min(floor, now); return }
    gc()
    floor = process.memoryUsage().arrayBuffers
  }, everyMs)
  timer.unref()
  return () => clearInterval(timer)
}
