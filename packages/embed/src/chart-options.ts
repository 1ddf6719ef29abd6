/**
 * The web component's chart building without Lit or the DOM: (metric, result, theme) → the ECharts
 * option, table or single value a card shows, and the formatting it uses. Built for Node by
 * tsconfig.node.json to dist/node/ and exported as `@strata/embed/chart-options`, so the server
 * renders report charts from the same option builder as the browser (and shares its header rule).
 * Everything reachable from here must stay DOM-free: tsconfig.node.json compiles it without the DOM lib.
 */
import { SHAPED_BUILDERS } from './charts/kinds/index.js'
import { registerShapedBuilders } from './charts/shaped.js'

// Node has no reason to load them lazily: the chart types with a shape are there from the start.
registerShapedBuilders(SHAPED_BUILDERS)

export type { ChartConfig, ChartType, ColumnFormat, QueryResult, RuntimeMetric } from './api/types.js'
export { PAGE_SIZE } from './api/types.js'
export {
  type BuildContext,
  buildVisual,
  type DataTable,
  fitCategoryLabels,
  type LegendItem,
  type Visual,
} from './charts/build.js'
export { formatTime, humanise } from './lib/format.js'
export { type ChartTheme, DEFAULT_CHART_THEME, DEFAULT_PALETTE } from './lib/theme.js'
