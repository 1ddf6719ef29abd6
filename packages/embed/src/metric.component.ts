import { StrataDashboard } from './dashboard.component.js'

/**
 * One metric of an embed, without the dashboard chrome (no title, sidebar or filter bar
 * unless `options.showFilters`): the `metric-id`, else the embed's first metric. Pinned,
 * default and URL filter values still apply. Same attributes, events and parts as
 * `<strata-dashboard>`; height from `options.height` or `--strata-metric-height` (360px).
 *
 * @summary `<strata-metric token="…" embed-id="…" metric-id="…">`
 *
 * @fires strata-ready - `{ embedId, metrics }`
 * @fires strata-error - `{ code, message, status, metricId? }`
 * @fires strata-filter-change - `{ filters }`
 * @fires strata-drill-change - `{ drills }` (a click on its chart can add a drill chip over it)
 * @fires strata-token-expired - `{ embedId }`
 */
export class StrataMetric extends StrataDashboard {
  protected override get single(): boolean {
    return true
  }
}
