/**
 * Runs one compat test through a Node driver (`pg` or `postgres`) against a pgwire port,
 * giving one {@link StepResult} per step. Parameters are passed as the JS values an application
 * would use (numbers, booleans, arrays; timestamps and dates as ISO text, which keeps
 * microseconds); timestamps come back as raw text so no precision is lost on the way.
 */
import pg from 'pg'
import postgres from 'postgres'
import { type CompatParam, type CompatTest, dollarPlaceholders } from './questdb-compat-cases.js'
import { type StepResult, normalizeJs } from './questdb-compat-compare.js'

/** Node drivers the runner knows, with the names the suite's `exclude` lists use. */
export const NODE_DRIVERS = { pg: 'nodejs-pg', postgres: 'nodejs-postgres' } as const

/** A Node driver name. */
export type NodeDriver = keyof typeof NODE_DRIVERS

/** A step that runs longer than this fails (and the driver's connection is dropped). */
export const STEP_TIMEOUT_MS = 30_000

const TS_OIDS = [1082, 1114, 1184]

function arrayOf(text: string): string[] {
  const inner = text.trim().replace(/^\{/, '').replace(/\}$/, '').trim()
  return inner === '' ? [] : inner.split(',').map((s) => s.trim())
}

/** The JS value for a typed suite parameter. */
export function jsParam(p: CompatParam): unknown {
  switch (p.type) {
    case 'INT4': case 'INT8': case 'FLOAT8': return Number(p.value)
    case 'BOOLEAN': return p.value.toLowerCase() === 'true'
    case 'ARRAY_FLOAT8': return arrayOf(p.value).map(Number)
    case 'ARRAY_VARCHAR': return arrayOf(p.value)
    case 'DATE': case 'CHAR': case 'TIMESTAMP': case 'VARCHAR': case 'NUMERIC': return p.value
  }
}

function withTimeout<T>(p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const t = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`timed out after ${STEP_TIMEOUT_MS} ms`)), STEP_TIMEOUT_MS) })
  return Promise.race([p, t]).finally(() => clearTimeout(timer))
}

const errText = (e: unknown): string => (e instanceof Error ? e.message : String(e))

interface Runner {
  run(query: string, params: unknown[]): Promise<{ rows: unknown[][]; count: number }>
  end(): Promise<void>
}

async function pgRunner(port: number): Promise<Runner> {
  const client = new pg.Client({
    host: '127.0.0.1', port, user: 'admin', password: 'quest', database: 'qdb',
    types: { getTypeParser: ((oid: number, format?: 'text' | 'binary') => (TS_OIDS.includes(oid) ? (s: string) => s : pg.types.getTypeParser(oid, format as 'text'))) as typeof pg.types.getTypeParser },
  })
  client.on('error', () => undefined)
  await client.connect()
  return {
    run: async (query, params) => {
      const r = await client.query({ text: query, values: params, rowMode: 'array' } as pg.QueryArrayConfig)
      return { rows: r.rows as unknown[][], count: r.rowCount ?? 0 }
    },
    end: () => client.end().catch(() => undefined),
  }
}

async function postgresRunner(port: number): Promise<Runner> {
  const sql = postgres({
    host: '127.0.0.1', port, user: 'admin', password: 'quest', database: 'qdb', max: 1, onnotice: () => undefined,
    types: { rawts: { to: 1114, from: TS_OIDS, serialize: (x: unknown) => String(x), parse: (x: string) => x } },
  })
  return {
    run: async (query, params) => {
      const r = await sql.unsafe(query, params as never[]).values()
      return { rows: r as unknown as unknown[][], count: r.count ?? 0 }
    },
    end: () => sql.end({ timeout: 1 }).catch(() => undefined),
  }
}

/** Runs every step of `test` with `driver` on a fresh connection. */
export async function runNodeTest(driver: NodeDriver, port: number, test: CompatTest): Promise<StepResult[]> {
  let runner: Runner
  try {
    runner = driver === 'pg' ? await pgRunner(port) : await postgresRunner(port)
  } catch (e) {
    return test.steps.map(() => ({ ok: false, error: `connect: ${errText(e)}` }))
  }
  const out: StepResult[] = []
  try {
    for (const step of test.steps) {
      try {
        const r = await withTimeout(runner.run(dollarPlaceholders(step.query), step.params.map(jsParam)))
        out.push({ ok: true, rows: r.rows.map((row) => row.map(normalizeJs)), rowcount: r.count })
      } catch (e) {
        out.push({ ok: false, error: errText(e) })
        if (errText(e).startsWith('timed out')) break
      }
    }
  } finally {
    await runner.end()
  }
  return out
}
