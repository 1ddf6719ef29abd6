/**
 * @strata/embed: `<strata-dashboard>` and `<strata-metric>`. Importing this module defines
 * both tags (once, even if the module is loaded twice).
 */

export { StrataApiError } from './api/errors.js'
export type {
  ChartConfig,
  ChartType,
  DrillFilter,
  FilterType,
  LayoutItem,
  Permissions,
  QueryResult,
  RuntimeEmbed,
  RuntimeFilter,
  RuntimeMetric,
  SavedView,
} from './api/types.js'
export { StrataDashboard } from './dashboard.js'
export type {
  StrataDrillChangeDetail,
  StrataErrorDetail,
  StrataEventMap,
  StrataFilterChangeDetail,
  StrataReadyDetail,
  StrataTokenExpiredDetail,
} from './events.js'
export type { DateRange, FilterValue, NumberRange } from './lib/filters.js'
export { DATE_PRESETS } from './lib/filters.js'
export type { StrataOptions } from './lib/options.js'
export type { StrataTheme } from './lib/theme.js'
export { StrataMetric } from './metric.js'
