import t from 'tap'
import { Database, IlpError } from '../../../lib/index.js'
import { compileAfter, setCompileAfter } from '../../../lib/ilp/line-matcher.js'

// every template compiles at its first matched line: the template tests below run on compiled matchers
const defaultCompileAfter = compileAfter
setCompileAfter(0)
await import('./line-template.test.js')

/** A binary (protocol 2) double field `name==<0x10><8 bytes LE>`. */
function binary(name: string, v: number): Buffer {
  const b = Buffer.alloc(9)
  b[0] = 0x10
  b.writeDoubleLE(v, 1)
  return Buffer.concat([Buffer.from(`${name}==`), b])
}

/** The rows of `sql`, values as JSON-able text. */
async function rows(db: Database, sql: string): Promise<string[]> {
  return (await db.query(sql)).rows.map((r) => JSON.stringify(r, (_k, v: unknown) => typeof v === 'bigint' ? `${v}n` : v))
}

/** What one request of `body` writes, or its error, with compiled matchers or (`walk`) without. */
async function ingest(body: Buffer, walk: boolean): Promise<string[] | string> {
  setCompileAfter(walk ? Infinity : 0)
  const db = await Database.open({ clock: () => 5_000_000 })
  try {
    const w = db.lineWriter({ precision: 'u' })
    try {
      w.write(body)
      await w.end()
    } catch (e) {
      if (e instanceof IlpError) return `${e.status} ${e.message} line ${e.line}`
      throw e
    }
    return await rows(db, 'select * from m')
  } finally {
    await db.close()
    setCompileAfter(0)
  }
}

t.test('values at the edges of the compiled fast paths land as the template walk puts them (or fail the same way)', async (t) => {
  // a few lines of one shape first (the compiled matcher takes the rest), then the edge value
  const head = (i: number, n: string, ts: string): Buffer => Buffer.concat([Buffer.from(`m,s=a `), binary('d', i), Buffer.from(`,n=${n}i ${ts}\n`)])
  const cases: [string, string][] = [
    ['15 digits', '123456789012345'], ['16 digits (past the summed form)', '1234567890123456'], ['19 digits (a bigint)', '1234567890123456789'],
    ['a sign', '-42'], ['a plus', '+7'], ['zero', '0'], ['hex', '0x1f'], ['a fraction', '1.5'],
  ]
  for (const [name, n] of cases) {
    const body = Buffer.concat([head(1, '1', '1000t'), head(2, '2', '2000t'), head(3, n, '3000t')])
    t.same(await ingest(body, false), await ingest(body, true), `integer: ${name}`)
  }
  const stamps: [string, string][] = [
    ['16 digits µs', '1700000000000000t'], ['2^53 µs', '9007199254740991t'], ['past 2^53 µs', '9007199254740993t'], ['17 digits', '17000000000000000t'],
    ['8 digits', '12345678t'], ['9 digits', '123456789t'], ['1 digit', '7t'], ['negative', '-5t'], ['-0', '-0t'], ['ns', '1700000000000000123n'],
    ['ms', '1700000000000m'], ['no suffix (precision u)', '1700000000000001'], ['a letter inside', '17000x0000t'], ['empty with suffix', 't'],
  ]
  for (const [name, ts] of stamps) {
    const body = Buffer.concat([head(1, '1', '1000t'), head(2, '2', '2000t'), head(3, '3', ts)])
    t.same(await ingest(body, false), await ingest(body, true), `timestamp: ${name}`)
  }
})

t.test('templates of one shape share one compiled matcher; a template compiles only after enough matched lines', async (t) => {
  setCompileAfter(defaultCompileAfter)
  t.teardown(() => setCompileAfter(0))
  const { Catalog } = await import('../../../lib/storage/catalog.js')
  const { LineParser } = await import('../../../lib/ilp/line-parser.js')
  const { RequestRows } = await import('../../../lib/ilp/request-rows.js')
  const body = (n: number): Buffer => Buffer.concat(Array.from({ length: n }, (_, i) => Buffer.concat([Buffer.from(`c,s=v${i % 3} `), binary('d', i), Buffer.from(`,n=${i}i ${1000 + i}t\n`)])))
  const compiledOf = (p: InstanceType<typeof LineParser>): unknown => ((p as unknown as { fast: { compiled?: unknown }[] }).fast[0])?.compiled
  const parse = (n: number): InstanceType<typeof LineParser> => {
    const p = new LineParser(new RequestRows(new Catalog(), { autoCreateTables: true, autoCreateColumns: true, maxNameLength: 127, clock: () => 0 }), 'u')
    const b = body(n)
    t.equal(p.parse(b, 0, b.length), b.length)
    return p
  }
  t.equal(compiledOf(parse(10)), undefined, 'a few lines: the template walks its steps')
  const a = compiledOf(parse(defaultCompileAfter + 2))
  const b = compiledOf(parse(defaultCompileAfter + 2))
  t.type(a, 'function', 'compiled after enough lines')
  t.equal(a, b, 'the same function for two requests of one shape')
})
