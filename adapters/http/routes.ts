/**
 * The URL table: which endpoint serves a path, with which method, and whether it needs
 * credentials (QuestDB leaves /ping and /settings open).
 */

/** The endpoints the handler owns. */
export type Endpoint = 'exec' | 'exp' | 'imp' | 'chk' | 'settings' | 'ping' | 'validate' | 'write'

/** How an endpoint is reached. */
export interface Route {
  readonly endpoint: Endpoint
  readonly method: 'GET' | 'POST'
  readonly open: boolean
}

/** Routes by path. */
export const ROUTES: ReadonlyMap<string, Route> = new Map<string, Route>([
  ['/exec', { endpoint: 'exec', method: 'GET', open: false }],
  ['/api/v1/sql/execute', { endpoint: 'exec', method: 'GET', open: false }],
  ['/exp', { endpoint: 'exp', method: 'GET', open: false }],
  ['/imp', { endpoint: 'imp', method: 'POST', open: false }],
  ['/chk', { endpoint: 'chk', method: 'GET', open: false }],
  ['/settings', { endpoint: 'settings', method: 'GET', open: true }],
  ['/ping', { endpoint: 'ping', method: 'GET', open: true }],
  ['/api/v1/sql/validate', { endpoint: 'validate', method: 'GET', open: false }],
  // InfluxDB Line Protocol (ilp-write.ts)
  ['/write', { endpoint: 'write', method: 'POST', open: false }],
  ['/api/v2/write', { endpoint: 'write', method: 'POST', open: false }],
])
