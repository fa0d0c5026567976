/**
 * A process-wide hook called once when any table first holds {@link TABLE_GROWTH}`.rows` rows
 * after an append. The execution layer sets it to start loading its worker threads
 * (exec/parallel/warm.ts) as soon as a table is large enough for a parallel plan, so the first
 * such query finds them loaded; storage itself knows nothing of workers.
 */
export const TABLE_GROWTH: { rows: number; reached: (() => void) | undefined } = { rows: Infinity, reached: undefined }

/** Calls and clears {@link TABLE_GROWTH}`.reached` when `rows` is at least its `rows`. */
export function noteTableRows(rows: number): void {
  const reached = TABLE_GROWTH.reached
  if (reached === undefined || rows < TABLE_GROWTH.rows) return
  TABLE_GROWTH.reached = undefined
  reached()
}
