/**
 * A streaming CSV tokenizer: text goes in chunk by chunk, complete rows come out; a quoted
 * field may span chunks and lines (`""` is a quote inside quotes). Lines end with `\n` or
 * `\r\n`; blank lines are skipped.
 */

/** Delimiters tried when the request does not name one, most likely first. */
const CANDIDATES = [',', '\t', ';', '|'] as const

/** The delimiter used most often outside quotes on the first line of `sample` (`,` when none). */
export function detectDelimiter(sample: string): string {
  const end = sample.indexOf('\n')
  const line = end < 0 ? sample : sample.slice(0, end)
  let best: string = ','
  let bestCount = 0
  for (const d of CANDIDATES) {
    let n = 0
    let quoted = false
    for (const c of line) {
      if (c === '"') quoted = !quoted
      else if (c === d && !quoted) n++
    }
    if (n > bestCount) { best = d; bestCount = n }
  }
  return best
}

/** Incremental CSV parser. */
export class CsvReader {
  private field = ''
  private row: string[] = []
  private quoted = false
  /** the previous character closed a quote (a following `"` is an escaped quote) */
  private afterQuote = false
  private readonly delim: number

  constructor(delimiter: string) {
    this.delim = delimiter.charCodeAt(0)
  }

  /** Feeds text; returns the rows completed by it. */
  push(text: string): string[][] {
    const rows: string[][] = []
    const d = this.delim
    let start = 0
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i)
      if (this.quoted) {
        if (c === 34) {
          this.field += text.slice(start, i)
          start = i + 1
          this.quoted = false
          this.afterQuote = true
        }
        continue
      }
      if (c === 34) {
        // `""` inside a quoted field is a literal quote; a quote at a field start opens quotes
        if (this.afterQuote) this.field += '"'
        else this.field += text.slice(start, i)
        start = i + 1
        this.quoted = true
        this.afterQuote = false
        continue
      }
      this.afterQuote = false
      if (c === d) {
        this.row.push(this.field + text.slice(start, i))
        this.field = ''
        start = i + 1
      } else if (c === 10) {
        let end = i
        if (end > start && text.charCodeAt(end - 1) === 13) end--
        else if (end === start && this.field.endsWith('\r')) this.field = this.field.slice(0, -1)
        this.row.push(this.field + text.slice(start, end))
        this.field = ''
        start = i + 1
        if (!(this.row.length === 1 && this.row[0] === '')) rows.push(this.row)
        this.row = []
      }
    }
    this.field += text.slice(start)
    return rows
  }

  /** Ends the input; returns the last row when the text did not end with a newline. */
  end(): string[][] {
    if (this.field.endsWith('\r')) this.field = this.field.slice(0, -1)
    if (this.row.length === 0 && this.field === '') return []
    this.row.push(this.field)
    const row = this.row
    this.row = []
    this.field = ''
    return [row]
  }
}
