// The SQLSTATE of each way a user's Parquet file can fail to open or read (user-file-error.ts).
// Errors the test machine cannot make for real (EACCES as root, EMFILE, EIO) are built as the
// reader builds them: a 58030 SqlError with the OS error as its cause.
import t from 'tap'
import { SqlError } from '../../../lib/errors.js'
import { userFileError } from '../../../lib/parquet/user-file-error.js'

const opened = (code: string): SqlError => new SqlError('58030', `could not open parquet file [path=f, error=${code}]`, -1, { cause: Object.assign(new Error(code), { code }) })

t.test('open failures: PostgreSQL\'s codes for a file a statement names', async (t) => {
  const cases: [string, string, number][] = [['ENOENT', '58P01', 2], ['EACCES', '42501', 13], ['EPERM', '42501', 1], ['EISDIR', '42809', 21], ['ENOTDIR', '42809', 20], ['ENAMETOOLONG', '42622', 36], ['EMFILE', '53000', 24], ['EIO', '58030', 5]]
  for (const [os, code, errno] of cases) {
    const e = userFileError(opened(os), 'data/f.parquet', 14) as SqlError
    t.equal(e.code, code, os)
    t.equal(e.message, `error reading parquet file [${errno}]: could not open read-only [file=data/f.parquet]`, os)
    t.equal(e.position, 14, 'at the path argument')
  }
})

t.test('damaged contents are 22P04; other errors pass, placed at the argument', async (t) => {
  const damaged = userFileError(new SqlError('XX001', 'failed to read parquet file: f: bad page', -1), 'f', 3) as SqlError
  t.match(damaged, { code: '22P04', message: 'failed to read parquet file: f: bad page', position: 3 })
  const placed = new SqlError('22P02', 'no', 9)
  t.equal(userFileError(placed, 'f', 3), placed, 'an error with a position is kept')
  t.match(userFileError(new SqlError('54000', 'big', -1), 'f', 3), { code: '54000', position: 3 })
  const plain = new TypeError('x')
  t.equal(userFileError(plain, 'f', 3), plain)
  t.match(userFileError(new SqlError('58030', 'no cause', -1), 'f', 3), { code: '58030', message: 'no cause', position: 3 }, 'a 58030 without an OS error stays a server fault')
})
