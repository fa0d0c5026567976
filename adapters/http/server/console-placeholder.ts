/**
 * What the standalone server shows at `/`: the Web Console (adapters/console), served from its
 * built assets.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createConsoleHandler } from '../../console/index.js'

const handler = createConsoleHandler()

/** Serves the Web Console at `/`, `/index.html` and `/assets/*`, 404 elsewhere. */
export function consolePlaceholder(req: IncomingMessage, res: ServerResponse): void {
  handler(req, res)
}
