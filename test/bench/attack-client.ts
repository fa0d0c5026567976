/**
 * The attacker of the attack bench (test/bench/attack.ts), in a process of its own so that
 * building a 5 MB statement or serialising it never delays the bench's probe client: with both
 * in one process, the probe's p99 measured the bench as much as the server.
 *
 * `node --import tsx test/bench/attack-client.ts <attack> <http base> <pg port>`: builds the
 * attack's payload, prints `ready`, waits for a line on stdin, runs the attack and prints one
 * line, what the attacker got. The bench stops an attack that outlasts its cap by killing this
 * process.
 */
import { createInterface } from 'node:readline'
import pg from 'pg'

interface Server { readonly http: string; readonly pgPort: number }

function client(s: Server): pg.Client {
  const c = new pg.Client({ host: '127.0.0.1', port: s.pgPort, user: 'admin', password: 'quest', database: 'qdb' })
  c.on('error', () => {}) // a server that dies under attack is reported, not thrown
  return c
}

async function rest(s: Server, query: string): Promise<string> {
  // commas stay unencoded (they are legal in a query string), as a browser or curl -G sends them
  const res = await fetch(`${s.http}/exec?query=${encodeURIComponent(query).replace(/%2C/g, ',')}`)
  const body = await res.text()
  if (res.status === 200) {
    const m = /"count":(\d+)/.exec(body)
    return `HTTP 200, ${m?.[1] ?? '?'} rows`
  }
  return `HTTP ${res.status}: ${body.slice(0, 90)}`
}

async function viaPg(s: Server, sql: string): Promise<string> {
  const c = client(s)
  await c.connect()
  try {
    const r = await c.query(sql)
    return `ok, ${r.rowCount ?? r.rows.length} rows`
  } catch (e) {
    const err = e as { code?: string; message: string }
    return `${err.code ?? 'error'}: ${err.message.slice(0, 90)}`
  } finally {
    await c.end().catch(() => {})
  }
}

/**
 * An attack: `setup` runs first (tables it needs), `payload` builds the statement text, both
 * before the probe starts; `send` is what the probe measures against.
 */
interface Attack {
  readonly name: string
  readonly what: string
  setup?(s: Server): Promise<unknown>
  payload(): string
  send(s: Server, text: string): Promise<string>
}

const repeat = (n: number, f: (i: number) => string, sep: string): string => Array.from({ length: n }, (_, i) => f(i)).join(sep)

/** The attacks of issue #12, by name. */
export const ATTACKS: readonly Attack[] = [
  { name: 'in-list', what: 'IN list of 30,000 items (one 60 KB REST GET)', payload: () => `select count() from long_sequence(10) where x in (${repeat(30_000, () => '1', ',')})`, send: rest },
  {
    name: 'insert-values', what: '30,000-row INSERT ... VALUES (pgwire)',
    setup: (s) => viaPg(s, 'create table bulk (ts timestamp, v long) timestamp(ts) partition by day'),
    payload: () => `insert into bulk values ${repeat(30_000, (i) => `(${i}::timestamp, ${i})`, ',')}`, send: viaPg,
  },
  { name: 'plus-chain', what: '5 MB of 1+1+... (pgwire)', payload: () => `select ${repeat(2_500_000, () => '1', '+')}`, send: viaPg },
  { name: 'plus-6k', what: '6 KB of 1+1+... (pgwire)', payload: () => `select ${repeat(3_000, () => '1', '+')}`, send: viaPg },
  { name: 'cross-join', what: '20k x 20k cross join (REST)', payload: () => 'select count() from long_sequence(20000) a cross join long_sequence(20000) b', send: rest },
  {
    name: 'key-join', what: '30k x 30k single-key join (pgwire)',
    setup: (s) => viaPg(s, 'create table j as (select 1 k, x from long_sequence(30000))'),
    payload: () => 'select count() from j a join j b on (k)', send: viaPg,
  },
  { name: 'regex', what: "('a' * 32 || '!') ~ '(a+)+$' (REST)", payload: () => "select count() from long_sequence(1) where (rpad('', 32, 'a') || '!') ~ '(a+)+$'", send: rest },
  { name: 'order-by', what: 'order by over long_sequence(400M) (REST)', payload: () => 'select x from long_sequence(400000000) order by x desc limit 1', send: rest },
  {
    name: 'window', what: 'two window calls over 2M rows (REST)',
    payload: () => 'select count(), max(a), max(b) from (select sum(x) over (order by x rows between 10 preceding and current row) a, ' +
      'first_value(x) over (order by x rows between 10 preceding and current row) b from long_sequence(2000000))',
    send: rest,
  },
  { name: 'in-list-150k', what: 'IN list of 150,000 items (pgwire)', payload: () => `select count() from long_sequence(10) where x in (${repeat(150_000, (i) => String(i), ',')})`, send: viaPg },
]

const [name, http, pgPort] = process.argv.slice(2)
if (name !== undefined) {
  const attack = ATTACKS.find((a) => a.name === name)
  if (attack === undefined) throw new Error(`unknown attack ${name}`)
  const server: Server = { http: http!, pgPort: Number(pgPort) }
  const lines = createInterface({ input: process.stdin })
  const go = new Promise<void>((resolve) => lines.once('line', () => resolve()))
  await attack.setup?.(server)
  const text = attack.payload()
  process.stdout.write('ready\n')
  await go
  let outcome: string
  try {
    outcome = await attack.send(server, text)
  } catch (e) {
    outcome = `client error: ${(e as Error).message.slice(0, 80)}`
  }
  process.stdout.write(outcome.replace(/\n/g, ' ') + '\n')
  lines.close()
  process.exit(0)
}
