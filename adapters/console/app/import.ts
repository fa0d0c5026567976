/// <reference lib="dom" />
/**
 * CSV import by drag and drop: a file dropped anywhere on the console is POSTed to /imp with an
 * upload progress bar; the summary (rows imported / rejected, per-column errors) is shown.
 */
import { importCsv, type ImportSummary } from './api.js'
import { el } from './dom.js'

/** Table name for a file: its base name with unsafe characters replaced. */
export function tableNameFor(fileName: string): string {
  const base = fileName.replace(/\.[^.]*$/, '').replace(/[^A-Za-z0-9_]/g, '_')
  return base.length === 0 ? 'import' : base
}

/** Describes an /imp answer in one line plus per-column errors. */
export function describeImport(s: ImportSummary): string {
  if (s.status !== 'OK') return `Import failed: ${s.status}`
  const errs = (s.columns ?? []).filter((c) => c.errors > 0).map((c) => `${c.name}: ${c.errors}`)
  return `Imported ${s.rowsImported ?? 0} rows into ${s.location ?? '?'}, ${s.rowsRejected ?? 0} rejected` + (errs.length > 0 ? ` (bad values — ${errs.join(', ')})` : '')
}

/**
 * Installs the drop zone on `root`. `report` shows progress and results; `done` runs after a
 * successful import (to refresh the schema).
 */
export function installDropImport(root: HTMLElement, report: (text: string, fraction: number | undefined, ok: boolean) => void, done: (table: string) => void): HTMLElement {
  const overlay = el('div', { class: 'drop-overlay' }, el('div', {}, 'Drop a CSV file to import it'))
  root.append(overlay)
  let depth = 0
  root.addEventListener('dragenter', (e) => { if (e.dataTransfer?.types.includes('Files') === true) { depth++; overlay.classList.add('on') } })
  root.addEventListener('dragleave', () => { depth = Math.max(0, depth - 1); if (depth === 0) overlay.classList.remove('on') })
  root.addEventListener('dragover', (e) => { e.preventDefault() })
  root.addEventListener('drop', (e) => {
    e.preventDefault()
    depth = 0
    overlay.classList.remove('on')
    const file = e.dataTransfer?.files[0]
    if (file !== undefined) void importFile(file, report, done)
  })
  return overlay
}

/** Uploads one file and reports. */
export async function importFile(file: File, report: (text: string, fraction: number | undefined, ok: boolean) => void, done: (table: string) => void): Promise<void> {
  const table = tableNameFor(file.name)
  report(`Uploading ${file.name} → ${table}…`, 0, true)
  try {
    const s = await importCsv(file, table, (f) => report(`Uploading ${file.name} → ${table}… ${Math.round(f * 100)}%`, f, true))
    report(describeImport(s), undefined, s.status === 'OK')
    if (s.status === 'OK') done(s.location ?? table)
  } catch (e) {
    report(`Import failed: ${(e as Error).message}`, undefined, false)
  }
}
