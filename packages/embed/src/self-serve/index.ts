/**
 * The self-serve UI, loaded on demand (`import()`) by `<strata-dashboard>` when the token may
 * create, change, archive or restore metrics: a separate chunk, so the entry module stays
 * within its size budget and a read-only dashboard never downloads it.
 */
import { defineElement } from '../define.js'
import { StrataArchivedMenu } from './archived-menu.js'
import { StrataCardMenu } from './card-menu.js'
import { StrataMetricBuilder } from './metric-builder.js'
import type { SelfServeHost, SelfServeSessionApi } from './metrics-host.js'
import { StrataSelfServeOverlay } from './overlay.js'
import { SelfServeSession } from './session.js'

defineElement('strata-metric-builder', StrataMetricBuilder)
defineElement('strata-card-menu', StrataCardMenu)
defineElement('strata-archived-menu', StrataArchivedMenu)
defineElement('strata-self-serve-overlay', StrataSelfServeOverlay)

export { SelfServeApi } from './metric-api.js'
export { SelfServeSession }

/** One session per dashboard element (and per loaded embed). */
export function createSession(host: SelfServeHost): SelfServeSessionApi {
  return new SelfServeSession(host)
}

declare global {
  interface HTMLElementTagNameMap {
    'strata-metric-builder': StrataMetricBuilder
    'strata-card-menu': StrataCardMenu
    'strata-archived-menu': StrataArchivedMenu
    'strata-self-serve-overlay': StrataSelfServeOverlay
  }
}
