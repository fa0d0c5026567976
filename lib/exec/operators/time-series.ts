/**
 * Operators of the time-series extensions (SAMPLE BY, LATEST ON, ASOF/LT/SPLICE JOIN, window
 * functions). Each lives in its own file; this module only routes to them.
 */

export { runSampleBy } from './sample-by.js'

export { runLatestOn } from './latest-on.js'

export { runTimeJoin } from './time-join.js'

export { runWindow } from './window.js'
