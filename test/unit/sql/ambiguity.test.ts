import t from 'tap'
import { allParses } from '../../../lib/sql/parse.js'
import { CORPUS } from './corpus.js'

t.test('every statement of the corpus has exactly one parse', async (t) => {
  for (const sql of CORPUS) {
    t.equal(allParses(sql).length, 1, sql)
  }
})
