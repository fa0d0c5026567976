import http from 'node:http'
import { Readable } from 'node:stream'
import t from 'tap'
import { exec, startServer } from './helpers.js'

const srv = await startServer()
t.teardown(() => srv.close())
const base = `http://127.0.0.1:${srv.port}`

async function upload(query: string, csv: string | Blob, schema?: string, fileName = 'data.csv'): Promise<{ status: number; type: string | null; body: string }> {
  const form = new FormData()
  if (schema !== undefined) form.append('schema', schema)
  form.append('data', typeof csv === 'string' ? new Blob([csv]) : csv, fileName)
  const r = await fetch(`${base}/imp${query}`, { method: 'POST', body: form })
  return { status: r.status, type: r.headers.get('content-type'), body: await r.text() }
}

t.test('detects types and header; JSON answer', async (t) => {
  const csv = 'ts,sym,price,qty,ok\r\n2024-01-01T00:00:00.000000Z,a,1.5,10,true\r\n2024-01-01T00:00:01Z,b,2,20,false\r\n2024-01-01 00:00:02,a,3.25,30,true\r\n'
  const r = await upload('?name=trades&timestamp=ts&partitionBy=DAY&fmt=json', csv)
  t.equal(r.status, 200)
  t.equal(r.type, 'application/json; charset=utf-8')
  t.equal(r.body, '{"status":"OK","location":"trades","rowsRejected":0,"rowsImported":3,"header":true,"partitionBy":"DAY","timestamp":"ts","columns":[' +
    '{"name":"ts","type":"TIMESTAMP","size":8,"errors":0},{"name":"sym","type":"SYMBOL","size":4,"errors":0},{"name":"price","type":"DOUBLE","size":8,"errors":0},' +
    '{"name":"qty","type":"INT","size":4,"errors":0},{"name":"ok","type":"BOOLEAN","size":1,"errors":0}]}')
  t.equal((await exec(srv.port, 'trades')).body,
    '{"query":"trades","columns":[{"name":"ts","type":"TIMESTAMP"},{"name":"sym","type":"SYMBOL"},{"name":"price","type":"DOUBLE"},{"name":"qty","type":"INT"},{"name":"ok","type":"BOOLEAN"}],"timestamp":0,"dataset":[' +
    '["2024-01-01T00:00:00.000000Z","a",1.5,10,true],["2024-01-01T00:00:01.000000Z","b",2.0,20,false],["2024-01-01T00:00:02.000000Z","a",3.25,30,true]],"count":3}')
})

t.test('text table answer, appends to an existing table, per-column errors, ragged rows', async (t) => {
  const csv = 'ts,sym,price,qty,ok\n2024-01-02T00:00:00Z,c,x,40,true\n2024-01-02T00:00:01Z,d,5\n2024-01-02T00:00:02Z,"e,""q""",6.5,zz,false\n'
  const r = await upload('?name=trades', csv)
  t.equal(r.status, 200)
  t.equal(r.type, 'text/plain; charset=utf-8')
  const rule = '+' + '-'.repeat(113) + '+\r\n'
  t.equal(r.body, rule +
    '|      Location:  |                                            trades  |        Pattern  | Locale  |      Errors  |\r\n' +
    '|   Partition by  |                                              NONE  |                 |         |              |\r\n' +
    '|      Timestamp  |                                              NONE  |                 |         |              |\r\n' +
    rule +
    '|   Rows handled  |                                                 3  |                 |         |              |\r\n' +
    '|  Rows imported  |                                                 2  |                 |         |              |\r\n' +
    rule +
    '|              0  |                                                ts  |                TIMESTAMP  |           0  |\r\n' +
    '|              1  |                                               sym  |                   SYMBOL  |           0  |\r\n' +
    '|              2  |                                             price  |                   DOUBLE  |           1  |\r\n' +
    '|              3  |                                               qty  |                      INT  |           1  |\r\n' +
    '|              4  |                                                ok  |                  BOOLEAN  |           0  |\r\n' +
    rule + '\r\n')
  t.match((await exec(srv.port, "select sym, price, qty from trades where ts >= '2024-01-02'")).body, '"dataset":[["c",null,40],["e,\\"q\\"",6.5,null]]')
})

t.test('schema part, overwrite, delimiter, forceHeader, no header', async (t) => {
  const r = await upload('?name=s&overwrite=true&delimiter=%3B&fmt=json&forceHeader=true', 'a;b\n1;x\n2;y\n', '[{"name":"a","type":"LONG"},{"name":"b","type":"STRING"}]')
  t.match(r.body, '"columns":[{"name":"a","type":"LONG","size":8,"errors":0},{"name":"b","type":"STRING","size":0,"errors":0}]')
  const again = await upload('?name=s&overwrite=true&fmt=json', '5,6\n7,8\n')
  t.match(again.body, '"rowsImported":2,"header":false')
  t.match(again.body, '"columns":[{"name":"f0","type":"INT","size":4,"errors":0},{"name":"f1","type":"INT","size":4,"errors":0}]')
})

t.test('bad uploads', async (t) => {
  const notMultipart = await fetch(`${base}/imp?name=x`, { method: 'POST', body: 'a,b\n1,2\n' })
  t.equal(notMultipart.status, 400)
  t.match(await notMultipart.text(), '"status":"expected a multipart/form-data upload')
  const broken = await fetch(`${base}/imp?name=x`, { method: 'POST', headers: { 'Content-Type': 'multipart/form-data; boundary=zz' }, body: '--zz\r\nContent-Disposition: form-data; name="data"; filename="a.csv"\r\n\r\n1,2\n' })
  t.equal(broken.status, 400)
  t.match(await broken.text(), '"status":"malformed multipart request')
  const noData = new FormData()
  noData.append('other', 'x')
  const nd = await fetch(`${base}/imp?name=x`, { method: 'POST', body: noData })
  t.equal(nd.status, 400)
  const badPart = await upload('?name=x&partitionBy=DAY&fmt=json', 'a,b\n1,2\n')
  t.equal(badPart.status, 200)
  t.equal(badPart.body, '{"status":"partitionBy requires a designated timestamp column (timestamp=...)"}')
  t.equal((await exec(srv.port, 'select count() from trades')).body.includes('[[5]]'), true, 'earlier data intact')
})

t.test('a large upload streams through in batches (chunked request body)', async (t) => {
  const rows = 200_000
  function* body(): Generator<string> {
    yield '--BOUNDARY\r\nContent-Disposition: form-data; name="data"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\nts,v,s\n'
    for (let i = 0; i < rows; i += 1000) {
      let chunk = ''
      for (let k = i; k < i + 1000; k++) chunk += `${new Date(Date.UTC(2024, 0, 1) + k * 1000).toISOString()},${k},s${k % 7}\n`
      yield chunk
    }
    yield '\r\n--BOUNDARY--\r\n'
  }
  const reply = await new Promise<string>((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1', port: srv.port, method: 'POST', path: '/imp?name=big&timestamp=ts&partitionBy=DAY&fmt=json',
      headers: { 'Content-Type': 'multipart/form-data; boundary=BOUNDARY' },
    }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => { text += c })
      res.on('end', () => resolve(text))
    })
    req.on('error', reject)
    Readable.from(body()).pipe(req)
  })
  t.match(reply, `"rowsImported":${rows}`)
  t.match((await exec(srv.port, 'select count(), sum(v) from big')).body, `"dataset":[[${rows},${(rows * (rows - 1)) / 2}]]`)
})
