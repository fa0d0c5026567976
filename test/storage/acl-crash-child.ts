/**
 * The child of acl-crash.test.ts: opens the data directory `argv[2]` with access control, runs
 * the statement `argv[4]` and kills itself with SIGKILL at the phase `argv[3]` of its grant
 * change ('recorded': the intent is durable, the table not changed yet; 'changed': the table
 * changed, the intent not settled), or exits normally with phase 'none'.
 */
import { Database } from '../../lib/index.js'

const [dir, phase, sql] = process.argv.slice(2) as [string, string, string]
const db = await Database.open({ path: dir, acl: { enabled: true, passwordHashIterations: 1 } })
// the fault hook is internal: set through the facade's private field, as only a test would
const acl = (db as unknown as { acl: { faultHook: ((p: string) => void) | undefined } }).acl
acl.faultHook = (p) => { if (p === phase) process.kill(process.pid, 'SIGKILL') }
await db.query(sql)
await db.close()
process.stdout.write('done\n')
