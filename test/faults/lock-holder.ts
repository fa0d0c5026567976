/**
 * A process that opens a data directory and holds it until killed: the other side of the lock
 * tests. Usage: `node --import tsx test/faults/lock-holder.ts <dir> [leaseMs]`. Prints
 * `ready <pid>` once it holds the lock, or `error <sqlstate> <message>` and exits 3.
 */
import { Database } from '../../lib/index.js'

const [dir, lease] = process.argv.slice(2)
if (dir === undefined) process.exit(0) // run without arguments (tap given the folder): nothing to hold
try {
  const db = await Database.open({ path: dir!, lockLease: lease === undefined ? undefined : Number(lease) })
  process.stdout.write(`ready ${process.pid}\n`)
  setInterval(() => void db.query('select 1'), 1000)
} catch (e) {
  process.stdout.write(`error ${(e as { code?: string }).code} ${(e as Error).message}\n`)
  process.exit(3)
}
