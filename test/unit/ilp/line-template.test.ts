import t from 'tap'
import { Database, IlpError } from '../../../lib/index.js'
import { Catalog } from '../../../lib/storage/catalog.js'
import { LineParser } from '../../../lib/ilp/line-parser.js'
import { RequestRows } from '../../../lib/ilp/request-rows.js'

/** A binary (protocol 2) double field `name==<0x10><8 bytes LE>`. */
function binary(name: string, v: number): Buffer {
  const b = Buffer.alloc(9)
  b[0] = 0x10
  b.writeDoubleLE(v, 1)
  return Buffer.concat([Buffer.from(`${name}==`), b])
}

/** A double whose 8 bytes hold newlines, commas and spaces (a template must skip them by length). */
const TRICKY = Buffer.from([10, 44, 32, 13, 10, 61, 0x24, 0x40]).readDoubleLE(0)

/**
 * Random valid lines of a few shapes: SYMBOL tags (some escaped, some non-ASCII), text and
 * binary DOUBLE fields, LONG fields, timestamps with and without suffixes or none, `\n` or
 * `\r\n` ends, and now and then a line of a shape templates do not take (a string, a boolean).
 */
function randomLines(rnd: () => number, count: number): Buffer[] {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!
  const out: Buffer[] = []
  for (let i = 0; i < count; i++) {
    const parts: Buffer[] = []
    const table = rnd() < 0.8 ? 'm' : 'mm'
    let head = table
    if (rnd() < 0.95) head += `,a=${pick(['x', 'y', 'é', 'z\\ w', 'x'])}`
    if (rnd() < 0.9) head += `,b=${pick(['p', 'q'])}`
    parts.push(Buffer.from(`${head} `))
    parts.push(rnd() < 0.5 ? Buffer.from(`f=${pick(['1.5', '-2', '3e2', '.25', '7'])}`) : binary('f', pick([1.25, -0.5, TRICKY])))
    parts.push(Buffer.from(`,i=${pick(['1', '-42', '9007199254740993', '0'])}i`))
    if (rnd() < 0.8) parts.push(Buffer.from(',g='), rnd() < 0.5 ? Buffer.from(String(Math.floor(rnd() * 100))) : binary('', rnd() < 0.3 ? TRICKY : rnd()).subarray(1))
    if (rnd() < 0.05) parts.push(Buffer.from(',s="text"'))
    if (rnd() < 0.05) parts.push(Buffer.from(',ok=t'))
    const ts = pick(['', ` ${1_700_000_000_000_000 + i}`, ` ${1_700_000_000_000_000 + i}t`, ` ${1_700_000_000_000 + i}m`, ` ${1_700_000_000_000_000_000 + i * 1000}n`])
    parts.push(Buffer.from(`${ts}${rnd() < 0.1 ? '\r\n' : '\n'}`))
    out.push(Buffer.concat(parts))
  }
  return out
}

/** Every row of `table` as sortable text, columns by name (row and column order are not what is compared). */
async function dump(db: Database, table: string): Promise<string[]> {
  const r = await db.query(`select * from ${table}`)
  const names = r.columns.map((c) => `${c.name} ${c.type}`)
  const order = names.map((_, i) => i).sort((a, b) => names[a]!.localeCompare(names[b]!))
  return r.rows.map((row) => JSON.stringify(order.map((i) => [names[i], row[i]]), (_k, v: unknown) => typeof v === 'bigint' ? `${v}n` : v)).sort()
}

t.test('lines matched by a template land as the general parser puts them (random lines, random chunk cuts)', async (t) => {
  let seed = 4242
  const rnd = (): number => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x80000000 }
  for (let round = 0; round < 6; round++) {
    const lines = randomLines(rnd, 400)
    // reference: one request per line, so no line is ever matched against an earlier one
    const alone = await Database.open({ clock: () => 1_000_000 })
    for (const l of lines) { const w = alone.lineWriter({ precision: 'u' }); w.write(l); await w.end() }
    // one request, cut into chunks at random places
    const batched = await Database.open({ clock: () => 1_000_000 })
    const w = batched.lineWriter({ precision: 'u' })
    const body = Buffer.concat(lines)
    for (let o = 0; o < body.length;) { const n = 1 + Math.floor(rnd() * 300); w.write(body.subarray(o, o + n)); o += n }
    t.equal(await w.end(), lines.length)
    for (const table of ['m', 'mm']) t.same(await dump(batched, table), await dump(alone, table), `round ${round}, table ${table}`)
    await alone.close()
    await batched.close()
  }
})

t.test('the fast path takes lines of one shape (no call per value) and leaves others to the parser', async (t) => {
  const rows = new RequestRows(new Catalog(), { autoCreateTables: true, autoCreateColumns: true, maxNameLength: 127, clock: () => 0 })
  const p = new LineParser(rows, 'u')
  const same = Array.from({ length: 100 }, (_, i) => Buffer.concat([Buffer.from(`t,s=v${i % 3} `), binary('d', i), Buffer.from(`,n=${i}i,x=${i}.5 ${1000 + i}t\n`)]))
  const body = Buffer.concat(same)
  t.equal(p.parse(body, 0, body.length), body.length)
  t.equal(p.fastLines, 99, 'every line after the first')
  const table = rows.tables.get('t')!
  t.equal(table.rows, 100)
  // a string field: no template, and the parser does not ask again for every line
  const strings = Buffer.from(Array.from({ length: 50 }, (_, i) => `u v="a",w=${i}i ${i}t\n`).join(''))
  t.equal(p.parse(strings, 0, strings.length), strings.length)
  t.equal(p.fastLines, 99, 'lines with a string are parsed by the general parser')
  t.equal(rows.tables.get('u')!.rows, 50)
})

t.test('a line that differs from the template only in a literal\'s last 1-3 bytes is not taken for it (the compare covers every byte)', async (t) => {
  // literals of 4+ bytes are compared a word at a time, their last 1-3 bytes as a word overlapping the last whole one
  const db = await Database.open()
  const w = db.lineWriter({ precision: 'u' })
  const line = (table: string, tag: string, f1: string, f2: string, i: number): Buffer =>
    Buffer.concat([Buffer.from(`${table},${tag}=a `), binary(f1, i), Buffer.from(','), binary(f2, -i), Buffer.from(`,seq=${i}i ${1000 + i}t\n`)])
  const lines = [
    line('metrics', 'venue', 'bid_sz', 'ask_sz', 1),
    line('metrics', 'venue', 'bid_sz', 'ask_sz', 2), // taken by the template
    line('metrics', 'venue', 'bid_sy', 'ask_sz', 3), // 1st literal tail byte differs: a new column bid_sy
    line('metrics', 'venue', 'bid_sz', 'ask_sq', 4), // another literal's tail
    line('metrics', 'venuf', 'bid_sz', 'ask_sz', 5), // the table+tag literal's tail: a new tag column
    line('metricz', 'venue', 'bid_sz', 'ask_sz', 6), // the table name's tail: another table
    line('metrics', 'venue', 'bid_sz', 'ask_sz', 7),
  ]
  w.write(Buffer.concat(lines))
  t.equal(await w.end(), 7)
  const q = async (sql: string): Promise<unknown[][]> => (await db.query(sql)).rows.map((r) => [...r])
  t.same(await q('select seq, bid_sz, bid_sy, ask_sz, ask_sq, venue, venuf from metrics order by seq'), [
    [1, 1, null, -1, null, 'a', null],
    [2, 2, null, -2, null, 'a', null],
    [3, null, 3, -3, null, 'a', null],
    [4, 4, null, null, -4, 'a', null],
    [5, 5, null, -5, null, null, 'a'],
    [7, 7, null, -7, null, 'a', null],
  ])
  t.same(await q('select seq from metricz'), [[6]])
  await db.close()
})

async function failure(db: Database, body: Buffer): Promise<IlpError> {
  const w = db.lineWriter({ precision: 'u' })
  try {
    w.write(body)
    await w.end()
  } catch (e) {
    if (e instanceof IlpError) return e
    throw e
  }
  throw new Error('expected an IlpError')
}

t.test('a bad line shaped like the good lines before it: the general parser\'s error, its line number, nothing written', async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  const good = (i: number): Buffer => Buffer.concat([Buffer.from(`e,s=a `), binary('d', i), Buffer.from(`,n=${i}i,f=${i}.5 ${1000 + i}t\n`)])
  const head = Buffer.concat(Array.from({ length: 20 }, (_, i) => good(i)))
  const cases: [string, Buffer, RegExp][] = [
    ['a float that is not one', Buffer.from('e,s=a d==\x10\0\0\0\0\0\0\0\0,n=1i,f=1.5x 2000t\n', 'latin1'), /field value is invalid. Field: f; value: 1.5x/],
    ['a float into the LONG column', Buffer.concat([Buffer.from('e,s=a '), binary('d', 1), Buffer.from(',n=1.5,f=2.5 2000t\n')]), /cast error from protocol type: FLOAT to column type: LONG/],
    ['an integer past 64 bits', Buffer.concat([Buffer.from('e,s=a '), binary('d', 1), Buffer.from(',n=99999999999999999999i,f=2.5 2000t\n')]), /field value is invalid. Field: n/],
    ['a timestamp before 1970', Buffer.concat([Buffer.from('e,s=a '), binary('d', 1), Buffer.from(',n=1i,f=2.5 -5t\n')]), /designated timestamp before 1970-01-01 is not allowed/],
    ['a timestamp that is not a number', Buffer.concat([Buffer.from('e,s=a '), binary('d', 1), Buffer.from(',n=1i,f=2.5 12x4t\n')]), /Could not parse timestamp: 12x4t/],
    ['a symbol of invalid UTF-8', Buffer.concat([Buffer.from('e,s=\xff\xfe ', 'latin1'), binary('d', 1), Buffer.from(',n=1i,f=2.5 2000t\n')]), /invalid UTF-8/],
    ['an empty tag value', Buffer.concat([Buffer.from('e,s= '), binary('d', 1), Buffer.from(',n=1i,f=2.5 2000t\n')]), /Symbol value is missing/],
  ]
  for (const [what, bad, message] of cases) {
    const e = await failure(db, Buffer.concat([head, bad, good(99)]))
    t.match(e.message, message, what)
    t.equal(e.line, 21, `${what}: line number`)
  }
  t.equal((await db.query('select count() from tables() where table_name = \'e\'')).rows[0]![0], 0n, 'no table was created')
})

t.test('an integer into an existing DOUBLE column, a DOUBLE into LONG refused, lines without timestamps take the clock', async (t) => {
  const db = await Database.open({ clock: () => 7_000_000 })
  t.teardown(() => db.close())
  await db.query('create table c (s symbol, d double, n long, timestamp timestamp) timestamp(timestamp) partition by day wal')
  const w = db.lineWriter({ precision: 'u' })
  w.write(Buffer.from(Array.from({ length: 10 }, (_, i) => `c,s=k d=${i}i,n=${i}i\n`).join('')))
  t.equal(await w.end(), 10)
  t.same((await db.query('select sum(d), sum(n), min(timestamp)::long, count() from c')).rows, [[45, 45n, 7_000_000n, 10n]])
})

t.test('a TIMESTAMP_NS designated timestamp keeps the nanoseconds of lines the fast path takes', async (t) => {
  const db = await Database.open({ clock: () => 9_000_000 })
  t.teardown(() => db.close())
  await db.query('create table q (v double, ts timestamp_ns) timestamp(ts) partition by day wal')
  const w = db.lineWriter({})
  w.write(Buffer.from([
    ...Array.from({ length: 5 }, (_, i) => `q v=${i} 170000000000000${i}12${i}`),
    ...Array.from({ length: 3 }, (_, i) => `q v=${5 + i} 170000000000000${i}t`),
    ...Array.from({ length: 2 }, (_, i) => `q v=${8 + i}`),
    '',
  ].join('\n')))
  t.equal(await w.end(), 10)
  t.same((await db.query('select v, ts::string from q order by v')).rows, [
    ...Array.from({ length: 5 }, (_, i) => [i, `2023-11-14T22:13:20.00000${i}12${i}Z`]),
    ...Array.from({ length: 3 }, (_, i) => [5 + i, `2023-11-14T22:13:20.00000${i}000Z`]),
    [8, '1970-01-01T00:00:09.000000000Z'], [9, '1970-01-01T00:00:09.000000000Z'],
  ])
})

t.test('batches of a table after a first one: builders sized by the last batch still take more rows, or fewer', async (t) => {
  const db = await Database.open()
  t.teardown(() => db.close())
  let total = 0
  for (const n of [3000, 5000, 100, 20_000, 1]) {
    const w = db.lineWriter({ precision: 'u' })
    w.write(Buffer.from(Array.from({ length: n }, (_, i) => `h,s=k${i % 5} v=${i}i ${1_000_000 + total + i}\n`).join('')))
    t.equal(await w.end(), n)
    total += n
    t.same((await db.query('select count(), count(s), count(v), sum(v) from h')).rows, [[BigInt(total), BigInt(total), BigInt(total), BigInt([3000, 5000, 100, 20_000, 1].slice(0, [3000, 5000, 100, 20_000, 1].indexOf(n) + 1).reduce((a, m) => a + m * (m - 1) / 2, 0))]])
  }
})
