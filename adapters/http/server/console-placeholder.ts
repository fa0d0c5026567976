/**
 * What the standalone server shows at `/` until the Web Console lands: a small HTML page that
 * points at the REST API.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>EpochDB</title></head>
<body style="font-family: sans-serif; max-width: 40em; margin: 3em auto">
<h1>EpochDB</h1>
<p>The Web Console is not here yet. The REST API is:</p>
<ul>
<li><a href="exec?query=select%201">/exec?query=select 1</a> (JSON)</li>
<li><a href="exp?query=select%201">/exp?query=select 1</a> (CSV)</li>
<li>POST /imp (CSV import), /chk, /settings, /ping</li>
</ul>
</body></html>
`

/** Serves the placeholder page at `/` and `/index.html`, 404 elsewhere. */
export function consolePlaceholder(req: IncomingMessage, res: ServerResponse): void {
  const path = (req.url ?? '/').split('?')[0]
  if (req.method === 'GET' && (path === '/' || path === '/index.html')) {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': Buffer.byteLength(PAGE) })
    res.end(PAGE)
    return
  }
  res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' })
  res.end('Not Found\r\n')
}
